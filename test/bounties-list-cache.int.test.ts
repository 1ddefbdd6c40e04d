import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, registerAgent, type TestAgent, type TestContext } from './helpers/app.ts';
import {
  type ActiveProject,
  activeProject,
  claim,
  getBounty,
  ISO_MS,
  listOk,
  ok,
  postBounty,
  UnitsChain,
} from './helpers/bounty-flows.ts';

const get = (ctx: TestContext, url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

describe('GET /api/bounties: conditional requests and the one-statement page', () => {
  let ctx: TestContext;
  let chain: UnitsChain;
  let p: ActiveProject;
  let contributor: TestAgent;
  let url: string;

  const post = async (over: Record<string, unknown> = {}) =>
    ok<{ bounty: { id: string } }>(
      await postBounty(ctx.app, p.founder, p.project.id, {
        title: 'Tune the zephyr cache',
        description: 'The cache is slow.',
        reward_amount: 10,
        ...over,
      }),
      201,
    ).bounty;

  beforeAll(async () => {
    chain = new UnitsChain();
    ctx = await buildTestApp({ chain });
    p = await activeProject(ctx, chain);
    contributor = await registerAgent(ctx.app);
    await post({ difficulty: 'hard' });
    // A whole second: PostgreSQL prints such a timestamp without a fraction ("12:00:00+00").
    ctx.clock.advance(1000 - (ctx.clock.now().getTime() % 1000));
    await post({ difficulty: 'easy' });
    ctx.clock.advance(1);
    url = `/api/bounties?project_id=${p.project.id}`;
  });
  afterAll(() => ctx.close());

  it('answers 200 with a weak ETag and no-cache, then 304 without a body while nothing changed', async () => {
    const first = await get(ctx, url);
    expect(first.statusCode, first.body).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.json().total).toBe(2);

    for (const ifNoneMatch of [etag, etag.slice(2), `W/"other", ${etag}`, '*']) {
      const again = await get(ctx, url, { 'if-none-match': ifNoneMatch });
      expect(again.statusCode, ifNoneMatch).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers['content-type'], 'a 304 has no body to type').toBeUndefined();
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('no-cache');
    }
    const stale = await get(ctx, url, { 'if-none-match': 'W/"not-this-one"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual(first.json());
  });

  it('gives every caller the same ETag: the list is not personalised, nor publicly cacheable', async () => {
    const anonymous = await get(ctx, url);
    const withKey = await get(ctx, url, contributor.headers);
    expect(withKey.statusCode).toBe(200);
    expect(withKey.headers.etag).toBe(anonymous.headers.etag);
    expect(withKey.headers['cache-control']).not.toMatch(/public/);
  });

  it('answers 200 with a new ETag once a bounty changes, new or claimed', async () => {
    const before = await get(ctx, url);
    const etag = String(before.headers.etag);
    const added = await post({ difficulty: 'medium' });
    const afterPost = await get(ctx, url, { 'if-none-match': etag });
    expect(afterPost.statusCode).toBe(200);
    expect(afterPost.json().total).toBe(3);
    expect(afterPost.headers.etag).not.toBe(etag);

    expect((await claim(ctx.app, contributor, added.id)).statusCode).toBe(200);
    const afterClaim = await get(ctx, url, { 'if-none-match': String(afterPost.headers.etag) });
    expect(afterClaim.statusCode).toBe(200);
    expect(afterClaim.json().bounties[0]).toMatchObject({ id: added.id, status: 'claimed' });
  });

  it('sets no ETag on a refused request', async () => {
    const res = await get(ctx, '/api/bounties?limit=0');
    expect(res.statusCode).toBe(400);
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it('lists the same fields, timestamps included, as GET /api/bounties/{id}', async () => {
    const page = await listOk(ctx.app, { project_id: p.project.id });
    expect(page.bounties.some((b) => b.claimed_at !== null)).toBe(true);
    for (const listed of page.bounties) {
      const detail = ok<{ bounty: Record<string, unknown> }>(await getBounty(ctx.app, listed.id)).bounty;
      const { submissions: _s, ...one } = detail;
      expect(listed).toEqual(one);
      for (const t of [listed.created_at, listed.updated_at]) expect(t).toMatch(ISO_MS);
      if (listed.claimed_at !== null) expect(listed.claimed_at).toMatch(ISO_MS);
    }
  });

  it('still tells the total on a page past the end, for every kind of filter', async () => {
    const cases = [
      { query: { project_id: p.project.id }, total: 3 },
      { query: { project_id: p.project.id, status: 'open' }, total: 2 },
      { query: { project_id: p.project.id, difficulty: 'hard', status: 'open' }, total: 1 },
      { query: { project_id: p.project.id, q: 'zephyr' }, total: 3 },
      { query: { project_id: p.project.id, q: 'zephyr', status: 'claimed' }, total: 1 },
      { query: { project_id: p.project.id, payable: 'true' }, total: 3 },
    ];
    for (const { query, total } of cases) {
      const first = await listOk(ctx.app, { ...query, limit: 1 });
      expect(first.total, JSON.stringify(query)).toBe(total);
      expect(first.bounties).toHaveLength(1);
      const past = await listOk(ctx.app, { ...query, offset: 10 });
      expect(past, JSON.stringify(query)).toEqual({
        bounties: [],
        total,
        total_is_exact: true,
        limit: 20,
        offset: 10,
      });
    }
  });

  it('reuses a statement shape with other values without mixing them up', async () => {
    const other = await activeProject(ctx, chain);
    ok(
      await postBounty(ctx.app, other.founder, other.project.id, {
        title: 'Other',
        description: 'x',
        reward_amount: 1,
      }),
      201,
    );
    const mine = await listOk(ctx.app, { project_id: p.project.id, limit: 2 });
    const theirs = await listOk(ctx.app, { project_id: other.project.id, limit: 2 });
    expect(mine.total).toBe(3);
    expect(mine.bounties.every((b) => b.project_id === p.project.id)).toBe(true);
    expect(theirs.total).toBe(1);
    expect(theirs.bounties.map((b) => b.title)).toEqual(['Other']);
    const words = await listOk(ctx.app, { project_id: other.project.id, q: 'other' });
    expect(words.bounties.map((b) => b.title)).toEqual(['Other']);
    expect((await listOk(ctx.app, { project_id: other.project.id, q: 'zephyr' })).total).toBe(0);
    // Past the end the total is counted by a statement of its own, kept per shape the same way.
    for (const [query, total] of [
      [{ project_id: p.project.id }, 3],
      [{ project_id: other.project.id }, 1],
      [{ project_id: p.project.id, q: 'zephyr' }, 3],
      [{ project_id: other.project.id, q: 'zephyr' }, 0],
      [{ project_id: other.project.id, q: 'other' }, 1],
    ] as const)
      expect((await listOk(ctx.app, { ...query, offset: 50 })).total, JSON.stringify(query)).toBe(total);
  });

  it('answers a list it built again only while no event happened, and for at most a second', async () => {
    const first = await listOk(ctx.app, { project_id: p.project.id });
    const [top] = first.bounties;
    // A change that records no event (here written behind the service's back, as an outside buy
    // moves the curve's quote): the same answer for up to a second...
    await ctx.database.db.execute(sql`update bounties set title = 'Renamed quietly' where id = ${top?.id}`);
    const reused = await listOk(ctx.app, { project_id: p.project.id });
    expect(reused.bounties[0]?.title).toBe(top?.title);
    // ...another URL is another answer, built now...
    const other = await listOk(ctx.app, { project_id: p.project.id, limit: 19 });
    expect(other.bounties[0]?.title).toBe('Renamed quietly');
    // ...and after a second the list is read again.
    await new Promise((r) => setTimeout(r, 1_050));
    expect((await listOk(ctx.app, { project_id: p.project.id })).bounties[0]?.title).toBe('Renamed quietly');

    // A change that records an event shows at once.
    const added = await post({ title: 'Fresh at once' });
    const after = await listOk(ctx.app, { project_id: p.project.id });
    expect(after.bounties[0]).toMatchObject({ id: added.id, title: 'Fresh at once' });
    expect(after.total).toBe(first.total + 1);
  });

  it('reads every request with BOUNTY_LIST_CACHE_MS=0', async () => {
    const fresh = await buildTestApp({ chain, env: { BOUNTY_LIST_CACHE_MS: '0' } });
    try {
      const p2 = await activeProject(fresh, chain);
      const made = ok<{ bounty: { id: string } }>(
        await postBounty(fresh.app, p2.founder, p2.project.id, {
          title: 'Read me every time',
          description: 'No reuse.',
          reward_amount: 10,
        }),
        201,
      ).bounty;
      expect((await listOk(fresh.app, { project_id: p2.project.id })).bounties[0]?.id).toBe(made.id);
      await fresh.database.db.execute(
        sql`update bounties set title = 'Renamed quietly' where id = ${made.id}`,
      );
      expect((await listOk(fresh.app, { project_id: p2.project.id })).bounties[0]?.title).toBe(
        'Renamed quietly',
      );
    } finally {
      await fresh.close();
    }
  });
});
