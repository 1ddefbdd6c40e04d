import { asc, eq, inArray } from 'drizzle-orm';
import { decodeFunctionData, type Hex } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { tokensToUnits } from '../src/infra/chain/chain.ts';
import { payoutRouterAbi } from '../src/infra/chain/contracts/PayoutRouter.ts';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';
import { payouts, walletIntents, walletTxs } from '../src/infra/db/schema.ts';
import { legOf } from '../src/modules/payouts/payout-legs.ts';
import { expectError, registerAgent } from './helpers/app.ts';
import { activity } from './helpers/bounty-flows.ts';
import { payoutApp } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { attemptsOfLegs, payoutLegsOf } from './helpers/payout-rows.ts';
import {
  approve,
  expectOnePayout,
  getBounty,
  inReview,
  legacyTwoLegPayout,
  okJson,
  paidOn,
  reject,
  revertNextPayouts,
  routerPayoutsSigned,
  type Scene,
  scene,
  UNIT,
} from './helpers/review-flow.ts';

// The payout workflow end to end on the in-memory chain: legs, nonces, retries and the reconciler.
// A payout is one PayoutRouter transaction (leg kind `payout`) carrying both transfers; payouts
// signed before the router (a `contributor` and a `fee` leg, one transferFrom each) are still driven.
const chain = new FakeChain();
const STUCK_AFTER_MS = 60_000;

const ctx = payoutApp(chain, { PAYOUT_STUCK_AFTER_SECONDS: String(STUCK_AFTER_MS / 1000) });
afterEach(() => {
  chain.failNextBroadcast = null;
  chain.revertNext = false;
  chain.revertNextTo = null;
  chain.holdReceipts = false;
  chain.onSign = null;
  chain.onBroadcast = null;
});

const amounts = { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT };
const lower = (a: string) => a.toLowerCase();

/** The legs of a submission's payout, in nonce order, with their stored attempts and whom each pays how much. */
async function legsOf(submissionId: string) {
  const { db } = ctx.database;
  const legs = await payoutLegsOf(db, { submissionId });
  const ids = legs.map((l) => l.id);
  const attempts = await attemptsOfLegs(db, ids);
  const calls = ids.length ? await db.select().from(walletIntents).where(inArray(walletIntents.id, ids)) : [];
  return legs.map((l) => {
    // The intent's call: a router pay(token, from, to, amount, fee), or a transferFrom(from, to, amount).
    const data = calls.find((c) => c.id === l.id)?.data as Hex;
    const args = (
      l.kind === 'payout'
        ? decodeFunctionData({ abi: payoutRouterAbi, data }).args.slice(2)
        : decodeFunctionData({ abi: projectTokenAbi, data }).args?.slice(1)
    ) as [string, bigint];
    const [toAddress, amountUnits] = args;
    return { ...l, toAddress, amountUnits, attempts: attempts.filter((a) => a.legId === l.id) };
  });
}

async function payoutOf(submissionId: string) {
  const [row] = await ctx.database.db.select().from(payouts).where(eq(payouts.submissionId, submissionId));
  return row;
}

/**
 * What the payout signer signed for the scene's token: router payouts (one transaction paying
 * both), and the plain transferFroms of payouts signed before the router, by recipient.
 */
