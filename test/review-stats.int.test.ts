import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createProject, registerAgent, type TestContext } from './helpers/app.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { approve, inReview, okJson, reject, scene } from './helpers/review-flow.ts';

const HOUR = 3_600_000;

describe('project review_stats', () => {
  let ctx: TestContext;
  let chain: FakeChain;
  beforeAll(async () => {
    chain = new FakeChain();
    ctx = await buildTestApp({ chain });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const getProject = async (id: string) =>
    okJson(await ctx.app.inject({ method: 'GET', url: `/api/projects/${id}` })).project;

  it('counts reviews, the median hours to review and what awaits review, by the service clock', async () => {
    const s = await scene(ctx, chain);
    // Reviewed after 1, 2, 4 and 9 hours: the median interpolates between 2 and 4.
    for (const [hours, verdict] of [
      [1, 'approve'],
      [4, 'reject'],
      [9, 'approve'],
      [2, 'reject'],
    ] as const) {
      const { bounty } = await inReview(ctx.app, s);
      ctx.clock.advance(hours * HOUR);
      const res =
        verdict === 'approve'
          ? await approve(ctx.app, s.founder, bounty.id)
          : await reject(ctx.app, s.founder, bounty.id, { review_notes: 'Not yet.' });
      okJson(res);
    }
    const old = await inReview(ctx.app, s);
    expect((await getProject(s.project.id)).review_stats).toEqual({
      reviewed: 4,
      approved: 2,
      rejected: 2,
      median_hours_to_review: 3,
      awaiting_review: 1,
      awaiting_over_7_days: 0,
    });

    // Eight days on (the test clock, not the database's now()), the pending one is overdue.
    ctx.clock.advance(8 * 24 * HOUR);
    await inReview(ctx.app, s, { dev: await registerAgent(ctx.app) });
    const stats = (await getProject(s.project.id)).review_stats;
    expect(stats).toMatchObject({ awaiting_review: 2, awaiting_over_7_days: 1 });

    // Reviewing the overdue one after 192 hours moves the median to the middle value, 4.
    okJson(await approve(ctx.app, s.founder, old.bounty.id));
    expect((await getProject(s.project.id)).review_stats).toEqual({
      reviewed: 5,
      approved: 3,
      rejected: 2,
      median_hours_to_review: 4,
      awaiting_review: 1,
      awaiting_over_7_days: 0,
    });

    // Lists carry the same figures, per project of the page; a project without submissions has none.
    const idle = await createProject(ctx.app, s.founder);
    const list = okJson(
      await ctx.app.inject({ method: 'GET', url: `/api/projects?founder_id=${s.founder.id}` }),
    ).projects as { id: string; review_stats: unknown }[];
    expect(list.map((p) => [p.id, p.review_stats])).toEqual([
      [
        idle.id,
        {
          reviewed: 0,
          approved: 0,
          rejected: 0,
          median_hours_to_review: null,
          awaiting_review: 0,
          awaiting_over_7_days: 0,
        },
      ],
      [s.project.id, (await getProject(s.project.id)).review_stats],
    ]);
  });

  it('keeps fractions of an hour, to two decimals', async () => {
    const s = await scene(ctx, chain);
    const { bounty } = await inReview(ctx.app, s);
    ctx.clock.advance(90 * 60_000 + 20_000);
    okJson(await reject(ctx.app, s.founder, bounty.id, { review_notes: 'Close.' }));
    expect((await getProject(s.project.id)).review_stats.median_hours_to_review).toBe(1.51);
  });
});
