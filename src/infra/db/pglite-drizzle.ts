import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';

/**
 * The types drizzle reads as PostgreSQL's text rather than PGlite's parsed values: timestamp,
 * timestamptz, interval and date, and the arrays of numeric, timestamp, timestamptz, interval and
 * date (drizzle-orm/pglite/session.js).
 */
const TEXT_TYPES = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];
const asText = (value: string) => value;

/** Drizzle's text types as PGlite parsers: the client's own for `drizzleClient`. */
const DRIZZLE_PARSERS: Record<number, (value: string) => string> = Object.fromEntries(
  TEXT_TYPES.map((type) => [type, asText]),
);

const isDrizzles = (parsers: Record<number, unknown>) => {
  const keys = Object.keys(parsers);
  return keys.length === TEXT_TYPES.length && TEXT_TYPES.every((type) => type in parsers);
};

type Queries = Pick<PGlite, 'query'>;

/** `query` that leaves out drizzle's per-query parsers when the client holds the same ones. */
function queryOf(target: Queries): Queries['query'] {
  return (text, params, options) =>
    target.query(
      text,
      params,
      options?.parsers && isDrizzles(options.parsers)
        ? ({ ...options, parsers: undefined } as QueryOptions)
        : options,
    );
}

/**
 * A ready PGlite client, given drizzle's parsers as its own, as drizzle drives it (`query`, and
 * `transaction` handing it a transaction): drizzle passes its parsers with every query, and PGlite
 * merges them into a copy of its whole table (318 types) each time: ~90 µs a query, more than a
 * simple query costs itself (measured: `select 1` 250 µs with them, 92 µs without). The client's
 * own table holds the same parsers, so leaving them out reads every value as before.
 */
export function drizzleClient(client: PGlite): PGlite {
  // PGlite sets its array types' parsers while it starts (over those given to its constructor):
  // drizzle's go back on top once it has.
  if (!client.ready) throw new Error('drizzleClient needs a PGlite that is ready (await waitReady)');
  Object.assign(client.parsers, DRIZZLE_PARSERS);
  const adapter = {
    query: queryOf(client),
    transaction: <T>(fn: (tx: Transaction) => Promise<T>) =>
      client.transaction((tx) => fn(Object.create(tx, { query: { value: queryOf(tx) } }) as Transaction)),
  };
  return adapter as unknown as PGlite;
}
