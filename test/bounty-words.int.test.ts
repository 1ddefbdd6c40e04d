import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/infra/db/client.ts';
import { KEYWORD_TOTAL_BOUND } from '../src/modules/bounties/bounty-list.repo.ts';
import { buildTestApp, type TestContext } from './helpers/app.ts';
import { seedBountyList } from './helpers/bounty-list-seed.ts';

/**
 * bounty_words (the `bounty_words` migration's triggers) counts, per word of the search vector, the
 * bounties holding it; a one-word keyword search with no other filter takes its total from there
 * (bounty-list.repo.ts, `wordTotal`). The tally must equal a recount after any change, and the total
 * it gives must be the one the GIN index counts.
 */
const onPostgres = it.runIf(process.env.TEST_DB === 'postgres');

const WORDS = ['zephyr', 'Zephyr!', 'common', 'quasar', 'ünïcödé', 'node-20', 'api/v1', 'alpha beta', ''];

type Op =
  | { kind: 'insert'; rows: number; word: string }
  | { kind: 'edit'; rows: number; title: string; description: string | null }
  | { kind: 'status'; rows: number }
  | { kind: 'delete'; rows: number };

const word = fc.constantFrom(...WORDS);
const rows = fc.integer({ min: 1, max: 40 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), rows, word }),
  fc.record({
    kind: fc.constant('edit' as const),
    rows,
    title: fc.array(word, { maxLength: 3 }).map((w) => `Fix ${w.join(' ')}`),
    description: fc.option(
      fc.array(word, { maxLength: 4 }).map((w) => w.join(' and ')),
      { nil: null },
    ),
  }),
  fc.record({ kind: fc.constant('status' as const), rows }),
  fc.record({ kind: fc.constant('delete' as const), rows }),
);

