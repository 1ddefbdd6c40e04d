import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, expectError } from './helpers/app.ts';
import { activity, approve, ok, reject } from './helpers/bounty-flows.ts';
import { webhookApp } from './helpers/builders.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { setRepoLogin } from './helpers/repo-login.ts';
import { prPayload, type Scene } from './helpers/webhook-flows.ts';

/**
 * Who gets paid, and who decides, at the merge: a signed merge delivery is checked with the host,
 * recorded with who merged, and only the founder's own merge makes the reward owed; the
 * owed-payouts job then pays it as the founder's approval would, as soon as it can.
 */

const lower = (a: string) => a.toLowerCase();

const { chain, host, ctx, kit } = webhookApp(new FakeRepoHost());
afterEach(async () => {
  vi.restoreAllMocks();
  // A pass a delivery nudged finishes before the next test sets its knobs.
  await ctx.app.services.owedPayouts.idle();
  chain.failNextBroadcast = null;
  chain.holdReceipts = false;
});

const transfersOf = (s: Scene) => chain.transfers.filter((t) => t.tokenAddress === lower(s.tokenAddress));
/** Successful transfers of the scene's token: what actually moved. */
const paidOn = (s: Scene) => transfersOf(s).filter((t) => t.status === 'success');
const mergedEvents = async (s: Scene) =>
  (await activity(ctx.app, { type: 'submission.merged', project_id: s.project.id })).filter(
    (e) => e.bounty_id === s.bounty.id,
  );

describe('merge webhook: only a merge by the founder makes the reward owed', () => {
  it('a merge by the founder (login compared case-insensitively) is owed at once, recorded, and paid by the job', async () => {
    const s = await kit.inReview(50);
    kit.mergeOnHost(s, s.founderLogin.toUpperCase());
    const nudges = kit.holdNudges();
    const body = ok<Record<string, string>>(await kit.deliver(prPayload(s.prUrl)));
    expect(body).toEqual({ status: 'owed', bounty_id: s.bounty.id, submission_id: s.submissionId });
    expect(nudges.calls()).toBe(1);
    // Owed, not paid: nothing signed inside the request.
    expect(kit.signedFor(s)).toEqual([]);
    const owed = await kit.bountyState(s);
    expect(owed).toMatchObject({ status: 'in_review', payment_owed: true });
    expect(owed.submissions[0]).toMatchObject({
      status: 'pending',
      merged_at: ctx.clock.now().toISOString(),
      merged_by: s.founderLogin.toUpperCase(),
      founder_merged: true,
    });
    expect(await kit.listed(s)).toMatchObject({ status: 'in_review', payment_owed: true });
    expect(await kit.reviewStats(s)).toMatchObject({ awaiting_review: 1, owed: 1, approved: 0 });
    expect(await mergedEvents(s)).toEqual([
      expect.objectContaining({
        agent_id: s.dev.id,
        data: {
          submission_id: s.submissionId,
          pr_url: s.prUrl,
          merged_by: s.founderLogin.toUpperCase(),
          by_founder: true,
        },
      }),
    ]);
    expectError(await reject(ctx.app, s.founder, s.bounty.id), 409, 'payment_owed');

    expect(await kit.payOwed()).toBe(1);
    expect(transfersOf(s).map((t) => t.status)).toEqual(['success', 'success']);
    const b = await kit.bountyState(s);
    expect(b).toMatchObject({ status: 'done', payment_owed: false });
    expect(b.submissions[0]).toMatchObject({ status: 'approved', founder_merged: true });
    // One router transaction: the contributor's share and the fee under one hash.
    const [tx] = kit.signedFor(s);
    expect(kit.signedFor(s)).toHaveLength(1);
    expect(b.submissions[0]?.contributor_tx_hash).toBe(tx?.hash);
    expect(b.submissions[0]?.platform_fee_tx_hash).toBe(tx?.hash);
    expect(await kit.listed(s)).toMatchObject({ status: 'done', payment_owed: false });
    expect(await kit.reviewStats(s)).toMatchObject({ awaiting_review: 0, owed: 0, approved: 1 });
  });

  it('a merge by anyone else pays nothing, is recorded, and waits for the founder, who can approve', async () => {
    const s = await kit.inReview(40);
    kit.mergeOnHost(s, s.devLogin);
    const nudges = kit.holdNudges();
    const id = randomUUID();
    expect(ok(await kit.deliver(prPayload(s.prUrl), { id }))).toEqual({
      status: 'merged',
      bounty_id: s.bounty.id,
      submission_id: s.submissionId,
      merged_by: s.devLogin,
    });
    expect(await kit.recorded(id)).toBe(true);
    expect(nudges.calls()).toBe(0);
    // Not owed: the owed-payouts job leaves it alone.
    await kit.payOwed();
    expect(kit.signedFor(s)).toEqual([]);
    const b = await kit.bountyState(s);
    expect(b).toMatchObject({ status: 'in_review', payment_owed: false });
    expect(b.submissions[0]).toMatchObject({
      status: 'pending',
      merged_by: s.devLogin,
      merged_at: ctx.clock.now().toISOString(),
      founder_merged: false,
    });
    expect(await kit.reviewStats(s)).toMatchObject({ awaiting_review: 1, owed: 0 });
    expect((await mergedEvents(s)).map((e) => e.data)).toEqual([
      { submission_id: s.submissionId, pr_url: s.prUrl, merged_by: s.devLogin, by_founder: false },
    ]);
    // Another delivery of the same merge records nothing more and still pays nothing.
    expect(ok(await kit.deliver(prPayload(s.prUrl))).status).toBe('merged');
    expect(await mergedEvents(s)).toHaveLength(1);
    await kit.payOwed();
    expect(transfersOf(s)).toEqual([]);

    const approved = ok<Record<string, string>>(await approve(ctx.app, s.founder, s.bounty.id));
    expect(approved.status).toBe('done');
    expect(approved.contributor_tx_hash).toBe(approved.platform_fee_tx_hash);
    expect(transfersOf(s).map((t) => t.status)).toEqual(['success', 'success']);
  });

  it('a merge by someone else does not block reject', async () => {
    const s = await kit.inReview(10);
    kit.mergeOnHost(s, 'someone-else');
    expect(ok(await kit.deliver(prPayload(s.prUrl))).status).toBe('merged');
    ok(await reject(ctx.app, s.founder, s.bounty.id));
    expect(await kit.bountyState(s)).toMatchObject({ status: 'open', payment_owed: false });
    await kit.payOwed();
    expect(transfersOf(s)).toEqual([]);
  });

  it('a founder without a repo_login, or a host that does not say who merged, never makes it owed', async () => {
    const a = await kit.inReview(10);
    await setRepoLogin(ctx, a.founder.id, null);
    kit.mergeOnHost(a, a.founderLogin);
    expect(ok(await kit.deliver(prPayload(a.prUrl))).status).toBe('merged');
    const b = await kit.inReview(10);
    kit.mergeOnHost(b, null);
    expect(ok(await kit.deliver(prPayload(b.prUrl)))).toMatchObject({ status: 'merged', merged_by: null });
    await kit.payOwed();
    for (const s of [a, b]) {
      expect(await kit.bountyState(s)).toMatchObject({ status: 'in_review', payment_owed: false });
      expect(transfersOf(s)).toEqual([]);
    }
  });

  it('a signed delivery claiming a merge the host does not report pays and records nothing', async () => {
    const s = await kit.inReview(30);
    host.setPullRequest(s.prUrl, { state: 'open', merged: false, authorLogin: s.devLogin });
    const id = randomUUID();
    expect(ok(await kit.deliver(prPayload(s.prUrl), { id }))).toEqual({ status: 'ignored' });
    expect(await kit.recorded(id)).toBe(true);
    host.removePullRequest(s.prUrl);
    expect(ok(await kit.deliver(prPayload(s.prUrl)))).toEqual({ status: 'ignored' });
    await kit.payOwed();
    const b = await kit.bountyState(s);
    expect(b).toMatchObject({ status: 'in_review', payment_owed: false });
    expect(b.submissions[0]).toMatchObject({ merged_at: null, merged_by: null, founder_merged: false });
    expect(await mergedEvents(s)).toEqual([]);
    expect(kit.signedFor(s)).toEqual([]);
  });
});

