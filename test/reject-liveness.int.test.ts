import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { payouts } from '../src/infra/db/schema.ts';
import { expectError, registerAgent } from './helpers/app.ts';
import { approve, claim, ok, reject, submit } from './helpers/bounty-flows.ts';
import { webhookApp } from './helpers/builders.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { setRepoLogin } from './helpers/repo-login.ts';
import { expectOnePayout, legacyTwoLegPayout, seedPayoutNonce, UNIT } from './helpers/review-flow.ts';
import { loginOf, prPayload, type Scene } from './helpers/webhook-flows.ts';

/**
 * "A payout that cannot succeed never wedges a bounty the founder did not merge: the founder can
 * still reject it once nothing is in flight, and the committed reward is released." Once the
 * founder merged the work the reward is owed: reject is refused (409 `payment_owed`) whatever
 * happens to its payout, both sides are told once why it could not be paid, and the owed-payouts
 * job pays it as soon as it can.
 */

const lower = (a: string) => a.toLowerCase();

const { chain, host, ctx, kit } = webhookApp(new FakeRepoHost());
beforeAll(async () => {
  // Every first approval here takes the fast path (FreshPayout), whatever test runs first.
  await seedPayoutNonce(ctx, chain);
});
afterEach(() => {
  chain.onSign = null;
  chain.revertNextTo = null;
  // The owed-payouts nudge a test held, even when it failed before releasing it.
  vi.restoreAllMocks();
});

/**
 * Every payout transaction signed from now on to `address` mines reverted (the transfer to it
 * fails, so a router payout reverts whole), until the returned function is called. Nothing signs a
 * reverted payout again on its own: each approval (or owed-payouts pass) signs at most one.
 */
function revertPayoutsTo(address: string): () => void {
  let on = true;
  // Armed as each is signed (before its broadcast), so it is that transaction that reverts.
  const hook = async () => {
    if (!on) return;
    chain.revertNextTo = address;
    chain.onSign = hook;
  };
  chain.onSign = hook;
  return () => {
    on = false;
    chain.onSign = null;
    chain.revertNextTo = null;
  };
}

/** Every transfer the chain mined on the scene's token, as [recipient ('fee': the treasury), status]. */
const transfersOf = (s: Scene) =>
  chain.transfers
    .filter((t) => t.tokenAddress === lower(s.tokenAddress))
    .map((t) => [t.to === lower(chain.info.treasuryAddress) ? 'fee' : t.to, t.status]);

