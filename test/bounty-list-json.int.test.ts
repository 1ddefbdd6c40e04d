import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usdRate } from '../src/lib/usd.ts';
import type { BountiesDeps } from '../src/modules/bounties/bounties.deps.ts';
import type { BountyListQuery } from '../src/modules/bounties/bounties.schemas.ts';
import { BountiesService } from '../src/modules/bounties/bounties.service.ts';
import { buildTestApp, type TestContext } from './helpers/app.ts';
import { LIST_QUERIES, projectId, seedBountyList, seedRelevanceRows } from './helpers/bounty-list-seed.ts';

/**
 * GET /api/bounties writes its rows as JSON in PostgreSQL (`bounty-list.columns.ts`, `listJson`);
 * the pages and MCP read the same page as values and map them in Node (`list`). The two must be the
 * same answer, byte for byte: every seeded query, with and without a dollar price, and values that
 * test the escaping and the timestamps (quotes, backslashes, line breaks, tabs, non-ASCII, emoji,
 * U+2028, whole seconds, one decimal, another time zone, a value rounded up to the next second).
 */

/** A query string as the route's schema reads it (defaults filled in, numbers and booleans typed). */
function queryOf(qs: string): BountyListQuery {
  const q: Record<string, unknown> = { limit: 20, offset: 0 };
  for (const [k, v] of new URLSearchParams(qs)) {
    q[k] = k === 'limit' || k === 'offset' ? Number(v) : k === 'payable' ? v === 'true' : v;
  }
  return q as BountyListQuery;
}

const ODD = projectId(7);
const TRICKY_TEXTS = [
  'Quotes "inside" and a backslash \\ here',
  'Line one\nline two\r\nthree\twith a tab',
  'Ünïcödé, 中文, emoji 🦀🚀 and U+2028 (\u2028) and U+2029 (\u2029)',
  '</script><b>not html</b> & ampersands',
  `${'long '.repeat(60)}"end"`,
];

describe('the list as JSON written by PostgreSQL', () => {
  let ctx: TestContext;
  let plain: BountiesService;
  let priced: BountiesService;

  beforeAll(async () => {
    ctx = await buildTestApp();
    await seedBountyList(ctx.database);
    await seedRelevanceRows(ctx.database);
    // Bounties of project 7 (no curve) with texts and timestamps that test the JSON and ISO writers.
    for (const [i, text] of TRICKY_TEXTS.entries()) {
      const at = [
        '2031-02-03 04:05:06.789123+00',
        '2031-02-03 04:05:06+00',
        '2031-02-03 04:05:06.1+00',
        '2031-02-03 04:05:06.999999+00',
        '2031-02-03 23:59:59.5+05:30',
      ][i];
      // A literal, not a parameter: the drivers would send a text parameter of a timestamptz as a Date.
      const ts = sql.raw(`timestamptz '${at}'`);
      await ctx.database.db.execute(
        sql`insert into bounties (id, project_id, title, description, reward_amount, difficulty, status,
              claimed_by, claimed_at, payable, payment_owed, revision_due_at, created_at, updated_at)
            values (${`bnt_${'e'.repeat(31)}${i}`}, ${ODD}, ${text}, ${text}, ${1 + i}, 'hard', 'done',
              ${`agent_${'0'.repeat(31)}4`}, ${ts}, true, false,
              ${ts} + interval '1 day', ${ts}, ${ts})`,
      );
    }
    const deps = (ctx.app.services.bounties as unknown as { deps: BountiesDeps }).deps;
    plain = new BountiesService({ ...deps, prices: { ethUsd: async () => null } } as BountiesDeps);
    // $2,345.67891234 per ETH, as a feed with 8 decimals answers it.
    const rate = usdRate(234_567_891_234n, 8);
    priced = new BountiesService({ ...deps, prices: { ethUsd: async () => rate } } as BountiesDeps);
  });
  afterAll(() => ctx.close());

  const queries = [...LIST_QUERIES, `project_id=${ODD}&limit=100`, 'q=quasar&sort=relevance&limit=5'];

  it.each(queries)(
    '?%s: the same bytes as the values mapped in Node, with and without a price',
    async (qs) => {
      const q = queryOf(qs);
      for (const service of [plain, priced])
        expect(await service.listJson(q)).toBe(JSON.stringify(await service.list(q)));
    },
  );

  it('is what GET /api/bounties sends, and covers what it set out to', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/bounties?project_id=${ODD}&limit=100` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      JSON.stringify(await ctx.app.services.bounties.list(queryOf(`project_id=${ODD}&limit=100`))),
    );
    const listed = (await priced.list(queryOf('limit=100'))).bounties;
    expect(listed.some((b) => b.reward_usd !== null && b.reward_eth_units !== null)).toBe(true);
    expect(listed.some((b) => b.reward_usd === null && b.reward_eth_units === null)).toBe(true);
    type Listed = { id: string; title: string; claimed_at: string; revision_due_at: string };
    const odd = (JSON.parse(res.body).bounties as Listed[]).filter((b) => b.id.startsWith('bnt_eeee'));
    expect(odd.map((b) => b.title).sort()).toEqual([...TRICKY_TEXTS].sort());
    expect(odd.map((b) => b.claimed_at).sort()).toEqual([
      '2031-02-03T04:05:06.000Z',
      '2031-02-03T04:05:06.100Z',
      '2031-02-03T04:05:06.789Z',
      '2031-02-03T04:05:07.000Z', // the columns keep milliseconds (timestamptz(3)): stored rounded
      '2031-02-03T18:29:59.500Z',
    ]);
    expect(odd.every((b) => b.revision_due_at.startsWith('2031-02-04T'))).toBe(true);
  });
});