describe('a founder merge that cannot be paid yet', () => {
  it('tells founder and contributor once per reason, refuses reject (409 payment_owed), and pays once funds cover it', async () => {
    const s = await kit.inReview(25);
    const founderWallet = s.founder.walletAddress as string;
    chain.setFunds(s.tokenAddress, founderWallet, 1_000_000n, 0n);
    kit.mergeOnHost(s);
    kit.holdNudges();
    const id = randomUUID();
    // Answered at once, whatever the founder's funds: no payout reason in the answer.
    expect(ok(await kit.deliver(prPayload(s.prUrl), { id }))).toEqual({
      status: 'owed',
      bounty_id: s.bounty.id,
      submission_id: s.submissionId,
    });
    expect(await kit.recorded(id)).toBe(true);
    expect(await kit.eventsOf(s, 'payout.failed')).toEqual([]);

    expect(await kit.payOwed()).toBe(0);
    const failures = await kit.eventsOf(s, 'payout.failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]?.recipients?.toSorted()).toEqual([s.founder.id, s.dev.id].toSorted());
    expect(failures[0]?.data).toEqual({
      submission_id: s.submissionId,
      reason: 'insufficient_funds',
      message: expect.stringContaining('allowance'),
    });
    // Personal: never in the public feed.
    expect((await activity(ctx.app, { project_id: s.project.id })).map((e) => e.type)).not.toContain(
      'payout.failed',
    );
    // Every pass tries again; one that fails the same way tells nobody anything new.
    expect(await kit.payOwed()).toBe(0);
    expect(await kit.payOwed()).toBe(0);
    expect(await kit.eventsOf(s, 'payout.failed')).toHaveLength(1);
    expect(kit.signedFor(s)).toEqual([]);

    const refused = expectError(await reject(ctx.app, s.founder, s.bounty.id), 409, 'payment_owed');
    expect(refused.message).toMatch(/owe/);
    const b = await kit.bountyState(s);
    expect(b).toMatchObject({ status: 'in_review', payment_owed: true });
    expect(b.submissions[0]).toMatchObject({ status: 'pending', founder_merged: true });
    expect(await kit.listed(s)).toMatchObject({ payment_owed: true });
    expect(await kit.reviewStats(s)).toMatchObject({ owed: 1, awaiting_review: 1 });

    // Funded, but the node fails to take the payout: another reason, told once more.
    chain.setFunds(s.tokenAddress, founderWallet, 1_000_000n);
    chain.failNextBroadcast = new Error('ECONNRESET rpc-node-7.internal:8545');
    expect(await kit.payOwed()).toBe(0);
    expect((await kit.eventsOf(s, 'payout.failed')).map((e) => e.data.reason)).toEqual([
      'insufficient_funds',
      'upstream_error',
    ]);
    expect(paidOn(s)).toEqual([]);
    expectError(await reject(ctx.app, s.founder, s.bounty.id), 409, 'payment_owed');

    // The next pass pays it, once; nothing more is told and nothing is owed any more.
    expect(await kit.payOwed()).toBe(1);
    expect(paidOn(s).map((t) => [t.to, t.amountUnits])).toEqual([
      [lower(s.dev.walletAddress as string), 2_375n * 10n ** 16n],
      [lower(chain.info.treasuryAddress), 125n * 10n ** 16n],
    ]);
    expect(await kit.bountyState(s)).toMatchObject({ status: 'done', payment_owed: false });
    expect(await kit.reviewStats(s)).toMatchObject({ owed: 0, awaiting_review: 0, approved: 1 });
    expect(await kit.payOwed()).toBe(0);
    expect(await kit.eventsOf(s, 'payout.failed')).toHaveLength(2);
    expect(paidOn(s)).toHaveLength(2);
    expectError(await reject(ctx.app, s.founder, s.bounty.id), 400, 'not_in_review');
  });

  it('a payout still confirming is not a failure: nothing is told, and the next pass finishes it', async () => {
    const s = await kit.inReview(35);
    kit.mergeOnHost(s);
    kit.holdNudges();
    expect(ok(await kit.deliver(prPayload(s.prUrl))).status).toBe('owed');
    // Another instance that waits one second on receipts; the node withholds them.
    const quick = await buildTestApp({
      chain,
      database: ctx.database,
      repoHost: host,
      env: { PAYOUT_RECEIPT_TIMEOUT_SECONDS: '1' },
    });
    chain.holdReceipts = true;
    try {
      expect(await quick.app.services.owedPayouts.run()).toBe(0);
      expect(await quick.app.services.owedPayouts.run()).toBe(0);
      expect(kit.signedFor(s)).toHaveLength(1);
      expect(await kit.eventsOf(s, 'payout.failed')).toEqual([]);
      expect(await kit.bountyState(s)).toMatchObject({ status: 'in_review', payment_owed: true });
      expectError(await reject(ctx.app, s.founder, s.bounty.id), 409, 'payment_owed');
      chain.holdReceipts = false;
      expect(await quick.app.services.owedPayouts.run()).toBe(1);
    } finally {
      chain.holdReceipts = false;
      await quick.close();
    }
    expect(await kit.bountyState(s)).toMatchObject({ status: 'done', payment_owed: false });
    expect(kit.signedFor(s)).toHaveLength(1);
    expect(paidOn(s)).toHaveLength(2);
    expect(await kit.eventsOf(s, 'payout.failed')).toEqual([]);
  });

  it('a reject racing the founder merge: either the reject wins and the merge is ignored, or the reward is owed', async () => {
    const s = await kit.inReview(15);
    chain.setFunds(s.tokenAddress, s.founder.walletAddress as string, 1_000_000n, 0n);
    kit.mergeOnHost(s);
    const [delivery, rejected] = await Promise.all([
      kit.deliver(prPayload(s.prUrl)),
      reject(ctx.app, s.founder, s.bounty.id),
    ]);
    await kit.payOwed();
    const b = await kit.bountyState(s);
    if (rejected.statusCode === 200) {
      expect(ok(delivery).status).toBe('ignored');
      expect(b).toMatchObject({ status: 'open', payment_owed: false });
      expect(await mergedEvents(s)).toEqual([]);
    } else {
      // The merge came first: owed, so the reject is refused as such.
      expectError(rejected, 409, 'payment_owed');
      expect(ok(delivery).status).toBe('owed');
      expect(b).toMatchObject({ status: 'in_review', payment_owed: true });
      expect((await kit.eventsOf(s, 'payout.failed')).map((e) => e.data.reason)).toEqual([
        'insufficient_funds',
      ]);
    }
    expect(transfersOf(s)).toEqual([]);
  });
});