async function committed(s: Scene): Promise<string> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/projects/${s.project.id}/approval-status`,
    headers: s.founder.headers,
  });
  return ok<{ committed: string }>(res).committed;
}

async function payoutOf(submissionId: string) {
  const [row] = await ctx.database.db.select().from(payouts).where(eq(payouts.submissionId, submissionId));
  return row;
}

/**
 * The reward, released from the rejected submission, backs the bounty again: another agent claims
 * it and is paid in full; the first contributor never is.
 */
async function expectReleased(s: Scene, reward: number) {
  expect(await committed(s)).toBe(String(reward));
  const next = await registerAgent(ctx.app);
  await setRepoLogin(ctx, next.id, loginOf(next, 'next'));
  ok(await claim(ctx.app, next, s.bounty.id));
  const pr = 900 + Number(s.prUrl.split('/').pop());
  host.setPullRequest(`${s.repoUrl}/pull/${pr}`, { state: 'open', authorLogin: loginOf(next, 'next') });
  ok(await submit(ctx.app, next, s.bounty.id, s.repoUrl, pr), 201);
  const paid = ok<{ status: string; contributor_tx_hash: string }>(
    await approve(ctx.app, s.founder, s.bounty.id),
  );
  expect(paid.status).toBe('done');
  expect(await committed(s)).toBe('0');
  expect(
    transfersOf(s).filter(
      ([to, status]) => to === lower(s.dev.walletAddress as string) && status === 'success',
    ),
  ).toEqual([]);
  const toNext = chain.paid.filter(
    (t) => t.tokenAddress === lower(s.tokenAddress) && t.to === lower(next.walletAddress as string),
  );
  expect(toNext.map((t) => [t.amountUnits, t.hash])).toEqual([
    [BigInt(reward) * UNIT - feeOf(reward), paid.contributor_tx_hash],
  ]);
}

/** The platform fee (500 bps) of a reward in whole tokens, in base units. */
const feeOf = (reward: number) => (BigInt(reward) * UNIT * 500n) / 10_000n;

describe('reject when the payout cannot succeed', () => {
  it('rejects a bounty whose router payout reverted (nothing moved); the reward is released', async () => {
    const s = await kit.inReview(40);
    expect(await committed(s)).toBe('40');
    const stop = revertPayoutsTo(s.dev.walletAddress as string);
    const failed = expectError(await approve(ctx.app, s.founder, s.bounty.id), 502, 'upstream_error');
    expect(failed.message).toContain('payout reverted');
    stop();
    // The one payout transaction, reverted whole, fee included; nothing signed it again.
    expect(transfersOf(s)).toEqual([
      [lower(s.dev.walletAddress as string), 'reverted'],
      ['fee', 'reverted'],
    ]);
    expect(kit.signedFor(s)).toHaveLength(1);
    expect(await payoutOf(s.submissionId)).toMatchObject({ status: 'failed' });
    const body = ok(await reject(ctx.app, s.founder, s.bounty.id, 'The reward cannot reach you.'));
    expect(body).toEqual({ bounty_id: s.bounty.id, status: 'open', submission_id: s.submissionId });
    expect(await kit.bountyState(s)).toMatchObject({ status: 'open', payment_owed: false });
    // Closed: nothing will ever be signed for the rejected submission again.
    expect(await payoutOf(s.submissionId)).toMatchObject({
      status: 'failed',
      lastError: 'submission rejected',
    });
    const signedBefore = chain.signed.length;
    await ctx.app.services.approvals.reconcile();
    expect(chain.signed).toHaveLength(signedBefore);
    await expectReleased(s, 40);
  });

  it('an old two-leg payout whose contributor leg reverted (its fee leg mined): reject still releases the reward', async () => {
    const s = await kit.inReview(40);
    // Signed before the router: one transferFrom to the contributor, one to the treasury.
    await legacyTwoLegPayout(ctx, chain, s, {
      bounty: { id: s.bounty.id, reward_amount: 40 },
      submission: { id: s.submissionId },
    });
    chain.revertNextTo = s.dev.walletAddress;
    const failed = expectError(await approve(ctx.app, s.founder, s.bounty.id), 502, 'upstream_error');
    expect(failed.message).toContain('contributor transfer reverted');
    expect(transfersOf(s)).toEqual([
      [lower(s.dev.walletAddress as string), 'reverted'],
      ['fee', 'success'],
    ]);
    const body = ok(await reject(ctx.app, s.founder, s.bounty.id, 'The reward cannot reach you.'));
    expect(body).toEqual({ bounty_id: s.bounty.id, status: 'open', submission_id: s.submissionId });
    expect(await kit.bountyState(s)).toMatchObject({ status: 'open', payment_owed: false });
    expect(await payoutOf(s.submissionId)).toMatchObject({
      status: 'failed',
      lastError: 'submission rejected',
    });
    await expectReleased(s, 40);
  });

  it('refuses reject (409 payment_owed) once the founder merged, even when the payout reverts; told once, paid once it can be', async () => {
    const s = await kit.inReview(30);
    const nudges = kit.holdNudges();
    kit.mergeOnHost(s);
    const stop = revertPayoutsTo(s.dev.walletAddress as string);
    // The merge is acknowledged at once: owed, nothing paid inline.
    expect(ok<Record<string, string>>(await kit.deliver(prPayload(s.prUrl)))).toEqual({
      status: 'owed',
      bounty_id: s.bounty.id,
      submission_id: s.submissionId,
    });
    expect(nudges.calls()).toBe(1);
    expect(kit.signedFor(s)).toEqual([]);
    expect(await kit.bountyState(s)).toMatchObject({ status: 'in_review', payment_owed: true });
    expectError(await reject(ctx.app, s.founder, s.bounty.id, 'Changed my mind.'), 409, 'payment_owed');

    // A pass cannot pay: the payout reverts, reward and fee together, and nothing signs it again.
    expect(await kit.payOwed()).toBe(0);
    expect(transfersOf(s).map(([, status]) => status)).toEqual(['reverted', 'reverted']);
    expect(kit.signedFor(s)).toHaveLength(1);
    expect(await payoutOf(s.submissionId)).toMatchObject({ status: 'failed' });
    const failures = await kit.eventsOf(s, 'payout.failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]?.recipients?.toSorted()).toEqual([s.founder.id, s.dev.id].toSorted());
    expect(failures[0]?.data).toMatchObject({ submission_id: s.submissionId, reason: 'upstream_error' });
    // Owed whatever happens to its payout: the founder cannot reject it, and nothing is released.
    expectError(
      await reject(ctx.app, s.founder, s.bounty.id, 'Your wallet cannot receive the reward.'),
      409,
      'payment_owed',
    );
    const b = await kit.bountyState(s);
    expect(b).toMatchObject({ status: 'in_review', payment_owed: true });
    expect(b.submissions[0]).toMatchObject({ id: s.submissionId, status: 'pending', founder_merged: true });
    expect(await committed(s)).toBe('30');

    // A payout that reverted once is tried again 30 s after it failed, not before: a pass now (or
    // the reconciler) signs nothing.
    expect(await kit.payOwed()).toBe(0);
    await ctx.app.services.approvals.reconcile();
    expect(kit.signedFor(s)).toHaveLength(1);
    ctx.clock.advance(29_000);
    expect(await kit.payOwed()).toBe(0);
    expect(kit.signedFor(s)).toHaveLength(1);

    // 30 s on, a pass signs one new transaction; it reverts too, and that tells nobody again.
    ctx.clock.advance(1_000);
    expect(await kit.payOwed()).toBe(0);
    expect(kit.signedFor(s)).toHaveLength(2);
    expect(transfersOf(s).map(([, status]) => status)).toEqual([
      'reverted',
      'reverted',
      'reverted',
      'reverted',
    ]);
    expect(await kit.eventsOf(s, 'payout.failed')).toHaveLength(1);
    expect(chain.paid.filter((t) => t.tokenAddress === lower(s.tokenAddress))).toEqual([]);
    expect(await payoutOf(s.submissionId)).toMatchObject({ status: 'failed' });

    // Reverted twice, it waits 60 s, even once the payout could succeed.
    stop();
    ctx.clock.advance(59_000);
    expect(await kit.payOwed()).toBe(0);
    expect(kit.signedFor(s)).toHaveLength(2);
    // Then the next pass pays it, once.
    ctx.clock.advance(1_000);
    expect(await kit.payOwed()).toBe(1);
    expect(kit.signedFor(s)).toHaveLength(3);
    const done = await kit.bountyState(s);
    expect(done).toMatchObject({ status: 'done', payment_owed: false });
    expect(done.submissions[0]).toMatchObject({ id: s.submissionId, status: 'approved' });
    expectOnePayout(
      chain,
      s,
      s.dev.walletAddress as string,
      { contributorUnits: 30n * UNIT - feeOf(30), feeUnits: feeOf(30) },
      {
        contributor_tx_hash: done.submissions[0]?.contributor_tx_hash as string,
        platform_fee_tx_hash: done.submissions[0]?.platform_fee_tx_hash as string,
      },
    );
    expect(await kit.eventsOf(s, 'payout.failed')).toHaveLength(1);
    expect(await committed(s)).toBe('0');
    expect(await kit.payOwed()).toBe(0);
    nudges.release();
  });
});
