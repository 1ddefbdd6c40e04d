import { asc, eq, inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { bounties, legAttempts, payoutLegs, payouts, signerNonces } from '../src/infra/db/schema.ts';
import { buildTestApp, expectError, registerAgent, type TestContext } from './helpers/app.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import {
  approve,
  expectOnePayout,
  getBounty,
  inReview,
  okJson,
  paidOn,
  type Scene,
  scene,
  UNIT,
} from './helpers/review-flow.ts';

// Liveness and safety of the payout driver on the in-memory chain: other payout keys, revert
// depth, refused fees, the fee cap, the reconciler's batches, the operator's kill switch, and a
// chain that lost transactions under the ledger.
const GWEI = 10n ** 9n;
const STUCK_AFTER_MS = 60_000;
const amounts = { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT };
const FAST = { PAYOUT_RECEIPT_TIMEOUT_SECONDS: '1', CHAIN_POLLING_INTERVAL_MS: '10' };
const open: TestContext[] = [];

async function appOn(chain: FakeChain, env: Record<string, string> = {}, share?: TestContext) {
  const ctx = await buildTestApp({
    chain,
    env: { ...FAST, PAYOUT_STUCK_AFTER_SECONDS: String(STUCK_AFTER_MS / 1000), ...env },
    ...(share ? { database: share.database, clock: share.clock } : {}),
  });
  open.push(ctx);
  return ctx;
}
afterEach(async () => {
  for (const ctx of open.splice(0).reverse()) await ctx.close();
});

async function legsOf(ctx: TestContext, submissionId: string) {
  const db = ctx.database.db;
  const legs = (
    await db
      .select({ leg: payoutLegs })
      .from(payoutLegs)
      .innerJoin(payouts, eq(payouts.id, payoutLegs.payoutId))
      .where(eq(payouts.submissionId, submissionId))
      .orderBy(asc(payoutLegs.nonce))
  ).map((r) => r.leg);
  const attempts = legs.length
    ? await db
        .select()
        .from(legAttempts)
        .where(
          inArray(
            legAttempts.legId,
            legs.map((l) => l.id),
          ),
        )
        .orderBy(asc(legAttempts.createdAt), asc(legAttempts.maxFeePerGas))
    : [];
  return legs.map((l) => ({ ...l, attempts: attempts.filter((a) => a.legId === l.id) }));
}

async function payoutOf(ctx: TestContext, submissionId: string) {
  const [row] = await ctx.database.db.select().from(payouts).where(eq(payouts.submissionId, submissionId));
  return row;
}

/** The payout row an approval records, made directly: as if the approval died before signing. */
function prepare(ctx: TestContext, s: Scene, w: Awaited<ReturnType<typeof inReview>>, dev: string) {
  return ctx.app.services.payouts.prepare({
    submissionId: w.submission.id,
    bountyId: w.bounty.id,
    tokenAddress: s.tokenAddress,
    founderAddress: s.founder.walletAddress as string,
    contributorAddress: dev,
    split: ctx.app.services.payouts.split(w.bounty.reward_amount),
    reviewNotes: null,
  });
}

describe('payout keys', () => {
  it('never replaces a leg signed by another payout key, and refuses to start beside one in flight', async () => {
    const chain = new FakeChain();
    const a = await appOn(chain);
    const otherKey = '0x00000000000000000000000000000000000000A2';
    // A second instance on the same database signs with another key (it started while nothing was in flight).
    const b = await appOn(chain.withPayoutKey(otherKey), {}, a);
    const s = await scene(a, chain);
    const w = await inReview(a.app, s);
    chain.holdReceipts = true;
    expectError(await approve(a.app, s.founder, w.bounty.id), 502, 'upstream_error');
    const before = await legsOf(a, w.submission.id);
    expect(before.map((l) => [l.status, l.signer, l.attempts.length])).toEqual([
      ['sent', chain.payoutSigner.address, 1],
      ['sent', chain.payoutSigner.address, 1],
    ]);

    // Stuck as far as anyone can tell: the other key's reconciler leaves them alone.
    a.clock.advance(STUCK_AFTER_MS + 1000);
    await b.app.services.approvals.reconcile();
    expect(chain.signed.filter((t) => t.signer === otherKey.toLowerCase())).toEqual([]);
    expect((await legsOf(a, w.submission.id)).map((l) => l.attempts.length)).toEqual([1, 1]);

    // A third instance with the other key refuses to start while they are in flight.
    await expect(
      buildTestApp({ chain: chain.withPayoutKey(otherKey), database: a.database, env: FAST }),
    ).rejects.toThrow(/another payout key are still in flight.*0x00000000000000000000000000000000000000A1/s);

    chain.holdReceipts = false;
    expect(await a.app.services.approvals.reconcile()).toBe(1);
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, {
      contributor_tx_hash: before[0]?.attempts[0]?.txHash as string,
      platform_fee_tx_hash: before[1]?.attempts[0]?.txHash as string,
    });
    // Settled: the other key may start now.
    const c = await buildTestApp({ chain: chain.withPayoutKey(otherKey), database: a.database, env: FAST });
    await c.close();
  });
});

