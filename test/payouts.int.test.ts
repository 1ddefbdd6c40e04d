import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tokensToUnits } from '../src/infra/chain/chain.ts';
import { legAttempts, payoutLegs, payouts } from '../src/infra/db/schema.ts';
import { buildTestApp, expectError, registerAgent, type TestContext } from './helpers/app.ts';
import { activity } from './helpers/bounty-flows.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import {
  approve,
  expectOnePayout,
  getBounty,
  inReview,
  okJson,
  paidOn,
  reject,
  type Scene,
  scene,
  UNIT,
} from './helpers/review-flow.ts';

// The payout workflow end to end on the in-memory chain: legs, nonces, retries and the reconciler.
let ctx: TestContext;
const chain = new FakeChain();
const STUCK_AFTER_MS = 60_000;

beforeAll(async () => {
  ctx = await buildTestApp({
    chain,
    env: {
      PAYOUT_RECEIPT_TIMEOUT_SECONDS: '1',
      CHAIN_POLLING_INTERVAL_MS: '10',
      PAYOUT_STUCK_AFTER_SECONDS: String(STUCK_AFTER_MS / 1000),
    },
  });
});
afterAll(() => ctx.close());
afterEach(() => {
  chain.failNextBroadcast = null;
  chain.revertNext = false;
  chain.revertNextTo = null;
  chain.holdReceipts = false;
});

const amounts = { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT };
const lower = (a: string) => a.toLowerCase();

/** The legs of a submission's payout, in nonce order, with their stored attempts. */
async function legsOf(submissionId: string) {
  const db = ctx.database.db;
  const legs = (
    await db
      .select({ leg: payoutLegs })
      .from(payoutLegs)
      .innerJoin(payouts, eq(payouts.id, payoutLegs.payoutId))
      .where(eq(payouts.submissionId, submissionId))
      .orderBy(asc(payoutLegs.nonce))
  ).map((r) => r.leg);
  const attempts =
    legs.length === 0
      ? []
      : await db
          .select()
          .from(legAttempts)
          .where(
            inArray(
              legAttempts.legId,
              legs.map((l) => l.id),
            ),
          );
  return legs.map((l) => ({ ...l, attempts: attempts.filter((a) => a.legId === l.id) }));
}

async function payoutOf(submissionId: string) {
  const [row] = await ctx.database.db.select().from(payouts).where(eq(payouts.submissionId, submissionId));
  return row;
}

/** What the payout signer signed for the scene's token, by recipient. */
const signedFor = (s: Scene) => {
  const mine = chain.signed.filter((t) => t.tokenAddress === lower(s.tokenAddress));
  const treasury = lower(chain.info.treasuryAddress);
  return { contributor: mine.filter((t) => t.to !== treasury), fee: mine.filter((t) => t.to === treasury) };
};

const approvedEvents = async (bountyId: string) =>
  (await activity(ctx.app, { type: 'submission.approved' })).filter((e) => e.bounty_id === bountyId);

async function expectStillInReview(bountyId: string, submissionId: string) {
  const detail = await getBounty(ctx.app, bountyId);
  expect(detail.status).toBe('in_review');
  expect(detail.submissions[0]).toMatchObject({
    id: submissionId,
    status: 'pending',
    contributor_tx_hash: null,
    platform_fee_tx_hash: null,
    reviewed_at: null,
  });
  expect(await approvedEvents(bountyId)).toEqual([]);
}

