import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/infra/db/client.ts';
import { sqlLiteral } from '../src/infra/db/statement.ts';
import { KEYWORD_TOTAL_BOUND } from '../src/modules/bounties/bounty-list.repo.ts';
import { buildTestApp, type TestContext } from './helpers/app.ts';
import { LIST_QUERIES, seedBountyList } from './helpers/bounty-list-seed.ts';

/**
 * GET /api/bounties answers the same before and after the list's performance work (issue 29): the
 * fixture was written by the code before it (`WRITE_BOUNTY_LIST_FIXTURE=1`) over the seeded data
 * set, and holds per query the ids in order, the total, limit, offset and a hash of every listed
 * field's value. Fields added since (the fixture names the ones it hashed) do not count.
 */
const FIXTURE = new URL('./fixtures/bounty-list-answers.json', import.meta.url);

interface Answer {
  ids: string[];
  total: number;
  limit: number;
  offset: number;
  values: string;
}
interface Fixture {
  fields: string[];
  answers: Record<string, Answer>;
}

type Body = {
  bounties: Record<string, unknown>[];
  total: number;
  total_is_exact: boolean;
  limit: number;
  offset: number;
};

/**
 * What the total must be now: the fixture's exact count, or for a keyword search with more matches
 * than its bound (1000, or the end of the page when further) the bound, flagged as not exact.
 */
function expectedTotal(query: string, want: Answer): { total: number; total_is_exact: boolean } {
  const cap = Math.max(KEYWORD_TOTAL_BOUND, want.offset + want.limit);
  if (new URLSearchParams(query).has('q') && want.total > cap) return { total: cap, total_is_exact: false };
  return { total: want.total, total_is_exact: true };
}

const hashOf = (bounties: Record<string, unknown>[], fields: string[]) =>
  createHash('sha256')
    .update(JSON.stringify(bounties.map((b) => fields.map((f) => b[f]))))
    .digest('hex');

describe('GET /api/bounties answers on a seeded data set', () => {
  let ctx: TestContext;
  const get = async (query: string): Promise<Body> => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/bounties${query ? `?${query}` : ''}` });
    expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    ctx = await buildTestApp();
    await seedBountyList(ctx.database);
  });
  afterAll(() => ctx.close());

  it('writes the fixture when asked', async () => {
    if (!process.env.WRITE_BOUNTY_LIST_FIXTURE) return;
    const first = await get('');
    // The fields of the list before issue 29; reward_usd came with another change at the same time.
    const fields = Object.keys(first.bounties[0] ?? {}).filter((f) => f !== 'reward_usd');
    const answers: Record<string, Answer> = {};
    for (const q of LIST_QUERIES) {
      const b = await get(q);
      answers[q] = {
        ids: b.bounties.map((x) => String(x.id)),
        total: b.total,
        limit: b.limit,
        offset: b.offset,
        values: hashOf(b.bounties, fields),
      };
    }
    writeFileSync(FIXTURE, `${JSON.stringify({ fields, answers }, null, 1)}\n`);
  });

  it.each(LIST_QUERIES)('?%s answers as before', async (q) => {
    const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fixture;
    const want = fixture.answers[q];
    expect(want, `no fixture answer for ${q}`).toBeDefined();
    if (!want) return;
    const got = await get(q);
    expect(got.bounties.map((x) => x.id)).toEqual(want.ids);
    expect([got.limit, got.offset]).toEqual([want.limit, want.offset]);
    expect({ total: got.total, total_is_exact: got.total_is_exact }).toEqual(expectedTotal(q, want));
    expect(hashOf(got.bounties, fixture.fields)).toBe(want.values);
  });

  it('covers every shape: curves, keyword totals beyond a thousand, ties, flags', async () => {
    const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fixture;
    expect(fixture.answers['q=common']?.total).toBeGreaterThan(KEYWORD_TOTAL_BOUND);
    expect((await get('q=common')).total_is_exact).toBe(false);
    const page = await get('limit=100');
    expect(page.bounties.some((b) => b.reward_eth_units !== null)).toBe(true);
    expect(page.bounties.some((b) => b.reward_eth_units === null)).toBe(true);
    expect(new Set(page.bounties.map((b) => b.created_at)).size).toBeLessThan(100);
    expect(page.bounties.some((b) => b.revision_due_at !== null)).toBe(true);
  });

  // Keyword statements carry their values as literals (statement.ts): whatever the text, the
  // literal reads back as the text itself and finds what a bound parameter finds.
  const TRICKY = [
    "it's",
    'a\\b',
    "o'\\'x",
    "zephyr'; drop table bounties; --",
    "E'zephyr'",
    '$1 zephyr',
    'ünïcödé 🦀',
  ];

  it.each(TRICKY)('reads the literal of %j back as the same text', async (text) => {
    const rows = rowsOf<{ v: string }>(
      await ctx.database.db.execute(sql.raw(`select ${sqlLiteral(text)}::text as v`)),
    );
    expect(rows[0]?.v).toBe(text);
  });

  it.each(TRICKY)('searches for %j as a bound parameter would', async (text) => {
    const want = rowsOf<{ id: string }>(
      await ctx.database.db.execute(
        sql`select id from bounties where search @@ plainto_tsquery('simple', regexp_replace(${text}::text, '[[:punct:]]+', ' ', 'g')) order by created_at desc, id desc limit 20`,
      ),
    ).map((r) => r.id);
    const got = await get(`q=${encodeURIComponent(text)}`);
    expect(got.bounties.map((b) => b.id)).toEqual(want);
  });
});
