import { eq, inArray, sql } from 'drizzle-orm';
import { decodeFunctionData, type Hex } from 'viem';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';
import { type Executor, rowsOf } from '../src/infra/db/client.ts';
import { bounties, payouts, walletIntents } from '../src/infra/db/schema.ts';
import * as bountiesRepo from '../src/modules/bounties/bounty-state.repo.ts';
import { buildTestApp, expectError, randomAddress, registerAgent } from './helpers/app.ts';
import { payoutApp } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { payoutLegsOf } from './helpers/payout-rows.ts';
import {
  approve,
  claim,
  expectOnePayout,
  getBounty,
  inReview,
  legacyTwoLegPayout,
  nextPrUrl,
  okJson,
  paidOn,
  reject,
  revertNextPayouts,
  type Scene,
  scene,
  submit,
  UNIT,
} from './helpers/review-flow.ts';

// Approval against the founder's review: the submission paid is the one still pending when its
// payout is signed, by the approval still holding the lease, and the funds checked are those the
// frozen payout will actually move.
const chain = new FakeChain();
const LEASE_MS = 120_000;
const amounts = { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT };

const ctx = payoutApp(chain, { APPROVAL_LEASE_SECONDS: String(LEASE_MS / 1000) });
afterEach(() => {
  chain.onReadFunds = null;
  chain.onSign = null;
  chain.revertNext = false;
  chain.revertNextTo = null;
});

/** What an approval hands the payout engine for the scene's pending submission. */
function intentFor(s: Scene, w: Awaited<ReturnType<typeof inReview>>) {
  return {
    submissionId: w.submission.id,
    bountyId: w.bounty.id,
    tokenAddress: s.tokenAddress,
    founderAddress: s.founder.walletAddress as string,
    contributorAddress: s.dev.walletAddress as string,
    split: ctx.app.services.payouts.split(w.bounty.reward_amount),
    reviewNotes: null,
  };
}

/** The bounty's approval lease as `owner` holds it, renewed the way ApprovalsService renews it. */
function leaseOf(bountyId: string, owner: string) {
  return {
    renew: (tx: Executor) => ctx.app.services.bountyState.renewApprovalLease(tx, bountyId, owner, LEASE_MS),
  };
}

async function payoutOf(submissionId: string) {
  const [row] = await ctx.database.db.select().from(payouts).where(eq(payouts.submissionId, submissionId));
  return row;
}

const signedOn = (token: string) => chain.signed.filter((t) => t.tokenAddress === token.toLowerCase());