describe('payout workflow', () => {
  it('after a revert of the fee leg only, the retry signs a new fee leg and never a second contributor leg', async () => {
    // Funds of exactly the reward: after the contributor leg, only the fee is left to cover.
    const s = await scene(ctx, chain, { funds: 100n });
    const { bounty, submission } = await inReview(ctx.app, s, { reward: 100 });
    chain.revertNextTo = chain.info.treasuryAddress;
    const failed = expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
    expect(failed.message).toContain('fee');
    await expectStillInReview(bounty.id, submission.id);
    expect(paidOn(chain, s.tokenAddress, s.dev.walletAddress).contributor).toHaveLength(1);
    expect(paidOn(chain, s.tokenAddress).fee).toEqual([]);
    expect((await legsOf(submission.id)).map((l) => [l.kind, l.status])).toEqual([
      ['contributor', 'success'],
      ['fee', 'reverted'],
    ]);
    expect((await payoutOf(submission.id))?.status).toBe('failed');
    const founderFunds = await chain.readFunds(s.tokenAddress, s.founder.walletAddress as string);
    expect(founderFunds).toEqual({ balanceUnits: 5n * UNIT, allowanceUnits: 5n * UNIT });

    // The retry needs (and checks) only the 5 tokens of the fee.
    const retry = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(retry).toMatchObject({ bounty_id: bounty.id, status: 'done', submission_id: submission.id });
    const { contributor } = expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, retry);
    const signed = signedFor(s);
    expect(signed.contributor).toHaveLength(1);
    expect(signed.contributor[0]?.hash).toBe(contributor.hash);
    expect(signed.fee).toHaveLength(2);
    expect(signed.fee[1]?.hash).toBe(retry.platform_fee_tx_hash);
    expect(signed.fee[0]?.nonce).not.toBe(signed.fee[1]?.nonce);

    const legs = await legsOf(submission.id);
    expect(legs.map((l) => [l.kind, l.status, l.txHash])).toEqual([
      ['contributor', 'success', retry.contributor_tx_hash],
      ['fee', 'reverted', signed.fee[0]?.hash],
      ['fee', 'success', retry.platform_fee_tx_hash],
    ]);
    expect((await payoutOf(submission.id))?.status).toBe('confirmed');
    expect(await chain.readFunds(s.tokenAddress, s.founder.walletAddress as string)).toEqual({
      balanceUnits: 0n,
      allowanceUnits: 0n,
    });
    expect((await chain.readFunds(s.tokenAddress, s.dev.walletAddress as string)).balanceUnits).toBe(
      95n * UNIT,
    );
    expect((await chain.readFunds(s.tokenAddress, chain.info.treasuryAddress)).balanceUnits).toBe(5n * UNIT);
    expect(await approvedEvents(bounty.id)).toHaveLength(1);
    expect((await getBounty(ctx.app, bounty.id)).submissions[0]).toMatchObject({
      status: 'approved',
      contributor_tx_hash: retry.contributor_tx_hash,
      platform_fee_tx_hash: retry.platform_fee_tx_hash,
    });
  });

  it('a broadcast RPC failure leaves stored, signed legs that the reconciler broadcasts and finishes', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s, { reward: 100 });
    chain.failNextBroadcast = new Error('ECONNRESET rpc-node-7.internal:8545');
    const res = await approve(ctx.app, s.founder, bounty.id);
    expectError(res, 502, 'upstream_error');
    expect(res.body).not.toContain('rpc-node-7');
    await expectStillInReview(bounty.id, submission.id);

    // Both legs were signed and stored before the broadcast; none reached the chain.
    const legs = await legsOf(submission.id);
    expect(legs.map((l) => [l.kind, l.status])).toEqual([
      ['contributor', 'signed'],
      ['fee', 'signed'],
    ]);
    for (const leg of legs) {
      expect(leg.attempts).toHaveLength(1);
      expect(leg.attempts[0]?.rawTx).toMatch(/^0x[0-9a-f]+$/);
      expect(leg.attempts[0]?.broadcastAt).toBeNull();
      expect(await chain.payoutSigner.known(leg.attempts[0]?.txHash as string)).toBe(false);
    }
    expect(legs[1]?.nonce).toBe((legs[0]?.nonce as number) + 1);
    expect(chain.transfers.filter((t) => t.tokenAddress === lower(s.tokenAddress))).toEqual([]);
    expect((await payoutOf(submission.id))?.status).toBe('pending');

    const signedBefore = chain.signed.length;
    expect(await ctx.app.services.approvals.reconcile()).toBe(1);
    const hashes = {
      contributor_tx_hash: legs[0]?.attempts[0]?.txHash as string,
      platform_fee_tx_hash: legs[1]?.attempts[0]?.txHash as string,
    };
    // The stored bytes were broadcast: nothing new was signed.
    expect(chain.signed).toHaveLength(signedBefore);
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, hashes);
    const detail = await getBounty(ctx.app, bounty.id);
    expect(detail.status).toBe('done');
    expect(detail.submissions[0]).toMatchObject({ id: submission.id, status: 'approved', ...hashes });
    const events = await approvedEvents(bounty.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      agent_id: s.dev.id,
      project_id: s.project.id,
      data: expect.objectContaining({ submission_id: submission.id, ...hashes }),
    });
    expect((await payoutOf(submission.id))?.status).toBe('confirmed');

    // Nothing is left to do; a second pass and a late approve change nothing.
    expect(await ctx.app.services.approvals.reconcile()).toBe(0);
    expectError(await approve(ctx.app, s.founder, bounty.id), 400, 'not_in_review');
    expect(await approvedEvents(bounty.id)).toHaveLength(1);
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, hashes);
  });

  it('refuses reject (409 invalid_state) once a payout leg was signed, broadcast or not', async () => {
    const s = await scene(ctx, chain);

    // Signed, never broadcast.
    const a = await inReview(ctx.app, s);
    chain.failNextBroadcast = new Error('socket hang up');
    expectError(await approve(ctx.app, s.founder, a.bounty.id), 502, 'upstream_error');
    expect((await legsOf(a.submission.id)).map((l) => l.status)).toEqual(['signed', 'signed']);
    expectError(await reject(ctx.app, s.founder, a.bounty.id, { review_notes: 'No.' }), 409, 'invalid_state');
    await expectStillInReview(a.bounty.id, a.submission.id);
    const done = okJson(await approve(ctx.app, s.founder, a.bounty.id));
    expect(done.submission_id).toBe(a.submission.id);

    // Broadcast and mined, but no receipt seen before approve gave up.
    const dev2 = await registerAgent(ctx.app);
    const b = await inReview(ctx.app, s, { dev: dev2 });
    chain.holdReceipts = true;
    const timedOut = expectError(await approve(ctx.app, s.founder, b.bounty.id), 502, 'upstream_error');
    expect(timedOut.message).toContain('not confirmed in time');
    const legs = await legsOf(b.submission.id);
    expect(legs.map((l) => l.status)).toEqual(['sent', 'sent']);
    expectError(await reject(ctx.app, s.founder, b.bounty.id, { review_notes: 'No.' }), 409, 'invalid_state');
    await expectStillInReview(b.bounty.id, b.submission.id);
    expect(
      (await activity(ctx.app, { type: 'submission.rejected' })).filter((e) =>
        [a.bounty.id, b.bounty.id].includes(e.bounty_id as string),
      ),
    ).toEqual([]);

    // Once receipts show, approving again settles the legs already sent, signing nothing new.
    chain.holdReceipts = false;
    const signedBefore = chain.signed.length;
    const finished = okJson(await approve(ctx.app, s.founder, b.bounty.id));
    expect(chain.signed).toHaveLength(signedBefore);
    expect(finished).toMatchObject({
      submission_id: b.submission.id,
      contributor_tx_hash: legs[0]?.attempts[0]?.txHash,
      platform_fee_tx_hash: legs[1]?.attempts[0]?.txHash,
    });
    expect(paidOn(chain, s.tokenAddress, dev2.walletAddress).contributor).toHaveLength(1);
    expect(paidOn(chain, s.tokenAddress).fee).toHaveLength(2);
  });

  it('replaces a leg that looks stuck at the same nonce, and pays once whichever attempt mined', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    chain.holdReceipts = true;
    expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
    const before = await legsOf(submission.id);

    // Past the stuck threshold: the next drive signs replacements with fees raised by >= 10%.
    ctx.clock.advance(STUCK_AFTER_MS + 1000);
    expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
    const replaced = await legsOf(submission.id);
    for (const [i, leg] of replaced.entries()) {
      expect(leg.nonce).toBe(before[i]?.nonce);
      expect(leg.attempts).toHaveLength(2);
      const [first, second] = leg.attempts.sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime());
      expect((second?.maxFeePerGas as bigint) * 10n).toBeGreaterThanOrEqual(
        (first?.maxFeePerGas as bigint) * 11n,
      );
      expect((second?.maxPriorityFeePerGas as bigint) * 10n).toBeGreaterThanOrEqual(
        (first?.maxPriorityFeePerGas as bigint) * 11n,
      );
    }

    // The originals had mined; the replacements were refused at their used nonces.
    chain.holdReceipts = false;
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, body);
    expect(body.contributor_tx_hash).toBe(before[0]?.attempts[0]?.txHash);
    expect(body.platform_fee_tx_hash).toBe(before[1]?.attempts[0]?.txHash);
    expect(signedFor(s).contributor).toHaveLength(2);
    expect(await approvedEvents(bounty.id)).toHaveLength(1);
  });

  it('gives the payout signer unique, contiguous nonces across many approvals', async () => {
    const a = await scene(ctx, chain);
    const b = await scene(ctx, chain);
    const work = [];
    for (let i = 0; i < 10; i++) {
      const s = i % 2 === 0 ? a : b;
      const dev = await registerAgent(ctx.app);
      work.push({ s, dev, ...(await inReview(ctx.app, s, { dev, reward: 10 + i })) });
    }
    // One fails on chain first; its retry then runs among the others, all at once.
    chain.revertNext = true;
    const [first, ...rest] = work as [(typeof work)[0], ...typeof work];
    expectError(await approve(ctx.app, first.s.founder, first.bounty.id), 502, 'upstream_error');
    const results = await Promise.all(work.map((w) => approve(ctx.app, w.s.founder, w.bounty.id)));
    for (const [i, res] of results.entries()) {
      expect(okJson(res).submission_id).toBe(work[i]?.submission.id);
    }
    expect(rest).toHaveLength(9);

    const legs = await ctx.database.db
      .select()
      .from(payoutLegs)
      .where(eq(payoutLegs.signer, chain.payoutSigner.address))
      .orderBy(asc(payoutLegs.nonce));
    const nonces = legs.map((l) => l.nonce);
    expect(new Set(nonces).size).toBe(nonces.length);
    expect(nonces).toEqual(nonces.map((_, i) => i));
    // Every nonce handed out reached the chain, in that order, as the leg's own transaction.
    expect(chain.ledgerNonce).toBe(nonces.length);
    for (const leg of legs) {
      const mined = chain.transfers.find((t) => t.nonce === leg.nonce);
      expect(mined?.hash).toBe(leg.txHash);
      expect(mined?.status).toBe(leg.status);
    }
    // Each approval paid its contributor once and its fee once.
    for (const w of work) {
      const paid = paidOn(chain, w.s.tokenAddress, w.dev.walletAddress);
      expect(paid.contributor).toHaveLength(1);
      const split = tokensToUnits(w.bounty.reward_amount);
      expect(paid.contributor[0]?.amountUnits).toBe(split - (split * 500n) / 10_000n);
    }
    expect(paidOn(chain, a.tokenAddress).fee).toHaveLength(5);
    expect(paidOn(chain, b.tokenAddress).fee).toHaveLength(5);
  });
});
