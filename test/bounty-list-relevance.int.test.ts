import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEVANCE_WINDOW } from '../src/modules/bounties/bounties.schemas.ts';
import { buildTestApp, type TestContext } from './helpers/app.ts';
import { listBounties, listOk } from './helpers/bounty-flows.ts';
import { relevanceId, seedBountyList, seedRelevanceRows } from './helpers/bounty-list-seed.ts';

/**
 * GET /api/bounties?q=...&sort=relevance (issue 29): title matches first, then full-text rank, ties
 * newest first then by id; the newest RELEVANCE_WINDOW matches are ranked and any others follow them
 * newest first, so paging reaches every match once whatever the page size. Without `q`: 400.
 */
const id = relevanceId;

describe('GET /api/bounties?sort=relevance', () => {
  let ctx: TestContext;
  const ids = async (query: Record<string, string | number>) =>
    (await listOk(ctx.app, query)).bounties.map((b) => b.id);
  /** Every page's ids in turn, until a short page (a keyword's total is bounded, so not by it). */
  const allIds = async (query: Record<string, string>, limit: number) => {
    const seen: string[] = [];
    for (let offset = 0; ; offset += limit) {
      const page = await ids({ ...query, limit, offset });
      seen.push(...page);
      if (page.length < limit) return seen;
    }
  };

  beforeAll(async () => {
    ctx = await buildTestApp();
    await seedBountyList(ctx.database);
    await seedRelevanceRows(ctx.database);
  });
  afterAll(() => ctx.close());

  it('puts title matches before a weak description match, which newest first puts first', async () => {
    expect(await ids({ q: 'quasar' })).toEqual([id(3), id(2), id(1)]);
    const ranked = await ids({ q: 'quasar', sort: 'relevance' });
    // Both title matches first (the one saying it three times above the one saying it once).
    expect(ranked).toEqual([id(2), id(1), id(3)]);
    expect(await ids({ q: 'QUASAR', sort: 'relevance', status: 'open' })).toEqual(ranked);
    expect(await ids({ q: 'quasar', sort: 'relevance', limit: 1, offset: 1 })).toEqual([id(1)]);
  });

  it('pages through every match once, in one order whatever the page size, past the window too', async () => {
    const q = { q: 'common', sort: 'relevance' };
    const all = await allIds(q, 100);
    expect(await allIds(q, 13)).toEqual(all);
    expect(new Set(all).size).toBe(all.length);
    const newest = await allIds({ q: 'common' }, 100);
    expect([...all].sort()).toEqual([...newest].sort());
    expect(all.length).toBe(1503);
    // The window is the newest RELEVANCE_WINDOW matches: the two title matches in it lead, and the
    // window's other rows (equal rank) keep their newest-first order; the rest follow newest first.
    const window = newest.slice(0, RELEVANCE_WINDOW);
    expect(all.slice(0, 2).sort()).toEqual([id(4), id(5)]);
    expect(all.slice(2, RELEVANCE_WINDOW)).toEqual(window.filter((x) => x !== id(4) && x !== id(5)));
    expect(all.slice(RELEVANCE_WINDOW)).toEqual(newest.slice(RELEVANCE_WINDOW));
    expect(all.at(-1)).toBe(id(6));
  });

  it('answers a page straddling the window edge as the pages around it', async () => {
    const q = { q: 'common', sort: 'relevance' };
    const edge = await ids({ ...q, limit: 10, offset: RELEVANCE_WINDOW - 5 });
    const before = await ids({ ...q, limit: RELEVANCE_WINDOW, offset: 0 });
    const after = await ids({ ...q, limit: 100, offset: RELEVANCE_WINDOW });
    expect(edge).toEqual([...before.slice(-5), ...after.slice(0, 5)]);
  });

  it('refuses sort=relevance without q, and an unknown sort', async () => {
    const res = await listBounties(ctx.app, { sort: 'relevance', status: 'open' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('validation_error');
    expect(body.error.details).toEqual([
      { field: 'sort', message: expect.stringMatching(/^sort=relevance needs q/) },
    ]);
    const bad = await listBounties(ctx.app, { q: 'common', sort: 'best' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('validation_error');
  });

  it('answers sort=newest as no sort at all', async () => {
    for (const query of [{}, { q: 'common', offset: 990 }, { q: 'quasar' }, { status: 'open', limit: 50 }]) {
      expect(await listOk(ctx.app, { ...query, sort: 'newest' })).toEqual(await listOk(ctx.app, query));
    }
  });
});