describe('approval against a changing review', () => {
  it('refuses (409) when the submission it read before the lease was rejected and replaced meanwhile', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    const next = await registerAgent(ctx.app);
    const agents = ctx.app.services.agents;
    const checkWallet = agents.checkWallet.bind(agents);
    let raced = false;
    // Approve reads the pending submission with its author's wallet, checks that wallet, then
    // takes the lease. Between the two, the founder rejects it and another agent claims the
    // bounty and submits.
    const spy = vi.spyOn(agents, 'checkWallet').mockImplementation(async (address) => {
      if (!raced) {
        raced = true;
        okJson(await reject(ctx.app, s.founder, bounty.id, { review_notes: 'Not this one.' }));
        await claim(ctx.app, next, bounty.id);
        await submit(ctx.app, next, bounty.id, nextPrUrl(s.repoUrl));
      }
      return checkWallet(address);
    });
    try {
      expectError(await approve(ctx.app, s.founder, bounty.id), 409, 'invalid_state');
    } finally {
      spy.mockRestore();
    }
    expect(raced).toBe(true);
    // Refused under the lease, before any payout of the rejected submission was even recorded.
    expect(await payoutOf(submission.id)).toBeUndefined();
    expect(signedOn(s.tokenAddress)).toEqual([]);

    // The new submission is approved on its own and paid to its own submitter.
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(body.submission_id).not.toBe(submission.id);
    expectOnePayout(chain, s, next.walletAddress as string, amounts, body);
    expect(paidOn(chain, s.tokenAddress, s.dev.walletAddress).contributor).toEqual([]);
  });

  it('never signs for a submission rejected once the lease ran out: the signing transaction locks it', async () => {
    const s = await scene(ctx, chain);
    const w = await inReview(ctx.app, s);
    const { bounty, submission } = w;
    // An approval took the lease, then stalled past it before signing (the funds check and the
    // signing now run in one transaction, so the stall is before that transaction).
    const owner = 'stalled-approval';
    const lease = await bountiesRepo.takeLease(ctx.database.db, bounty.id, owner, LEASE_MS);
    expect(lease?.pendingSubmissionId).toBe(submission.id);
    // While the lease is live the founder cannot reject; once it ran out, the founder does.
    expectError(
      await reject(ctx.app, s.founder, bounty.id, { review_notes: 'Too early.' }),
      409,
      'operation_in_progress',
    );
    // It runs out by the database's clock (the one every instance shares).
    await ctx.database.db
      .update(bounties)
      .set({ approvalLeaseUntil: sql`now() - interval '1 second'` })
      .where(eq(bounties.id, bounty.id));
    okJson(await reject(ctx.app, s.founder, bounty.id, { review_notes: 'Changed my mind.' }));

    // The stalled approval goes on: its signing transaction locks the submission, finds it
    // reviewed, and records the payout failed without signing anything.
    const outcome = await ctx.app.services.payouts.payFresh(
      intentFor(s, w),
      leaseOf(bounty.id, owner),
      1_000,
    );
    expect(outcome.status).toBe('reviewed');
    expect(signedOn(s.tokenAddress)).toEqual([]);
    expect(paidOn(chain, s.tokenAddress)).toEqual({ contributor: [], fee: [] });
    expect(await payoutOf(submission.id)).toMatchObject({ status: 'failed' });
    expect(await payoutLegsOf(ctx.database.db, { submissionId: submission.id })).toEqual([]);
    const detail = await getBounty(ctx.app, bounty.id);
    expect(detail.status).toBe('open');
    expect(detail.submissions[0]).toMatchObject({ id: submission.id, status: 'rejected' });
    // Nothing is left for the reconciler either.
    await ctx.app.services.approvals.reconcile();
    expect(signedOn(s.tokenAddress)).toEqual([]);
  });

  it('an approval whose lease ran out and was taken by another records and signs nothing', async () => {
    const s = await scene(ctx, chain);
    const w = await inReview(ctx.app, s);
    const { bounty, submission } = w;
    // A stalled approval whose lease ran out (a second ago, by the database's clock); another
    // approval takes the bounty's lease (and is still at work).
    expect(await bountiesRepo.takeLease(ctx.database.db, bounty.id, 'stalled', -1000)).toBeDefined();
    expect(await bountiesRepo.takeLease(ctx.database.db, bounty.id, 'other', LEASE_MS)).toBeDefined();
    const outcome = await ctx.app.services.payouts.payFresh(
      intentFor(s, w),
      leaseOf(bounty.id, 'stalled'),
      1_000,
    );
    expect(outcome.status).toBe('lease_lost');
    expect(await payoutOf(submission.id)).toBeUndefined();
    expect(signedOn(s.tokenAddress)).toEqual([]);
    // The founder's approve meanwhile: another holds the lease.
    expectError(await approve(ctx.app, s.founder, bounty.id), 409, 'operation_in_progress');
    expect(signedOn(s.tokenAddress)).toEqual([]);
    // The stalled approval releasing its lease leaves the other's alone.
    await bountiesRepo.releaseLease(ctx.database.db, bounty.id, 'stalled');
    expectError(await approve(ctx.app, s.founder, bounty.id), 409, 'operation_in_progress');
    // Once the other's is released, the founder's approval pays, once.
    await bountiesRepo.releaseLease(ctx.database.db, bounty.id, 'other');
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(body.submission_id).toBe(submission.id);
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, body);
  });

  it('abandon takes the payout lock: it waits for a signing in progress and then leaves its legs alone', async () => {
    const s = await scene(ctx, chain);
    const { bounty, submission } = await inReview(ctx.app, s);
    const services = ctx.app.services;
    // The payout row as approve records it (approve finds this one and reuses it).
    const payout = await services.payouts.prepare({
      submissionId: submission.id,
      bountyId: bounty.id,
      tokenAddress: s.tokenAddress,
      founderAddress: s.founder.walletAddress as string,
      contributorAddress: s.dev.walletAddress as string,
      split: services.payouts.split(100),
      reviewNotes: null,
    });
    let abandoning: Promise<boolean> | null = null;
    // Inside the signing transaction (the payout row locked, no leg committed yet), a reconciler
    // decides to abandon the payout. On PostgreSQL the hook waits until abandon is blocked on a
    // row lock; PGlite runs one transaction at a time, so there abandon simply runs afterwards.
    chain.onSign = async () => {
      abandoning = services.payouts.abandon(payout.id, 'the submission is no longer pending');
      if (ctx.database.kind === 'postgres') await blockedOnALock();
    };
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    expect(abandoning).not.toBeNull();
    expect(await (abandoning as unknown as Promise<boolean>)).toBe(false);
    expect(await payoutOf(submission.id)).toMatchObject({ status: 'confirmed' });
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, body);
    // The one leg signed meanwhile is the payout's: abandon left it (and the payout) alone.
    const legs = await payoutLegsOf(ctx.database.db, { submissionId: submission.id });
    expect(legs.map((l) => l.payoutId)).toEqual([payout.id]);
    expect(legs.map((l) => [l.kind, l.status, l.txHash])).toEqual([
      ['payout', 'success', body.contributor_tx_hash],
    ]);
  });

  it("checks the wallet the frozen payout pays from, not the founder's current one", async () => {
    const s = await scene(ctx, chain, { funds: 100n });
    const { bounty, submission } = await inReview(ctx.app, s, { reward: 100 });
    const paying = s.founder.walletAddress as string;
    // The payout reverts, and nothing signs it again before the founder approves again: nothing moved.
    revertNextPayouts(chain, 1);
    expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
    expect(await payoutOf(submission.id)).toMatchObject({ status: 'failed', fromAddress: paying });
    expect(signedOn(s.tokenAddress)).toHaveLength(1);
    expect(paidOn(chain, s.tokenAddress)).toEqual({ contributor: [], fee: [] });
    // The whole reward (100) is owed from the wallet the payout recorded. The founder empties it
    // and moves to a new, well-funded wallet.
    chain.setFunds(s.tokenAddress, paying, 0n);
    const fresh = randomAddress();
    const moved = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/agents/me/wallet',
      headers: s.founder.headers,
      payload: { wallet_address: fresh },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    chain.setFunds(s.tokenAddress, fresh, 1_000n);
    const signedBefore = chain.signed.length;
    expectError(await approve(ctx.app, s.founder, bounty.id), 400, 'insufficient_funds');
    expect(chain.signed).toHaveLength(signedBefore);
    // One token short in the recorded wallet is still short.
    chain.setFunds(s.tokenAddress, paying, 99n);
    expectError(await approve(ctx.app, s.founder, bounty.id), 400, 'insufficient_funds');
    expect(chain.signed).toHaveLength(signedBefore);

    chain.setFunds(s.tokenAddress, paying, 100n);
    const body = okJson(await approve(ctx.app, s.founder, bounty.id));
    // The retry signed one new payout, from the recorded wallet.
    expect(chain.signed).toHaveLength(signedBefore + 1);
    expectOnePayout(
      chain,
      { ...s, founder: { ...s.founder, walletAddress: paying } },
      s.dev.walletAddress as string,
      amounts,
      body,
    );
    expect(await chain.readFunds(s.tokenAddress, paying)).toEqual({ balanceUnits: 0n, allowanceUnits: 0n });
    expect((await chain.readFunds(s.tokenAddress, fresh)).balanceUnits).toBe(1_000n * UNIT);
  });

  it('signs the frozen split, not the fee split of the instance that retries', async () => {
    const s = await scene(ctx, chain, { funds: 100n });
    const { bounty, submission } = await inReview(ctx.app, s, { reward: 100 });
    revertNextPayouts(chain, 1);
    expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
    expect(signedOn(s.tokenAddress)).toHaveLength(1);
    // 95 + 5 were recorded (500 bps when approved); an instance now charging 100 bps retries.
    expect(await payoutOf(submission.id)).toMatchObject({
      status: 'failed',
      contributorUnits: 95n * UNIT,
      feeUnits: 5n * UNIT,
    });
    const cheaper = await buildTestApp({
      chain,
      database: ctx.database,
      clock: ctx.clock,
      env: { PLATFORM_FEE_BPS: '100', PAYOUT_RECEIPT_TIMEOUT_SECONDS: '1', CHAIN_POLLING_INTERVAL_MS: '10' },
    });
    try {
      chain.setFunds(s.tokenAddress, s.founder.walletAddress as string, 99n);
      const signedBefore = chain.signed.length;
      expectError(await approve(cheaper.app, s.founder, bounty.id), 400, 'insufficient_funds');
      expect(chain.signed).toHaveLength(signedBefore);

      chain.setFunds(s.tokenAddress, s.founder.walletAddress as string, 100n);
      const body = okJson(await approve(cheaper.app, s.founder, bounty.id));
      expect(chain.signed).toHaveLength(signedBefore + 1);
      // 95 to the contributor and 5 to the treasury, not the retrying instance's 99 + 1.
      expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, body);
    } finally {
      await cheaper.close();
    }
  });

  it('an old two-leg payout: checks only the frozen fee still owed, not the fee split of the instance that retries', async () => {
    const s = await scene(ctx, chain, { funds: 100n });
    const w = await inReview(ctx.app, s, { reward: 100 });
    const { bounty, submission } = w;
    // Signed before the router: the contributor transferFrom mines, the fee transferFrom reverts.
    await legacyTwoLegPayout(ctx, chain, s, w);
    chain.revertNextTo = chain.info.treasuryAddress;
    expectError(await approve(ctx.app, s.founder, bounty.id), 502, 'upstream_error');
    expect(paidOn(chain, s.tokenAddress).contributor.map((t) => t.amountUnits)).toEqual([95n * UNIT]);
    expect(paidOn(chain, s.tokenAddress).fee).toEqual([]);
    // 5 tokens of fee are owed (500 bps when approved); an instance now charging 100 bps retries.
    const cheaper = await buildTestApp({
      chain,
      database: ctx.database,
      clock: ctx.clock,
      env: { PLATFORM_FEE_BPS: '100', PAYOUT_RECEIPT_TIMEOUT_SECONDS: '1', CHAIN_POLLING_INTERVAL_MS: '10' },
    });
    try {
      chain.setFunds(s.tokenAddress, s.founder.walletAddress as string, 3n);
      const signedBefore = chain.signed.length;
      expectError(await approve(cheaper.app, s.founder, bounty.id), 400, 'insufficient_funds');
      expect(chain.signed).toHaveLength(signedBefore);

      chain.setFunds(s.tokenAddress, s.founder.walletAddress as string, 5n);
      const body = okJson(await approve(cheaper.app, s.founder, bounty.id));
      const paid = paidOn(chain, s.tokenAddress);
      expect(paid.contributor.map((t) => [t.to, t.amountUnits, t.hash])).toEqual([
        [(s.dev.walletAddress as string).toLowerCase(), 95n * UNIT, body.contributor_tx_hash],
      ]);
      expect(paid.fee.map((t) => [t.amountUnits, t.hash])).toEqual([[5n * UNIT, body.platform_fee_tx_hash]]);
      expect(body.platform_fee_tx_hash).not.toBe(body.contributor_tx_hash);
      // The old payout is continued its own way: one new fee transferFrom, no router payout.
      expect(chain.signed.slice(signedBefore).map((t) => [t.to, t.amountUnits, t.feeUnits])).toEqual([
        [chain.info.treasuryAddress.toLowerCase(), 5n * UNIT, undefined],
      ]);
      expect(signedOn(s.tokenAddress).filter((t) => t.feeUnits !== undefined)).toEqual([]);
      const legs = (await payoutLegsOf(ctx.database.db, { submissionId: submission.id })).sort(
        (x, y) => x.nonce - y.nonce,
      );
      // What each leg's transferFrom(from, to, amount) moves, read from its intent's call.
      const calls = await ctx.database.db
        .select()
        .from(walletIntents)
        .where(
          inArray(
            walletIntents.id,
            legs.map((l) => l.id),
          ),
        );
      const amountOf = (id: string) =>
        decodeFunctionData({ abi: projectTokenAbi, data: calls.find((c) => c.id === id)?.data as Hex })
          .args?.[2];
      expect(legs.map((l) => [l.kind, l.status, amountOf(l.id)])).toEqual([
        ['contributor', 'success', 95n * UNIT],
        ['fee', 'reverted', 5n * UNIT],
        ['fee', 'success', 5n * UNIT],
      ]);
      expect(await chain.readFunds(s.tokenAddress, s.founder.walletAddress as string)).toEqual({
        balanceUnits: 0n,
        allowanceUnits: 0n,
      });
    } finally {
      await cheaper.close();
    }
  });
});

/** Waits until some session of this database waits on a row lock (PostgreSQL only). */
async function blockedOnALock(): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const rows = rowsOf<{ n: number }>(
      await ctx.database.db.execute(
        sql`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
      ),
    );
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('abandon never waited on a lock');
}
