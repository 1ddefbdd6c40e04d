import { asc, eq, inArray, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { accountNonces, bounties, payouts } from '../src/infra/db/schema.ts';
import { buildTestApp, expectError, registerAgent, type TestContext } from './helpers/app.ts';
import { paidBounty } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { attemptsOfLegs, payoutLegsOf } from './helpers/payout-rows.ts';
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
    // A held receipt is given up after 0.2 s instead of a whole second: these tests hold many.
    tune: (config) => {
      config.payouts.receiptTimeoutSeconds = 0.2;
    },
    ...(share ? { database: share.database, clock: share.clock } : {}),
  });
  open.push(ctx);
  return ctx;
}
afterEach(async () => {
  for (const ctx of open.splice(0).reverse()) await ctx.close();
});

async function legsOf(ctx: TestContext, submissionId: string) {
  const legs = await payoutLegsOf(ctx.database.db, { submissionId });
  const attempts = await attemptsOfLegs(
    ctx.database.db,
    legs.map((l) => l.id),
    true,
  );
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
    expect(before.map((l) => [l.kind, l.status, l.signer, l.attempts.length])).toEqual([
      ['payout', 'sent', chain.payoutSigner.address.toLowerCase(), 1],
    ]);

    // Stuck as far as anyone can tell: the other key's reconciler leaves them alone.
    a.clock.advance(STUCK_AFTER_MS + 1000);
    await b.app.services.approvals.reconcile();
    expect(chain.signed.filter((t) => t.signer === otherKey.toLowerCase())).toEqual([]);
    expect((await legsOf(a, w.submission.id)).map((l) => l.attempts.length)).toEqual([1]);

    // A third instance with the other key refuses to start while they are in flight.
    await expect(
      buildTestApp({ chain: chain.withPayoutKey(otherKey), database: a.database, env: FAST }),
    ).rejects.toThrow(/another payout key are still in flight.*0x00000000000000000000000000000000000000a1/s);

    chain.holdReceipts = false;
    expect(await a.app.services.approvals.reconcile()).toBe(1);
    // The one router transaction the first key signed paid both.
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, {
      contributor_tx_hash: before[0]?.attempts[0]?.txHash as string,
      platform_fee_tx_hash: before[0]?.attempts[0]?.txHash as string,
    });
    expect(chain.signed.filter((t) => !t.filler).map((t) => t.signer)).toEqual([
      chain.payoutSigner.address.toLowerCase(),
    ]);
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
    // The reverted receipt is at the head (0 blocks deep): a reorg could still mine the payout.
    const legs = await legsOf(ctx, w.submission.id);
    expect(legs.map((l) => [l.kind, l.status])).toEqual([['payout', 'sent']]);
    const reverted = chain.transfers.filter((t) => t.hash === legs[0]?.attempts[0]?.txHash);
    expect(reverted.map((t) => t.status)).toEqual(['reverted', 'reverted']);
    expect(chain.headBlock).toBe(reverted[0]?.blockNumber);
    expect((await payoutOf(ctx, w.submission.id))?.status).toBe('pending');
    const signedBefore = chain.signed.length;
    expectError(await approve(ctx.app, s.founder, w.bounty.id), 502, 'upstream_error');
    expect(await ctx.app.services.approvals.reconcile()).toBe(0);
    expect(chain.signed).toHaveLength(signedBefore);
    // Two blocks deep: still not enough.
    chain.mineEmpty(2);
    expect(await ctx.app.services.approvals.reconcile()).toBe(0);
    expectError(await approve(ctx.app, s.founder, w.bounty.id), 502, 'upstream_error');
    expect(chain.signed).toHaveLength(signedBefore);
    expect((await legsOf(ctx, w.submission.id)).map((l) => l.status)).toEqual(['sent']);
    expect(paidOn(chain, s.tokenAddress)).toEqual({ contributor: [], fee: [] });

    // Three blocks deep the revert counts: the leg is recorded reverted and one new payout, at a
    // fresh nonce, pays once.
    chain.mineEmpty(1);
    const body = okJson(await approve(ctx.app, s.founder, w.bounty.id));
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, body);
    const after = await legsOf(ctx, w.submission.id);
    expect(after.map((l) => [l.kind, l.status, l.txHash])).toEqual([
      ['payout', 'reverted', legs[0]?.attempts[0]?.txHash],
      ['payout', 'success', body.contributor_tx_hash],
    ]);
    expect(after[1]?.nonce).toBeGreaterThan(after[0]?.nonce as number);
    expect(chain.signed).toHaveLength(signedBefore + 1);
    expect((await payoutOf(ctx, w.submission.id))?.status).toBe('confirmed');
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
    expect(signed.map((l) => [l.kind, l.status])).toEqual([['payout', 'signed']]);
    // The base fee rises above the stored transaction's cap before it ever reaches the node.
    chain.baseFeePerGas = 10n * GWEI;
    expect(await ctx.app.services.approvals.reconcile()).toBe(1);
    const legs = await legsOf(ctx, w.submission.id);
    expect(legs).toHaveLength(1);
    for (const [i, leg] of legs.entries()) {
      expect(leg.nonce).toBe(signed[i]?.nonce);
      expect(leg.attempts).toHaveLength(2);
      expect(leg.attempts[1]?.maxFeePerGas).toBeGreaterThanOrEqual(10n * GWEI);
      expect(leg.txHash).toBe(leg.attempts[1]?.txHash);
    }
    // The replacement is the one transaction that paid both.
    expectOnePayout(chain, s, s.dev.walletAddress as string, amounts, {
      contributor_tx_hash: legs[0]?.attempts[1]?.txHash as string,
      platform_fee_tx_hash: legs[0]?.attempts[1]?.txHash as string,
    });
  });

  it('never signs a replacement above PAYOUT_MAX_FEE_PER_GAS_GWEI', async () => {
    const chain = new FakeChain();
    const ctx = await appOn(chain, { PAYOUT_MAX_FEE_PER_GAS_GWEI: '3' });
    // A payout of another project signed at the key's next nonce and never sent (its broadcast
    // failed; another instance holds its bounty, so no reconciler pass sends it): the payout
    // signed after it waits in the node's pool behind that gap, stuck.
    const other = await scene(ctx, chain);
    const ahead = await inReview(ctx.app, other);
    chain.failNextBroadcast = new Error('socket hang up');
    expectError(await approve(ctx.app, other.founder, ahead.bounty.id), 502, 'upstream_error');
    await ctx.database.db
      .update(bounties)
      .set({ approvalLeaseUntil: sql`now() + interval '1 day'` })
      .where(eq(bounties.id, ahead.bounty.id));
    const [gap] = await legsOf(ctx, ahead.submission.id);
    const s = await scene(ctx, chain);
    const w = await inReview(ctx.app, s);
    expectError(await approve(ctx.app, s.founder, w.bounty.id), 502, 'upstream_error');
    for (let round = 0; round < 6; round++) {
      ctx.clock.advance(STUCK_AFTER_MS + 1000);
      await ctx.app.services.approvals.reconcile();
    }
    // 2 gwei, then +12.5% three times (2.25, 2.53, 2.85); a fourth raise would pass 3 gwei.
    const legs = await legsOf(ctx, w.submission.id);
    expect(legs.map((l) => [l.kind, l.nonce, l.attempts.length])).toEqual([
      ['payout', (gap?.nonce ?? 0) + 1, 4],
    ]);
    for (const a of legs.flatMap((l) => l.attempts)) {
      expect(a.maxFeePerGas).toBeLessThanOrEqual(3n * GWEI);
      expect(a.maxPriorityFeePerGas).toBeLessThanOrEqual(a.maxFeePerGas);
    }
    // The gap fills (the payout ahead sent by hand): the newest replacement mines, and pays once.
    await chain.wallets.broadcast(gap?.attempts[0]?.rawTx as string);
    expect(await ctx.app.services.approvals.reconcile()).toBe(1);
    const paid = expectOnePayout(chain, s, s.dev.walletAddress as string, amounts);
    expect(legs[0]?.attempts.map((a) => a.txHash)).toContain(paid.contributor.hash);
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
      .set({ approvalLeaseUntil: sql`now() + interval '1 day'` })
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
    const paid = paidOn(chain, s.tokenAddress);
    expect(paidOn(chain, s.tokenAddress, dev.walletAddress).contributor).toHaveLength(1);
    expect(paid.contributor.map((t) => t.amountUnits)).toEqual([95n * UNIT, 95n * UNIT]);
    // Two payouts, each one router transaction carrying its contributor's transfer and its fee.
    expect(paid.fee.map((t) => t.amountUnits)).toEqual([5n * UNIT, 5n * UNIT]);
    expect(paid.fee.map((t) => t.hash)).toEqual(paid.contributor.map((t) => t.hash));
    expect(new Set(paid.fee.map((t) => t.hash)).size).toBe(2);
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
    const { approval: paidB, ...b } = await paidBounty(ctx, s, { dev: devB });
    // One transaction per payout: a's reverted one, a's paid one, b's.
    expect(chain.ledgerNonce).toBe(3);
    const revertedA = (await legsOf(ctx, a.submission.id)).find((l) => l.status === 'reverted');
    expect(revertedA?.nonce).toBe(0);

    // The chain restarts from an older state: all three transactions are gone.
    rollback();
    expect(chain.ledgerNonce).toBe(0);
    expect(chain.transfers).toEqual([]);

    // The engine's pass puts the lost nonces back; its next pass (it follows what it sent after a
    // second) settles what was sent again; the reconciler finds nothing left to sign.
    await ctx.app.services.txEngine.run();
    ctx.clock.advance(2_000);
    await ctx.app.services.txEngine.run();
    await ctx.app.services.approvals.reconcile();
    expect(chain.ledgerNonce).toBe(3);
    const [counter] = await ctx.database.db
      .select()
      .from(accountNonces)
      .where(eq(accountNonces.address, chain.payoutSigner.address.toLowerCase()));
    expect(counter?.nextNonce).toBe(3);
    // Nonce 0 held a's reverted payout: it is filled by a transaction that moves nothing, since
    // its bytes could now succeed beside the payout that paid a.
    expect(chain.signed.filter((t) => t.filler).map((t) => t.nonce)).toEqual([0]);
    expect(chain.transfers.some((t) => t.hash === revertedA?.txHash)).toBe(false);
    // Each router transaction shows as its two transfers, at its one nonce.
    expect(chain.transfers.map((t) => t.nonce)).toEqual([1, 1, 2, 2]);
    expect(chain.transfers.every((t) => t.status === 'success')).toBe(true);
    expect(paidOn(chain, s.tokenAddress, s.dev.walletAddress).contributor.map((t) => t.hash)).toEqual([
      paidA.contributor_tx_hash,
    ]);
    expect(paidOn(chain, s.tokenAddress, devB.walletAddress).contributor.map((t) => t.hash)).toEqual([
      paidB.contributor_tx_hash,
    ]);
    expect(
      paidOn(chain, s.tokenAddress)
        .fee.map((t) => [t.hash, t.amountUnits])
        .sort(),
    ).toEqual(
      [
        [paidA.platform_fee_tx_hash, 5n * UNIT],
        [paidB.platform_fee_tx_hash, 5n * UNIT],
      ].sort(),
    );
    expect(paidA.platform_fee_tx_hash).toBe(paidA.contributor_tx_hash);
    expect(paidB.platform_fee_tx_hash).toBe(paidB.contributor_tx_hash);
    for (const w of [a, b]) {
      const legs = await legsOf(ctx, w.submission.id);
      expect(legs.filter((l) => l.status !== 'dropped').map((l) => [l.kind, l.status])).toEqual([
        ['payout', 'success'],
      ]);
    }
    // a's reverted transaction left the chain and the no-op took its nonce: it moved nothing, ever.
    expect((await legsOf(ctx, a.submission.id)).map((l) => [l.nonce, l.status])).toEqual([
      [0, 'dropped'],
      [1, 'success'],
    ]);

    // The nonce counter matches the chain again: the next approval pays at once.
    const devC = await registerAgent(ctx.app);
    const { approval: paidC } = await paidBounty(ctx, s, { dev: devC });
    expect(paidOn(chain, s.tokenAddress, devC.walletAddress).contributor.map((t) => t.hash)).toEqual([
      paidC.contributor_tx_hash,
    ]);
  });
});
