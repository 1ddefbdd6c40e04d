import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drizzleClient } from '../src/infra/db/pglite-drizzle.ts';
import { pgliteTemplate } from './helpers/database.ts';

/**
 * drizzle on PGlite through `drizzleClient` reads every value as drizzle reading PGlite directly
 * does, without handing PGlite its parsers on every query (src/infra/db/pglite-drizzle.ts).
 */
const VALUES = `select timestamp '2026-11-29 05:00:01.5' as ts, timestamptz '2026-11-29 05:00:00+02' as tstz,
  interval '1 day 2 hours' as iv, date '2026-11-29' as d, array[1.5, 2]::numeric[] as nums,
  array[timestamp '2026-01-02 03:04:05'] as tss, array[timestamptz '2026-01-02 03:04:05+00'] as tstzs,
  array[interval '3 minutes'] as ivs, array[date '2026-01-02'] as ds, 12::int as i,
  9007199254740993::bigint as big, 1.25::numeric as num, true as b, '{"a": [1, null]}'::jsonb as j,
  array['x', null]::text[] as texts, null::int as nothing`;

describe('drizzle on PGlite without per-query parsers', () => {
  // Booted from the migrated template: initdb in PGlite costs ~2.3 s of CPU more, and the queries
  // below read no table.
  let plain: PGlite;
  let tuned: PGlite;
  beforeAll(async () => {
    const template = await pgliteTemplate();
    plain = new PGlite({ loadDataDir: template });
    tuned = new PGlite({ loadDataDir: template });
    await Promise.all([plain.waitReady, tuned.waitReady]);
  });
  afterAll(async () => {
    await plain.close();
    await tuned.close();
  });

  it('reads every type as drizzle reading PGlite directly does, in and out of a transaction', async () => {
    const read = async (db: ReturnType<typeof drizzle>) => {
      const raw = await db.execute(sql.raw(VALUES));
      const inTx = await db.transaction((tx) => tx.execute(sql.raw(VALUES)));
      // A select with fields: drizzle reads those rows as arrays (its other query path).
      const fields = await db
        .select({ tstz: sql`timestamptz '2026-11-29 05:00:00+02'`, ds: sql`array[date '2026-01-02']` })
        .from(sql`(select 1) as one`);
      return { raw: raw.rows, inTx: inTx.rows, fields };
    };
    const reference = await read(drizzle({ client: plain }));
    const ours = await read(drizzle({ client: drizzleClient(tuned) }));
    expect(ours).toEqual(reference);
    expect(ours.raw[0]).toMatchObject({ tstz: '2026-11-29 03:00:00+00', d: '2026-11-29', i: 12 });
  });

  it('leaves out drizzle’s parsers and keeps any other ones', async () => {
    const seen: unknown[] = [];
    const spy = Object.create(tuned, {
      ready: { value: true },
      query: {
        value: (text: string, params?: unknown[], options?: QueryOptions) => {
          seen.push(options?.parsers);
          return tuned.query(text, params, options);
        },
      },
    }) as PGlite;
    const db = drizzle({ client: drizzleClient(spy) });
    await db.execute(sql`select 1`);
    expect(seen).toEqual([undefined]);
    const upper = { 25: (v: string) => v.toUpperCase() };
    const res = await drizzleClient(spy).query<{ t: string }>(`select 'abc'::text as t`, [], {
      parsers: upper,
    });
    expect(res.rows).toEqual([{ t: 'ABC' }]);
    expect(seen[1]).toBe(upper);
  });
});