const signedFor = (s: Scene) => {
  const mine = chain.signed.filter((t) => !t.filler && t.tokenAddress === lower(s.tokenAddress));
  const plain = mine.filter((t) => t.feeUnits === undefined);
  const treasury = lower(chain.info.treasuryAddress);
  return {
    router: routerPayoutsSigned(chain, s.tokenAddress),
    contributor: plain.filter((t) => t.to !== treasury),
    fee: plain.filter((t) => t.to === treasury),
  };
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
  it('a reverted router payout moves nothing and is signed again by nothing on its own; approving again signs one at a fresh nonce; one paid transaction', async () => {
    // Funds of exactly the reward: the reverted payout moved nothing, so the new one needs all of it.
    const s = await scene(ctx, chain, { funds: 100n });
    const { bounty, submission } = await inReview(ctx.app, s, { reward: 100 });
    const founder = s.founder.walletAddress as string;
    // The fee's transfer fails: the router reverts the whole call, the reward with it.
    chain.revertNextTo = chain.info.treasuryAddress;
    const failed = expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
    expect(failed.message).toContain('payout reverted');
    await expectStillInReview(bounty.id, submission.id);
    const first = await legsOf(submission.id);
    expect(first.map((l) => [l.kind, l.status, l.toAddress, l.amountUnits])).toEqual([
      ['payout', 'reverted', s.dev.walletAddress, 95n * UNIT],
    ]);
    expect((await payoutOf(submission.id))?.status).toBe('failed');
    // Both or neither: the reverted transaction moved neither the reward nor the fee.
    expect(
      chain.transfers.filter((t) => t.hash === first[0]?.txHash).map((t) => [t.to, t.amountUnits, t.status]),
    ).toEqual([
      [lower(s.dev.walletAddress as string), 95n * UNIT, 'reverted'],
      [lower(chain.info.treasuryAddress), 5n * UNIT, 'reverted'],
    ]);
    expect(paidOn(chain, s.tokenAddress)).toEqual({ contributor: [], fee: [] });
    expect(await chain.readFunds(s.tokenAddress, founder)).toEqual({
      balanceUnits: 100n * UNIT,
      allowanceUnits: 100n * UNIT,
    });

    // Nothing signs a reverted payout again on its own: the reconciler leaves it failed.
    await ctx.app.services.approvals.reconcile();
    await ctx.app.services.approvals.reconcile();
    expect(signedFor(s).router.map((t) => t.hash)).toEqual([first[0]?.txHash]);
    expect((await payoutOf(submission.id))?.status).toBe('failed');
    await expectStillInReview(bounty.id, submission.id);

    // Approving again signs one new router payout at a fresh nonce, which pays once.
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(body).toMatchObject({ bounty_id: bounty.id, status: 'done', submission_id: submission.id });
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, body);
    const legs = await legsOf(submission.id);
    expect(legs.map((l) => [l.kind, l.status, l.toAddress, l.amountUnits])).toEqual([
      ['payout', 'reverted', s.dev.walletAddress, 95n * UNIT],
      ['payout', 'success', s.dev.walletAddress, 95n * UNIT],
    ]);
    expect(legs[0]?.txHash).toBe(first[0]?.txHash);
    expect(legs[1]?.txHash).toBe(body.contributor_tx_hash);
    expect(legs[1]?.nonce).toBeGreaterThan(legs[0]?.nonce as number);
    const signed = signedFor(s);
    expect(signed.router.map((t) => t.hash)).toEqual([legs[0]?.txHash, body.contributor_tx_hash]);
    expect([...signed.contributor, ...signed.fee]).toEqual([]);
    expect((await payoutOf(submission.id))?.status).toBe('confirmed');
    expect(await chain.readFunds(s.tokenAddress, founder)).toEqual({ balanceUnits: 0n, allowanceUnits: 0n });
    expect((await chain.readFunds(s.tokenAddress, s.dev.walletAddress as string)).balanceUnits).toBe(
      95n * UNIT,
    );
    expect((await chain.readFunds(s.tokenAddress, chain.info.treasuryAddress)).balanceUnits).toBe(5n * UNIT);
    expect(await approvedEvents(bounty.id)).toHaveLength(1);
  });

  it('when the retry reverts too the approval fails again, paying nothing; each retry signs one new payout leg, never two live', async () => {
    const s = await scene(ctx, chain, { funds: 100n });
    const { bounty, submission } = await inReview(ctx.app, s, { reward: 100 });
    const founder = s.founder.walletAddress as string;
    const untouched = { balanceUnits: 100n * UNIT, allowanceUnits: 100n * UNIT };
    revertNextPayouts(chain, 2);
    const failed = expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
    expect(failed.message).toContain('payout reverted');
    await expectStillInReview(bounty.id, submission.id);
    const first = await legsOf(submission.id);
    expect(first.map((l) => [l.kind, l.status])).toEqual([['payout', 'reverted']]);
    expect((await payoutOf(submission.id))?.status).toBe('failed');

    // The retry signs one new router payout; it reverts too, and the approval fails again.
    const again = expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
    expect(again.message).toContain('payout reverted');
    await expectStillInReview(bounty.id, submission.id);
    expect(paidOn(chain, s.tokenAddress)).toEqual({ contributor: [], fee: [] });
    const second = await legsOf(submission.id);
    expect(second.map((l) => [l.kind, l.status, l.txHash])).toEqual([
      ['payout', 'reverted', first[0]?.txHash],
      ['payout', 'reverted', second[1]?.txHash],
    ]);
    expect(second[1]?.txHash).not.toBe(first[0]?.txHash);
    expect(signedFor(s).router.map((t) => t.hash)).toEqual(second.map((l) => l.txHash));
    expect((await payoutOf(submission.id))?.status).toBe('failed');
    expect(await chain.readFunds(s.tokenAddress, founder)).toEqual(untouched);
    // And nothing signs it a third time on its own.
    await ctx.app.services.approvals.reconcile();
    expect(signedFor(s).router).toHaveLength(2);

    // The next retry needs (and checks) the whole reward, and signs one new router payout at a new nonce.
    const retry = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(retry).toMatchObject({ bounty_id: bounty.id, status: 'done', submission_id: submission.id });
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, retry);
    const signed = signedFor(s);
    expect([...signed.contributor, ...signed.fee]).toEqual([]);
    expect(signed.router.map((t) => t.hash)).toEqual([
      second[0]?.txHash,
      second[1]?.txHash,
      retry.contributor_tx_hash,
    ]);
    expect(new Set(signed.router.map((t) => t.nonce)).size).toBe(3);

    const legs = await legsOf(submission.id);
    expect(legs.map((l) => [l.kind, l.status, l.txHash])).toEqual([
      ['payout', 'reverted', second[0]?.txHash],
      ['payout', 'reverted', second[1]?.txHash],
      ['payout', 'success', retry.contributor_tx_hash],
    ]);
    expect((await payoutOf(submission.id))?.status).toBe('confirmed');
    expect(await chain.readFunds(s.tokenAddress, founder)).toEqual({ balanceUnits: 0n, allowanceUnits: 0n });
    expect((await chain.readFunds(s.tokenAddress, s.dev.walletAddress as string)).balanceUnits).toBe(
      95n * UNIT,
    );
    expect(await approvedEvents(bounty.id)).toHaveLength(1);
    expect((await getBounty(ctx.app, bounty.id)).submissions[0]).toMatchObject({
      status: 'approved',
      contributor_tx_hash: retry.contributor_tx_hash,
      platform_fee_tx_hash: retry.contributor_tx_hash,
    });
  });

  it('an old two-leg payout whose fee leg alone reverted: the retry signs a new fee leg, never a second contributor leg', async () => {
    // Funds of exactly the reward: after the contributor leg, only the fee is left to cover.
    const s = await scene(ctx, chain, { funds: 100n });
    const w = await inReview(ctx.app, s, { reward: 100 });
    const { bounty, submission } = w;
    const treasuryBefore = (await chain.readFunds(s.tokenAddress, chain.info.treasuryAddress)).balanceUnits;
    await legacyTwoLegPayout(ctx, chain, s, w);
    chain.revertNextTo = chain.info.treasuryAddress;
    const failed = expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
    expect(failed.message).toContain('fee transfer reverted');
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

    // The retry needs (and checks) only the 5 tokens of the fee, and continues the old payout
    // its own way: a transferFrom for the fee, no router payout.
    const retry = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(retry).toMatchObject({ bounty_id: bounty.id, status: 'done', submission_id: submission.id });
    const paid = paidOn(chain, s.tokenAddress);
    expect(paid.contributor).toHaveLength(1);
    expect(paid.fee).toHaveLength(1);
    const [c, f] = [paid.contributor[0], paid.fee[0]];
    expect(c).toMatchObject({
      from: lower(s.founder.walletAddress as string),
      to: lower(s.dev.walletAddress as string),
      amountUnits: 95n * UNIT,
      hash: retry.contributor_tx_hash,
    });
    expect(f).toMatchObject({
      from: lower(s.founder.walletAddress as string),
      to: lower(chain.info.treasuryAddress),
      amountUnits: 5n * UNIT,
      hash: retry.platform_fee_tx_hash,
    });
    // Two transactions: the old way.
    expect(retry.platform_fee_tx_hash).not.toBe(retry.contributor_tx_hash);
    const signed = signedFor(s);
    expect(signed.router).toEqual([]);
    expect(signed.contributor).toHaveLength(1);
    expect(signed.contributor[0]?.hash).toBe(c?.hash);
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
    expect((await chain.readFunds(s.tokenAddress, chain.info.treasuryAddress)).balanceUnits).toBe(
      treasuryBefore + 5n * UNIT,
    );
    expect(await approvedEvents(bounty.id)).toHaveLength(1);
    expect((await getBounty(ctx.app, bounty.id)).submissions[0]).toMatchObject({
      status: 'approved',
      contributor_tx_hash: retry.contributor_tx_hash,
      platform_fee_tx_hash: retry.platform_fee_tx_hash,
    });
  });

  it('a broadcast RPC failure leaves a stored, signed payout leg that the reconciler broadcasts and finishes', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s, { reward: 100 });
    chain.failNextBroadcast = new Error('ECONNRESET rpc-node-7.internal:8545');
    const res = await approve(ctx.app, s.founder, bounty.id);
    expectError(res, 502, 'upstream_error');
    expect(res.body).not.toContain('rpc-node-7');
    await expectStillInReview(bounty.id, submission.id);

    // The payout's one transaction was signed and stored before the broadcast; it never reached the chain.
    const legs = await legsOf(submission.id);
    expect(legs.map((l) => [l.kind, l.status, l.toAddress, l.amountUnits])).toEqual([
      ['payout', 'signed', s.dev.walletAddress, 95n * UNIT],
    ]);
    for (const leg of legs) {
      expect(leg.attempts).toHaveLength(1);
      expect(leg.attempts[0]?.rawTx).toMatch(/^0x[0-9a-f]+$/);
      expect(leg.attempts[0]?.broadcastAt).toBeNull();
      expect(await chain.wallets.known(leg.attempts[0]?.txHash as string)).toBe(false);
    }
    expect(chain.transfers.filter((t) => t.tokenAddress === lower(s.tokenAddress))).toEqual([]);
    expect((await payoutOf(submission.id))?.status).toBe('pending');

    const signedBefore = chain.signed.length;
    expect(await ctx.app.services.approvals.reconcile()).toBe(1);
    // One router transaction: its hash is both the contributor's and the fee's.
    const hashes = {
      contributor_tx_hash: legs[0]?.attempts[0]?.txHash as string,
      platform_fee_tx_hash: legs[0]?.attempts[0]?.txHash as string,
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
    const aLegs = await legsOf(a.submission.id);
    expect(aLegs.map((l) => [l.kind, l.status])).toEqual([['payout', 'signed']]);
    expectError(await reject(ctx.app, s.founder, a.bounty.id, { review_notes: 'No.' }), 409, 'invalid_state');
    await expectStillInReview(a.bounty.id, a.submission.id);
    // Approving again broadcasts the stored bytes: the very transaction that was signed.
    const done = okJson(await approve(ctx.app, s.founder, a.bounty.id));
    expect(done).toMatchObject({
      submission_id: a.submission.id,
      contributor_tx_hash: aLegs[0]?.attempts[0]?.txHash,
      platform_fee_tx_hash: aLegs[0]?.attempts[0]?.txHash,
    });

    // Broadcast and mined, but no receipt seen before approve gave up.
    const dev2 = await registerAgent(ctx.app);
    const b = await inReview(ctx.app, s, { dev: dev2 });
    chain.holdReceipts = true;
    const timedOut = expectError(await approve(ctx.app, s.founder, b.bounty.id), 502, 'upstream_error');
    expect(timedOut.message).toContain('not confirmed in time');
    const legs = await legsOf(b.submission.id);
    expect(legs.map((l) => [l.kind, l.status])).toEqual([['payout', 'sent']]);
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
      platform_fee_tx_hash: legs[0]?.attempts[0]?.txHash,
    });
    // Each payout moved its reward and its fee once, in its one transaction.
    const paid = paidOn(chain, s.tokenAddress);
    expect(paid.contributor.map((t) => [t.to, t.amountUnits, t.hash])).toEqual([
      [lower(s.dev.walletAddress as string), 95n * UNIT, done.contributor_tx_hash],
      [lower(dev2.walletAddress as string), 95n * UNIT, finished.contributor_tx_hash],
    ]);
    expect(paid.fee.map((t) => [t.amountUnits, t.hash])).toEqual([
      [5n * UNIT, done.platform_fee_tx_hash],
      [5n * UNIT, finished.platform_fee_tx_hash],
    ]);
    expect(signedFor(s).router).toHaveLength(2);
  });

  it('replaces a payout leg that looks stuck at the same nonce, and pays once whichever attempt mined', async () => {
    // A payout of another project signed at the key's next nonce, its broadcast failed: the one
    // signed after it waits in the node's pool behind that gap, stuck as far as anyone can tell.
    const other = await scene(ctx, chain);
    const ahead = await inReview(ctx.app, other);
    chain.failNextBroadcast = new Error('socket hang up');
    expectError(await approve(ctx.app, other.founder, ahead.bounty.id), 502, 'upstream_error');
    const [gap] = await legsOf(ahead.submission.id);
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
    const before = await legsOf(submission.id);
    expect(before.map((l) => [l.kind, l.status, l.nonce])).toEqual([
      ['payout', 'sent', (gap?.nonce ?? 0) + 1],
    ]);

    // Past the stuck threshold: the next drive signs a replacement with fees raised by >= 10%. As it
    // reaches the node the gap fills: the original mines (its receipt not seen yet) and the
    // replacement is refused at its used nonce.
    ctx.clock.advance(STUCK_AFTER_MS + 1000);
    chain.onBroadcast = async () => {
      chain.holdReceipts = true;
      await chain.wallets.broadcast(gap?.attempts[0]?.rawTx as string);
    };
    expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
    expect(chain.onBroadcast).toBeNull();
    const replaced = await legsOf(submission.id);
    expect(replaced).toHaveLength(1);
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

    // The original had mined; the replacement was refused at its used nonce.
    chain.holdReceipts = false;
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, body);
    expect(body.contributor_tx_hash).toBe(before[0]?.attempts[0]?.txHash);
    expect(body.platform_fee_tx_hash).toBe(before[0]?.attempts[0]?.txHash);
    // Two router transactions signed (the original, its replacement), both at the leg's nonce.
    const signed = signedFor(s);
    expect(signed.router.map((t) => t.hash).sort()).toEqual(
      replaced[0]?.attempts.map((a) => a.txHash).sort(),
    );
    expect(signed.router.map((t) => t.nonce)).toEqual([before[0]?.nonce, before[0]?.nonce]);
    expect([...signed.contributor, ...signed.fee]).toEqual([]);
    expect((await legsOf(submission.id)).map((l) => [l.kind, l.status, l.txHash])).toEqual([
      ['payout', 'success', body.contributor_tx_hash],
    ]);
    expect(await approvedEvents(bounty.id)).toHaveLength(1);
    // The payout ahead, sent by hand here, is settled by its own next approval: paid once too.
    const aheadBody = okJson(await approve(ctx.app, other.founder, ahead.bounty.id));
    expectOnePayout(chain, other, other.dev.walletAddress as string, amounts, aheadBody);
    expect(aheadBody.contributor_tx_hash).toBe(gap?.attempts[0]?.txHash);
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
    // One fails on chain first, twice (its payout reverts, and so does the one transaction its
    // first retry signs); its next retry then runs among the others, all at once.
    revertNextPayouts(chain, 2);
    const [first, ...rest] = work as [(typeof work)[0], ...typeof work];
    expectError(await approve(ctx.app, first.s.founder, first.bounty.id), 502, 'upstream_error');
    expectError(await approve(ctx.app, first.s.founder, first.bounty.id), 502, 'upstream_error');
    const results = await Promise.all(work.map((w) => approve(ctx.app, w.s.founder, w.bounty.id)));
    for (const [i, res] of results.entries()) {
      expect(okJson(res).submission_id).toBe(work[i]?.submission.id);
    }
    expect(rest).toHaveLength(9);

    // Every transaction the payout key's intents hold (the payout legs of every test in this file).
    const intents = await ctx.database.db
      .select()
      .from(walletIntents)
      .where(eq(walletIntents.signer, lower(chain.payoutSigner.address)))
      .orderBy(asc(walletIntents.nonce));
    const txs = await ctx.database.db
      .select()
      .from(walletTxs)
      .where(eq(walletTxs.signer, lower(chain.payoutSigner.address)));
    const legs = intents.map((i) =>
      legOf(
        i,
        txs.filter((t) => t.intentId === i.id),
      ),
    );
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
    // Each approval paid its contributor once and its fee once, in one router transaction: the
    // hash it answered with.
    for (const [i, w] of work.entries()) {
      const body = results[i]?.json() as { contributor_tx_hash: string; platform_fee_tx_hash: string };
      expect(body.platform_fee_tx_hash).toBe(body.contributor_tx_hash);
      const paid = paidOn(chain, w.s.tokenAddress, w.dev.walletAddress);
      expect(paid.contributor).toHaveLength(1);
      const split = tokensToUnits(w.bounty.reward_amount);
      const fee = (split * 500n) / 10_000n;
      expect(paid.contributor[0]?.amountUnits).toBe(split - fee);
      expect(paid.contributor[0]?.hash).toBe(body.contributor_tx_hash);
      const fees = paidOn(chain, w.s.tokenAddress).fee.filter((t) => t.hash === body.contributor_tx_hash);
      expect(fees.map((t) => t.amountUnits)).toEqual([fee]);
    }
    expect(paidOn(chain, a.tokenAddress).fee).toHaveLength(5);
    expect(paidOn(chain, b.tokenAddress).fee).toHaveLength(5);
    // One live leg per payout, of kind `payout`; the first payout's two reverted ones stay beside it.
    for (const w of work) {
      const expected =
        w === first
          ? [
              ['payout', 'reverted'],
              ['payout', 'reverted'],
              ['payout', 'success'],
            ]
          : [['payout', 'success']];
      expect((await legsOf(w.submission.id)).map((l) => [l.kind, l.status])).toEqual(expected);
    }
  });
});
