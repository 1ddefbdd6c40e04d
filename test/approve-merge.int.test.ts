import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../src/lib/errors.ts';
import { buildTestApp, expectError } from './helpers/app.ts';
import { ok, reject } from './helpers/bounty-flows.ts';
import { webhookApp } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost, fakeHeadSha } from './helpers/fake-repo-host.ts';
import { prPayload, type Scene, webhookKit } from './helpers/webhook-flows.ts';

/**
 * `POST /api/bounties/{id}/approve` with `"merge": true`: the service merges the pull request on
 * the host first (at the head the founder saw) and pays once it is merged; a merge the host
 * refuses is 409 `not_mergeable` with nothing paid; the host's merge webhook arriving later pays
 * nothing more; a crash between the merge and the payout still pays, once.
 */

const { chain, host, ctx, kit } = webhookApp(new FakeRepoHost());
afterEach(async () => {
  vi.restoreAllMocks();
  await ctx.app.services.owedPayouts.idle();
  host.failNextMerge = null;
  host.mergeAfterFailure = false;
  host.onMerged = null;
});

const approveWith = (s: Scene, payload: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/bounties/${s.bounty.id}/approve`,
    headers: s.founder.headers,
    payload: payload as Record<string, unknown>,
  });
const paid = (s: Scene) =>
  chain.transfers.filter((t) => t.tokenAddress === s.tokenAddress.toLowerCase() && t.status === 'success');
const mergesOf = (s: Scene) => host.merges.filter((m) => s.prUrl.endsWith(`/${m.repo}/pull/${m.number}`));

describe('approve with "merge": true', () => {
  it('merges at the head the founder saw, then pays once; the merge webhook after it pays nothing more', async () => {
    const s = await kit.inReview(40);
    const nudges = kit.holdNudges();
    const body = ok<{ status: string; submission_id: string }>(await approveWith(s, { merge: true }));
    expect(body).toMatchObject({ status: 'done', submission_id: s.submissionId });
    expect(mergesOf(s)).toEqual([expect.objectContaining({ sha: fakeHeadSha(s.prUrl) })]);
    expect(paid(s)).toHaveLength(2); // reward and fee, one router transaction
    const state = await kit.bountyState(s);
    expect(state).toMatchObject({ status: 'done', payment_owed: false });
    expect(state.submissions[0]).toMatchObject({ status: 'approved', founder_merged: true });
    const merged = await kit.eventsOf(s, 'submission.merged');
    expect(merged.map((e) => e.data)).toEqual([
      { submission_id: s.submissionId, pr_url: s.prUrl, merged_by: null, by_founder: true },
    ]);
    // The host's delivery of that merge, later: recorded already, nothing owed, nothing paid.
    ok(await kit.deliver(prPayload(s.prUrl)));
    expect(await kit.payOwed()).toBe(0);
    expect(paid(s)).toHaveLength(2);
    expect(nudges.calls()).toBe(0);
  });

  it("pays once when the host's merge webhook arrives during the approval (and the owed job runs then)", async () => {
    const s = await kit.inReview(40);
    const deliveries: number[] = [];
    host.onMerged = async () => {
      // The host answers its webhook before the merge call returns, and the nudged job runs at once.
      deliveries.push((await kit.deliver(prPayload(s.prUrl))).statusCode);
      await ctx.app.services.owedPayouts.run();
    };
    ok(await approveWith(s, { merge: true }));
    expect(deliveries).toEqual([200]);
    await ctx.app.services.owedPayouts.idle();
    expect(await kit.payOwed()).toBe(0);
    expect(paid(s)).toHaveLength(2); // one router transaction: reward and fee
    const state = await kit.bountyState(s);
    expect(state).toMatchObject({ status: 'done', payment_owed: false });
    expect(state.submissions[0]).toMatchObject({ status: 'approved', founder_merged: true, merged_by: null });
    expect(await kit.eventsOf(s, 'payout.failed')).toEqual([]);
    // The webhook came first, naming the platform as the merger: still the approval's merge, the founder's.
    expect((await kit.eventsOf(s, 'submission.merged')).map((e) => e.data)).toEqual([
      { submission_id: s.submissionId, pr_url: s.prUrl, merged_by: null, by_founder: true },
    ]);
  });

  it('is 409 not_mergeable with nothing paid and nothing owed when the host cannot merge it', async () => {
    const s = await kit.inReview(40);
    host.setPullRequest(s.prUrl, { mergeable: false, authorLogin: s.devLogin });
    expectError(await approveWith(s, { merge: true }), 409, 'not_mergeable');
    expect(paid(s)).toEqual([]);
    const state = await kit.bountyState(s);
    expect(state).toMatchObject({ status: 'in_review', payment_owed: false });
    expect(state.submissions[0]).toMatchObject({ status: 'pending', founder_merged: false, merged_at: null });
    expect(await kit.eventsOf(s, 'submission.merged')).toEqual([]);
    // Still the founder's to decide: reject works, and nothing is paid by the owed job.
    expect(await kit.payOwed()).toBe(0);
    ok(await reject(ctx.app, s.founder, s.bounty.id));
  });

  it('never merges a head pushed after the review (the host refuses the old sha)', async () => {
    const s = await kit.inReview(40);
    // The contributor pushed; the service has not heard of it yet (its report still has the old head).
    host.setPullRequest(s.prUrl, { headSha: 'f'.repeat(40), authorLogin: s.devLogin });
    expectError(await approveWith(s, { merge: true }), 409, 'not_mergeable');
    expect(mergesOf(s)).toEqual([expect.objectContaining({ sha: fakeHeadSha(s.prUrl) })]);
    expect(paid(s)).toEqual([]);
  });

  it('pays a pull request the founder already merged on the host without asking the host again', async () => {
    const s = await kit.inReview(40);
    kit.mergeOnHost(s);
    kit.holdNudges();
    ok(await kit.deliver(prPayload(s.prUrl)));
    ok(await approveWith(s, { merge: true }));
    expect(mergesOf(s)).toEqual([]);
    expect(paid(s)).toHaveLength(2);
  });

  it('without merge, pays and leaves the pull request alone', async () => {
    const s = await kit.inReview(40);
    ok(await approveWith(s, { merge: false }));
    expect(mergesOf(s)).toEqual([]);
    expect(paid(s)).toHaveLength(2);
  });

  it('a lost answer from the host after it merged: 502, still owed, and the owed job pays it once', async () => {
    const s = await kit.inReview(40);
    kit.holdNudges();
    host.failNextMerge = new AppError('upstream_error', 'The repository host failed to merge: timeout.');
    host.mergeAfterFailure = true;
    expectError(await approveWith(s, { merge: true }), 502, 'upstream_error');
    expect(paid(s)).toEqual([]);
    // Owed from before the host was asked: reject is refused, the job finishes it.
    expect(await kit.bountyState(s)).toMatchObject({ status: 'in_review', payment_owed: true });
    expectError(await reject(ctx.app, s.founder, s.bounty.id), 409, 'payment_owed');
    expect(await kit.payOwed()).toBe(1);
    expect(mergesOf(s)).toHaveLength(2); // asked again: the host says it is merged
    expect(paid(s)).toHaveLength(2);
    expect(await kit.payOwed()).toBe(0);
    expect(paid(s)).toHaveLength(2);
  });

  it('a host refusal found by the owed job (after a crash) is told once as payout.failed and stops being owed', async () => {
    const s = await kit.inReview(40);
    kit.holdNudges();
    host.failNextMerge = new AppError('upstream_error', 'The repository host failed to merge: timeout.');
    expectError(await approveWith(s, { merge: true }), 502, 'upstream_error');
    // Meanwhile the pull request was closed: it can never be merged.
    host.setPullRequest(s.prUrl, { state: 'closed', authorLogin: s.devLogin });
    expect(await kit.payOwed()).toBe(0);
    const failed = await kit.eventsOf(s, 'payout.failed');
    expect(failed.map((e) => (e.data as { reason: string }).reason)).toEqual(['not_mergeable']);
    expect(await kit.bountyState(s)).toMatchObject({ status: 'in_review', payment_owed: false });
    expect(await kit.payOwed()).toBe(0);
    expect(await kit.eventsOf(s, 'payout.failed')).toHaveLength(1);
    expect(paid(s)).toEqual([]);
  });

  it('refuses a merge that is not a boolean', async () => {
    const s = await kit.inReview(40);
    expectError(await approveWith(s, { merge: 'yes' }), 400, 'validation_error');
    expect(mergesOf(s)).toEqual([]);
  });

  it('works the same on a GitHub-configured deployment: merged first and paid once, or 409 with nothing paid', async () => {
    const gh = new FakeRepoHost({ kind: 'github' });
    const chainGh = new FakeChain();
    const other = await buildTestApp({ chain: chainGh, repoHost: gh });
    try {
      const k = webhookKit(other, chainGh, gh);
      const ghPaid = (sc: Scene) =>
        chainGh.transfers.filter(
          (t) => t.tokenAddress === sc.tokenAddress.toLowerCase() && t.status === 'success',
        );
      const send = (sc: Scene, payload: unknown) =>
        other.app.inject({
          method: 'POST',
          url: `/api/bounties/${sc.bounty.id}/approve`,
          headers: sc.founder.headers,
          payload: payload as Record<string, unknown>,
        });
      const good = await k.inReview(40);
      expect(ok<{ status: string }>(await send(good, { merge: true })).status).toBe('done');
      expect(gh.merges.filter((m) => good.prUrl.endsWith(`/pull/${m.number}`))).toHaveLength(1);
      expect(ghPaid(good)).toHaveLength(2);
      const bad = await k.inReview(40);
      gh.setPullRequest(bad.prUrl, { mergeable: false, authorLogin: bad.devLogin });
      expectError(await send(bad, { merge: true }), 409, 'not_mergeable');
      expect(ghPaid(bad)).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