describe('reverts', () => {
  it('acts on a revert only PAYOUT_REVERT_CONFIRMATIONS blocks deep', async () => {
    const chain = new FakeChain();
    const ctx = await appOn(chain, { PAYOUT_REVERT_CONFIRMATIONS: '3' });
    const s = await scene(ctx, chain);
    const w = await inReview(ctx.app, s);
    chain.revertNextTo = s.dev.walletAddress;
    const first = expectError(await approve(ctx.app, s.founder, w.bounty.id), 502, 'upstream_error');
    expect(first.message).toContain('not confirmed in time');
    // The reverted receipt is one block deep: a reorg could still mine the transfer.
    const legs = await legsOf(ctx, w.submission.id);
    expect(legs.map((l) => [l.kind, l.status])).toEqual([
      ['contributor', 'sent'],
      ['fee', 'success'],
    ]);
    expect((await payoutOf(ctx, w.submission.id))?.status).toBe('pending');
    const signedBefore = chain.signed.length;
    expectError(await approve(ctx.app, s.founder, w.bounty.id), 502, 'upstream_error');
    expect(await ctx.app.services.approvals.reconcile()).toBe(0);
    expect(chain.signed).toHaveLength(signedBefore);

    chain.mineEmpty(2);
    await ctx.app.services.approvals.reconcile();
    expect((await legsOf(ctx, w.submission.id)).map((l) => l.status)).toEqual(['reverted', 'success']);
    expect((await payoutOf(ctx, w.submission.id))?.status).toBe('failed');
    const body = okJson(await approve(ctx.app, s.founder, w.bounty.id));
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, body);
  });
});

describe('fees', () => {
  it('replaces a leg whose stored fee cap the node refuses (below the base fee) at the same nonce', async () => {
    const chain = new FakeChain();
    const ctx = await appOn(chain);
    const s = await scene(ctx, chain);
    const w = await inReview(ctx.app, s);
    chain.failNextBroadcast = new Error('socket hang up');
    expectError(await approve(ctx.app, s.founder, w.bounty.id), 502, 'upstream_error');
    const signed = await legsOf(ctx, w.submission.id);
    expect(signed.map((l) => l.status)).toEqual(['signed', 'signed']);
    // The base fee rises above the stored transactions' cap before they ever reach the node.
    chain.baseFeePerGas = 10n * GWEI;
    expect(await ctx.app.services.approvals.reconcile()).toBe(1);
    const legs = await legsOf(ctx, w.submission.id);
    for (const [i, leg] of legs.entries()) {
      expect(leg.nonce).toBe(signed[i]?.nonce);
      expect(leg.attempts).toHaveLength(2);
      expect(leg.attempts[1]?.maxFeePerGas).toBeGreaterThanOrEqual(10n * GWEI);
      expect(leg.txHash).toBe(leg.attempts[1]?.txHash);
    }
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts);
  });

  it('never signs a replacement above PAYOUT_MAX_FEE_PER_GAS_GWEI', async () => {
    const chain = new FakeChain();
    const ctx = await appOn(chain, { PAYOUT_MAX_FEE_PER_GAS_GWEI: '3' });
    const s = await scene(ctx, chain);
    const w = await inReview(ctx.app, s);
    chain.holdReceipts = true;
    expectError(await approve(ctx.app, s.founder, w.bounty.id), 502, 'upstream_error');
    for (let round = 0; round < 6; round++) {
      ctx.clock.advance(STUCK_AFTER_MS + 1000);
      await ctx.app.services.approvals.reconcile();
    }
    // 2 gwei, then +12.5% three times (2.25, 2.53, 2.85); a fourth raise would pass 3 gwei.
    const legs = await legsOf(ctx, w.submission.id);
    expect(legs.map((l) => l.attempts.length)).toEqual([4, 4]);
    for (const a of legs.flatMap((l) => l.attempts)) {
      expect(a.maxFeePerGas).toBeLessThanOrEqual(3n * GWEI);
      expect(a.maxPriorityFeePerGas).toBeLessThanOrEqual(a.maxFeePerGas);
    }
    chain.holdReceipts = false;
    expect(await ctx.app.services.approvals.reconcile()).toBe(1);
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts);
  });
});

