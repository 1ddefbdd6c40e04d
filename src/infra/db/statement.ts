import { types } from '@electric-sql/pglite';
import { type Column, fillPlaceholders, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';
import { rowMapper } from './row-mapper.ts';

/**
 * A drizzle select compiled once and run many times straight through the driver, for hot reads
 * (the bounty list): per execution only the placeholders are filled, the rows come as arrays and
 * each is decoded into one object with the same column mappers drizzle applies. What drizzle does
 * per execution on top of that (building the query for an unnamed statement: ~100-200 µs; and its
 * generic row mapping, an `is()` prototype walk per value: 7-15% of a list request's CPU, measured
 * under bench/list-bounties.ts) is paid once here.
 */
export interface CompiledSelect<Row> {
  run(ex: Executor, values: Record<string, unknown>): Promise<Row[]>;
  readonly text: string;
}

// What drizzle's PGlite session passes: timestamps and dates stay text, the column mappers read them.
const PGLITE_QUERY = {
  rowMode: 'array' as const,
  parsers: Object.fromEntries(
    [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map(
      (t) => [t, (value: string) => value],
    ),
  ),
};

type PostgresJs = {
  unsafe(
    text: string,
    params: unknown[],
    opts: { prepare: boolean; simple: false },
  ): { values(): Promise<unknown[][]> };
};
type Pglite = {
  query(text: string, params: unknown[], opts: typeof PGLITE_QUERY): Promise<{ rows: unknown[][] }>;
};

/** The driver under a drizzle database or transaction: postgres-js's `sql` or a PGlite handle. */
function driverOf(ex: Executor): PostgresJs | Pglite {
  return (ex as unknown as { session: { client: PostgresJs | Pglite } }).session.client;
}

function arrays(ex: Executor, text: string, params: unknown[], named: boolean): Promise<unknown[][]> {
  const client = driverOf(ex);
  // Looked up per call: postgres-js resolves `unsafe` on the instance (the bench's capture wraps it).
  // Extended protocol always (one statement, never several), even without parameters.
  if ('unsafe' in client)
    return client.unsafe(text, params, { prepare: named, simple: false }).values().then(takeRows);
  return client.query(text, params, PGLITE_QUERY).then((r) => r.rows);
}

/**
 * The rows of a postgres-js result in an array of our own, the driver's emptied. postgres-js
 * resolves the query, a Promise subclass, with its result array, and under HTTP load that query
 * outlived its request in young-generation collections: in most service processes, every list
 * page's rows (about 12 KB of strings) were promoted to the old generation and left for a major
 * GC, at about a quarter of the process's CPU (bench/README.md, "Rows that outlived their
 * request"). Emptied, the driver's array keeps nothing there; the copy, referred to only by the
 * request, dies young. The cause is the subclass (a Query that is a thenable over a plain Promise
 * showed none of it in a bare server); patching the driver so measured no gain in the service over
 * this step, so the step stays and the driver is left as published.
 */
export function takeRows<T>(rows: T[]): T[] {
  const own = rows.slice();
  rows.length = 0;
  return own;
}

/**
 * A value as an SQL literal, as PostgreSQL's quote_literal writes it: quotes doubled, and with a
 * backslash in it an E'' string with backslashes doubled, so it reads the same whatever
 * standard_conforming_strings says. Only the types the list binds: text, booleans, integers.
 */
export function sqlLiteral(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value !== 'string' || value.includes('\0'))
    throw new Error(`sqlLiteral: not a text, boolean or integer value: ${String(value)}`);
  const quoted = value.replaceAll("'", "''");
  return value.includes('\\') ? `E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/**
 * The statement's text with its values written in as literals: a statement without parameters.
 * postgres-js sends an unnamed statement with parameters in two round trips (Parse and Describe
 * first, to learn the parameters' types, then Parse, Bind and Execute again); without parameters
 * in one, as pgbench -M extended does. That second round trip was most of the Node-side cost of a
 * keyword search over a named statement's (two socket writes and wake-ups, twice the messages).
 */
function inliner(text: string, count: number): (params: unknown[]) => string {
  const parts = text.split(/\$(\d+)\b/);
  // parts alternate: text, parameter number, text, ...; every number must be one of the parameters.
  for (let i = 1; i < parts.length; i += 2) {
    const n = Number(parts[i]);
    if (!(n >= 1 && n <= count)) throw new Error(`compileSelect: $${parts[i]} is not a parameter`);
  }
  return (params) => {
    let out = parts[0] as string;
    for (let i = 1; i < parts.length; i += 2)
      out += sqlLiteral(params[Number(parts[i]) - 1]) + (parts[i + 1] as string);
    return out;
  };
}

/** A drizzle select, as far as compiling it goes: its text and values, its selection and joins. */
export interface SelectQuery {
  toSQL(): { sql: string; params: unknown[] };
}

/** The select builder's final selection (after its joins) and which joined tables may be null. */
function selectionOf(query: SelectQuery): {
  fields: Record<string, unknown>;
  joins?: Record<string, boolean>;
} {
  const q = query as unknown as {
    config?: { fields?: Record<string, unknown> };
    joinsNotNullableMap?: Record<string, boolean>;
  };
  if (!q.config?.fields) throw new Error('compileSelect: not a drizzle select');
  return { fields: q.config.fields, ...(q.joinsNotNullableMap ? { joins: q.joinsNotNullableMap } : {}) };
}

/**
 * Compiles `query` (a drizzle select) once: its rows come in its selection's shape, nested
 * objects included, as drizzle would map them (`rowMapper`). `named`: a named prepared statement
 * on postgres-js (parsed and planned once per connection), else an unnamed one with its values
 * inlined (`inliner`), planned for each execution's values.
 */
export function compileSelect<Row>(query: SelectQuery, named: boolean): CompiledSelect<Row> {
  const { sql: text, params } = query.toSQL();
  const inline = named ? null : inliner(text, params.length);
  const { fields, joins } = selectionOf(query);
  const decode = rowMapper<Row>(fields, joins);
  return {
    text,
    async run(ex, values) {
      const filled = fillPlaceholders(params, values);
      const rows = await (inline ? arrays(ex, inline(filled), [], false) : arrays(ex, text, filled, true));
      return rows.map(decode);
    },
  };
}

/**
 * `compileSelect` on first use: the select is built from the executor of the first run (its text
 * is the same on PGlite and PostgreSQL), and every run goes through its own executor's driver, a
 * transaction's included. For reads with one fixed shape, declared once at module level.
 */
export function compileOnFirstRun<Query extends SelectQuery & PromiseLike<unknown[]>>(
  build: (ex: Executor) => Query,
  named = true,
): { run(ex: Executor, values: Record<string, unknown>): Promise<Awaited<Query>> } {
  let compiled: CompiledSelect<Awaited<Query>[number]> | undefined;
  return {
    run(ex, values) {
      compiled ??= compileSelect(build(ex), named);
      return compiled.run(ex, values) as Promise<Awaited<Query>>;
    },
  };
}

/** A placeholder for `.limit()` or `.offset()` of a compiled select (drizzle types those as numbers). */
export const numberPlaceholder = (name: string) => sql.placeholder(name) as unknown as number;

/**
 * `column = any($n::text[])`, the list bound as one `text[]` value: one statement whatever the
 * list's length, where an `IN` list makes a statement per length.
 */
export const anyOfPlaceholder = (column: Column, name: string) =>
  sql`${column} = any(${sql.placeholder(name)}::text[])`;

/** A raw statement compiled once: its text fixed, its values bound per execution. */
export interface CompiledStatement {
  /** The rows as arrays, in the order of the statement's output columns. */
  run(ex: Executor, values: Record<string, unknown>): Promise<unknown[][]>;
  readonly text: string;
}

/**
 * Compiles a raw `sql` statement whose values are `sql.placeholder(name)`s, once, for a hot read
 * that the query builder cannot express (a read model of several subqueries, say): on postgres-js
 * a named prepared statement (one round trip, parsed and planned once per connection, where an
 * unnamed one with parameters costs two), on PGlite the same text with its values bound.
 */
export function compileStatement(query: SQL): CompiledStatement {
  const { sql: text, params } = new PgDialect().sqlToQuery(query);
  return {
    text,
    run: (ex, values) => arrays(ex, text, fillPlaceholders(params, values), true),
  };
}