describe('bounty_words', () => {
  let ctx: TestContext;
  let salt = 0;
  const run = async (query: ReturnType<typeof sql>) => ctx.database.db.execute(query);
  /** `n` bounties picked by a fresh salt: a different, stable choice on every call. */
  const some = (n: number) => {
    salt += 1;
    return sql`(select id from bounties order by md5(id || ${String(salt)}) limit ${n})`;
  };

  async function apply(o: Op): Promise<void> {
    if (o.kind === 'insert') {
      salt += 1;
      // Several bounties in one statement: the statement trigger adds each word once, counted.
      await run(sql`
        insert into bounties (id, project_id, title, description, reward_amount, difficulty, status, created_at, updated_at)
        select 'bnt_' || md5(id || ${String(salt)}), project_id, title || ' ' || ${o.word}, description,
               reward_amount, difficulty, 'open', created_at, updated_at
        from bounties where id in ${some(o.rows)}`);
    } else if (o.kind === 'edit') {
      const description = o.description === null ? sql`description` : sql`${o.description}`;
      await run(
        sql`update bounties set title = ${o.title}, description = ${description} where id in ${some(o.rows)}`,
      );
    } else if (o.kind === 'status') {
      await run(sql`update bounties set status = 'done', updated_at = now() where id in ${some(o.rows)}`);
    } else {
      await run(sql`delete from bounties where id in ${some(o.rows)}`);
    }
  }

  /** The tally's words with a count, and a recount of every search vector: equal, none negative. */
  async function expectTallyExact(): Promise<void> {
    const tally = rowsOf<{ word: string; n: string }>(
      await run(sql`select word, n::text from bounty_words where n <> 0 order by word collate "C"`),
    );
    const recount = rowsOf<{ word: string; n: string }>(
      await run(sql`
        select t.word, count(*)::text as n from bounties cross join lateral unnest(tsvector_to_array(search)) as t(word)
        group by t.word order by t.word collate "C"`),
    );
    expect(tally).toEqual(recount);
    const negative = rowsOf<{ n: string }>(
      await run(sql`select count(*)::text as n from bounty_words where n < 0`),
    );
    expect(negative[0]?.n).toBe('0');
  }

  /** What the GIN index counts for `q` with the list's bound, as the API must answer it. */
  async function ginTotal(
    q: string,
    cap: number,
    filter = sql`true`,
  ): Promise<{ total: number; total_is_exact: boolean }> {
    const [row] = rowsOf<{ n: string }>(
      await run(sql`
        select count(*)::text as n from (
          select 1 from bounties
          where search @@ plainto_tsquery('simple', regexp_replace(${q}::text, '[[:punct:]]+', ' ', 'g'))
            and ${filter}
          limit ${cap + 1}) m`),
    );
    const n = Number(row?.n);
    return n > cap ? { total: cap, total_is_exact: false } : { total: n, total_is_exact: true };
  }

  async function apiTotal(query: string): Promise<{ total: number; total_is_exact: boolean; rows: number }> {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/bounties?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { total: number; total_is_exact: boolean; bounties: unknown[] };
    return { total: body.total, total_is_exact: body.total_is_exact, rows: body.bounties.length };
  }

  beforeAll(async () => {
    ctx = await buildTestApp({ env: { BOUNTY_LIST_CACHE_MS: '0' } });
    await seedBountyList(ctx.database);
  });
  afterAll(() => ctx.close());

  it('holds every word of the seeded bounties (the migration counts rows there before it)', async () => {
    await expectTallyExact();
    const [zephyr] = rowsOf<{ n: string }>(
      await run(sql`select n::text from bounty_words where word = 'zephyr'`),
    );
    expect(Number(zephyr?.n)).toBeGreaterThan(0);
  });

  it('equals a recount after any mix of inserts, edits, status changes and deletes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 6 }), async (ops) => {
        for (const o of ops) await apply(o);
        await expectTallyExact();
      }),
      { numRuns: 12, seed: 290018 },
    );
  });

  // One word alone (the tally), in any case and with punctuation, repeated, absent, past the end of
  // its matches, and the shapes still counted through the index (several words, a filter).
  const QUERIES = [
    'q=zephyr',
    'q=ZEPHYR!',
    'q=zephyr%20zephyr',
    'q=common',
    'q=common&offset=5000',
    'q=common&limit=100&offset=950',
    'q=quasar',
    'q=%C3%BCn%C3%AFc%C3%B6d%C3%A9',
    'q=nomatchword',
    'q=nomatchword&offset=40',
    'q=%2F%2F',
    'q=node-20',
    'q=alpha%20beta',
    'q=zephyr&status=open',
    'q=common&payable=true',
  ];

  it.each(QUERIES)('?%s totals what the GIN index counts', async (query) => {
    const params = new URLSearchParams(query);
    const limit = Number(params.get('limit') ?? 20);
    const offset = Number(params.get('offset') ?? 0);
    const cap = Math.max(KEYWORD_TOTAL_BOUND, offset + limit);
    const { rows: _, ...got } = await apiTotal(query);
    const status = params.get('status');
    const payable = params.get('payable');
    const filter =
      status !== null
        ? sql`status = ${status}`
        : payable !== null
          ? sql`payable = ${payable === 'true'}`
          : undefined;
    expect(got).toEqual(await ginTotal(params.get('q') ?? '', cap, filter));
  });

  it('shows an edit in the next total', async () => {
    const before = await apiTotal('q=quokka');
    await run(sql`update bounties set title = title || ' quokka' where id in ${some(3)}`);
    expect(await apiTotal('q=quokka')).toEqual({
      total: before.total + 3,
      total_is_exact: true,
      rows: before.rows + 3,
    });
    await run(sql`update bounties set title = replace(title, ' quokka', '') where title like '% quokka'`);
    expect((await apiTotal('q=quokka')).total).toBe(before.total);
    await expectTallyExact();
  });

  // As the service writes bounties: one statement per transaction touches bounty_words (a new
  // bounty; nothing edits one), each locking its words in word order, so none waits in a cycle.
  onPostgres(
    'stays exact, without a deadlock, when many transactions add and edit bounties with the same words',
    async () => {
      const { db } = ctx.database;
      const texts = [
        'zephyr common',
        'common quasar zephyr',
        'quasar',
        'zephyr',
        'common node 20',
        'alpha zephyr beta',
      ];
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          db.transaction(async (tx) => {
            const text = texts[i % texts.length] ?? '';
            if (i % 3 === 2) {
              await tx.execute(sql`
              update bounties set description = ${`Edited ${text}`}
              where id = (select id from bounties order by md5(id || 'edit' || ${String(i)}) limit 1)`);
              return;
            }
            await tx.execute(sql`
            insert into bounties (id, project_id, title, description, reward_amount, difficulty, status, created_at, updated_at)
            select 'bnt_' || md5(id || 'race' || ${String(i)}), project_id, ${`Race ${text}`}, description,
                   reward_amount, difficulty, 'open', created_at, updated_at
            from bounties order by id limit 2`);
          }),
        ),
      );
      await expectTallyExact();
    },
  );
});