describe('the reconciler', () => {
  it('rotates its batches: payouts that keep failing at the head never starve the rest', async () => {
    const chain = new FakeChain();
    const ctx = await appOn(chain);
    const s = await scene(ctx, chain);
    const held: string[] = [];
    for (let i = 0; i < 2; i++) {
      const dev = await registerAgent(ctx.app);
      const w = await inReview(ctx.app, s, { dev });
      await prepare(ctx, s, w, dev.walletAddress as string);
      held.push(w.bounty.id);
    }
    // Another instance holds these two bounties for good: every pass skips them.
    await ctx.database.db
      .update(bounties)
      .set({ approvalLeaseUntil: new Date(ctx.clock.now().getTime() + 86_400_000) })
      .where(inArray(bounties.id, held));
    const w = await inReview(ctx.app, s);
    chain.failNextBroadcast = new Error('socket hang up');
    expectError(await approve(ctx.app, s.founder, w.bounty.id), 502, 'upstream_error');
    const pending = await ctx.database.db
      .select({ id: payouts.id, bountyId: payouts.bountyId })
      .from(payouts)
      .where(eq(payouts.status, 'pending'))
      .orderBy(asc(payouts.id));
    expect(pending.map((p) => p.bountyId)).toEqual([...held, w.bounty.id]);

    let finished = 0;
    for (let pass = 0; pass < 3; pass++) finished += await ctx.app.services.approvals.reconcile(2);
    expect(finished).toBe(1);
    expect((await getBounty(ctx.app, w.bounty.id)).status).toBe('done');
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts);
  });

  it('signs no new leg while PAYOUTS_ENABLED=false, but still sends and settles signed ones', async () => {
    const chain = new FakeChain();
    const on = await appOn(chain);
    const s = await scene(on, chain);
    const dev = await registerAgent(on.app);
    const unsigned = await inReview(on.app, s, { dev });
    await prepare(on, s, unsigned, dev.walletAddress as string);
    const signed = await inReview(on.app, s);
    chain.failNextBroadcast = new Error('socket hang up');
    expectError(await approve(on.app, s.founder, signed.bounty.id), 502, 'upstream_error');
    const signedBefore = chain.signed.length;

    const off = await appOn(chain, { PAYOUTS_ENABLED: 'false' }, on);
    expect(await off.app.services.approvals.reconcile()).toBe(1);
    expect(chain.signed).toHaveLength(signedBefore);
    expect((await getBounty(on.app, signed.bounty.id)).status).toBe('done');
    expect(await legsOf(on, unsigned.submission.id)).toEqual([]);
    expect(paidOn(chain, s.tokenAddress, dev.walletAddress).contributor).toEqual([]);
    expect((await payoutOf(on, unsigned.submission.id))?.status).toBe('pending');

    expect(await on.app.services.approvals.reconcile()).toBe(1);
    expect(paidOn(chain, s.tokenAddress, dev.walletAddress).contributor).toHaveLength(1);
    expect(paidOn(chain, s.tokenAddress).fee).toHaveLength(2);
  });
});

describe('a chain that lost transactions', () => {
  it('puts every lost nonce back in order, fills a lost reverted one with a no-op, and pays once', async () => {
    const chain = new FakeChain();
    const ctx = await appOn(chain);
    const s = await scene(ctx, chain);
    const rollback = chain.snapshot();
    const a = await inReview(ctx.app, s);
    chain.revertNextTo = s.dev.walletAddress;
    expectError(await approve(ctx.app, s.founder, a.bounty.id), 502, 'upstream_error');
    const paidA = okJson(await approve(ctx.app, s.founder, a.bounty.id));
    const devB = await registerAgent(ctx.app);
    const b = await inReview(ctx.app, s, { dev: devB });
    const paidB = okJson(await approve(ctx.app, s.founder, b.bounty.id));
    expect(chain.ledgerNonce).toBe(5);

    // The chain restarts from an older state: all five transactions are gone.
    rollback();
    expect(chain.ledgerNonce).toBe(0);
    expect(chain.transfers).toEqual([]);

    await ctx.app.services.approvals.reconcile();
    expect(chain.ledgerNonce).toBe(5);
    const [counter] = await ctx.database.db.select().from(signerNonces);
    expect(counter?.nextNonce).toBe(5);
    // Nonce 0 held the reverted contributor transfer: it is filled by a transfer that moves
    // nothing, since its bytes could now succeed beside the contributor leg that paid.
    expect(chain.signed.filter((t) => t.filler).map((t) => t.nonce)).toEqual([0]);
    expect(chain.transfers.map((t) => t.nonce)).toEqual([1, 2, 3, 4]);
    expect(paidOn(chain, s.tokenAddress, s.dev.walletAddress).contributor.map((t) => t.hash)).toEqual([
      paidA.contributor_tx_hash,
    ]);
    expect(paidOn(chain, s.tokenAddress, devB.walletAddress).contributor.map((t) => t.hash)).toEqual([
      paidB.contributor_tx_hash,
    ]);
    expect(
      paidOn(chain, s.tokenAddress)
        .fee.map((t) => t.hash)
        .sort(),
    ).toEqual([paidA.platform_fee_tx_hash, paidB.platform_fee_tx_hash].sort());
    for (const w of [a, b]) {
      const legs = await legsOf(ctx, w.submission.id);
      expect(legs.filter((l) => l.status !== 'reverted').map((l) => l.status)).toEqual([
        'success',
        'success',
      ]);
    }

    // The nonce counter matches the chain again: the next approval pays at once.
    const devC = await registerAgent(ctx.app);
    const c = await inReview(ctx.app, s, { dev: devC });
    const paidC = okJson(await approve(ctx.app, s.founder, c.bounty.id));
    expect(paidOn(chain, s.tokenAddress, devC.walletAddress).contributor.map((t) => t.hash)).toEqual([
      paidC.contributor_tx_hash,
    ]);
  });
});
