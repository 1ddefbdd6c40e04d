import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewRecord } from '../src/web/public/board.ts';
import { buildTestApp, createProject, expectError, registerAgent, type TestContext } from './helpers/app.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { approve, inReview, okJson, reject, scene } from './helpers/review-flow.ts';
import { prPayload, webhookKit } from './helpers/webhook-flows.ts';

const HOUR = 3_600_000;

describe('project review_stats', () => {
  let ctx: TestContext;
  let chain: FakeChain;
  let host: FakeRepoHost;
  beforeAll(async () => {
    chain = new FakeChain();
    host = new FakeRepoHost();
    ctx = await buildTestApp({ chain, repoHost: host });
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
      decided: 4,
      approved: 2,
      rejected: 2,
      changes_requested: 0,
      median_hours_to_review: 3,
      awaiting_review: 1,
      awaiting_over_7_days: 0,
      owed: 0,
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
      decided: 5,
      approved: 3,
      rejected: 2,
      changes_requested: 0,
      median_hours_to_review: 4,
      awaiting_review: 1,
      awaiting_over_7_days: 0,
      owed: 0,
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
          decided: 0,
          approved: 0,
          rejected: 0,
          changes_requested: 0,
          median_hours_to_review: null,
          awaiting_review: 0,
          awaiting_over_7_days: 0,
          owed: 0,
        },
      ],
      [s.project.id, (await getProject(s.project.id)).review_stats],
    ]);
  });

  it('never counts a request for changes against the founder: approved of decided, on the API and the pages', async () => {
    const s = await scene(ctx, chain);
    const { bounty } = await inReview(ctx.app, s);
    okJson(
      await ctx.app.inject({
        method: 'POST',
        url: `/api/bounties/${bounty.id}/request-changes`,
        headers: s.founder.headers,
        payload: { review_notes: 'One more test, please.' },
      }),
    );
    okJson(
      await ctx.app.inject({
        method: 'POST',
        url: `/api/bounties/${bounty.id}/submit`,
        headers: s.dev.headers,
        payload: { pr_url: (await ctx.app.services.bounties.get(bounty.id)).submissions[0]?.pr_url },
      }),
      201,
    );
    okJson(await approve(ctx.app, s.founder, bounty.id));
    expect((await getProject(s.project.id)).review_stats).toMatchObject({
      reviewed: 2,
      decided: 1,
      approved: 1,
      rejected: 0,
      changes_requested: 1,
    });
    const page = await ctx.app.inject({ method: 'GET', url: `/projects/${s.project.id}` });
    expect(page.body).toMatch(/<dt>Approved<\/dt><dd>1 of 1 decided<\/dd>/);
    expect(page.body).toMatch(/<dt>Sent back for changes<\/dt><dd>1<\/dd>/);
    // The board's card line for the project says the same.
    expect(reviewRecord(await getProject(s.project.id)).text).toBe('1 of 1 decided approved');
  });

  it('keeps fractions of an hour, to two decimals', async () => {
    const s = await scene(ctx, chain);
    const { bounty } = await inReview(ctx.app, s);
    ctx.clock.advance(90 * 60_000 + 20_000);
    okJson(await reject(ctx.app, s.founder, bounty.id, { review_notes: 'Close.' }));
    expect((await getProject(s.project.id)).review_stats.median_hours_to_review).toBe(1.51);
  });

  it('counts a submission the founder merged as owed until the owed-payouts job pays it', async () => {
    const kit = webhookKit(ctx, chain, host);
    const merged = await kit.inReview(20);
    const other = await kit.inReview(30);
    // Merged by the founder, with an allowance that cannot pay it yet; the other merged by someone else.
    chain.setFunds(merged.tokenAddress, merged.founder.walletAddress as string, 1_000_000n, 0n);
    kit.mergeOnHost(merged);
    kit.mergeOnHost(other, other.devLogin);
    expect(okJson(await kit.deliver(prPayload(merged.prUrl))).status).toBe('owed');
    expect(okJson(await kit.deliver(prPayload(other.prUrl))).status).toBe('merged');
    await kit.payOwed();
    expect((await getProject(merged.project.id)).review_stats).toEqual({
      reviewed: 0,
      decided: 0,
      approved: 0,
      rejected: 0,
      changes_requested: 0,
      median_hours_to_review: null,
      awaiting_review: 1,
      awaiting_over_7_days: 0,
      owed: 1,
    });
    expect((await getProject(other.project.id)).review_stats).toMatchObject({ awaiting_review: 1, owed: 0 });
    // Still owed: it cannot be rejected, and it stays counted.
    expectError(
      await reject(ctx.app, merged.founder, merged.bounty.id, { review_notes: 'No.' }),
      409,
      'payment_owed',
    );
    expect((await getProject(merged.project.id)).review_stats).toMatchObject({ owed: 1, rejected: 0 });

    chain.setFunds(merged.tokenAddress, merged.founder.walletAddress as string, 1_000_000n);
    ctx.clock.advance(HOUR);
    await kit.payOwed();
    expect((await getProject(merged.project.id)).review_stats).toEqual({
      reviewed: 1,
      decided: 1,
      approved: 1,
      rejected: 0,
      changes_requested: 0,
      median_hours_to_review: 1,
      awaiting_review: 0,
      awaiting_over_7_days: 0,
      owed: 0,
    });
  });
});
