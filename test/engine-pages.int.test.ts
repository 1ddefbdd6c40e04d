import { eq } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { walletIntents, walletTxs } from '../src/infra/db/schema.ts';
import { confirmedWithLostKind } from '../src/modules/payouts/payouts.repo.ts';
import { staleOrphans } from '../src/modules/transactions/engine-pages.repo.ts';
import type { EngineReorgs } from '../src/modules/transactions/engine-reorg.ts';
import { paidBounty, payoutApp } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { payoutRequestOf, requestLike } from './helpers/payout-rows.ts';
import { scene } from './helpers/review-flow.ts';

/**
 * Each pass compares the nonces of at most a page of recently active signers with the chain's (a
 * reorg deeper than PAYOUT_CONFIRMATIONS can take their transactions back). With more active
 * signers than a page, the pages go round: every signer is compared within a few passes. Before,
 * one unordered page was read on every pass, the same signers each time, and a signer outside it
 * whose recorded nonces ran ahead of the chain waited until it sent something again.
 */
describe("the engine's recent signers", () => {
  const chain = new FakeChain();
  const ctx = payoutApp(chain);

  it('come a page a pass, every one of them within a round', async () => {
    const s = await scene(ctx, chain);
    const { bounty } = await paidBounty(ctx, s);
    const { db } = ctx.database;
    const { request: paid } = await payoutRequestOf(db, bounty.id);

    // Six more signers, each with a request settled (failed) a minute ago.
    const now = ctx.clock.now();
    const others = Array.from({ length: 6 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, 'a')}`);
    for (const signer of others)
      await db.insert(walletIntents).values(requestLike(paid, now, { signer, status: 'failed' }));
    const active = new Set([...others, paid.signer]);
    expect(active.size).toBe(7);

    const reorgs = (ctx.app.services.txEngine as unknown as { reorgs: EngineReorgs }).reorgs;
    const since = new Date(now.getTime() - 15 * 60_000);
    // Pages of 3 over 7 signers: the first three, the next three, the last and the first two again.
    const sorted = [...active].sort();
    const pages: string[][] = [];
    for (let pass = 0; pass < 4; pass++) pages.push(await reorgs.recentSigners(since, 3));
    expect(pages).toEqual([
      sorted.slice(0, 3),
      sorted.slice(3, 6),
      [sorted[6], sorted[0], sorted[1]],
      sorted.slice(2, 5),
    ]);

    // A signer whose requests are older than the window is not among them.
    const old = new Date(since.getTime() - 1);
    await db
      .update(walletIntents)
      .set({ updatedAt: old })
      .where(eq(walletIntents.signer, others[0] as string));
    expect(await reorgs.recentSigners(since, 50)).not.toContain(others[0]);
  });
});

/**
 * The pending requests a pass follows are a page too, in signer and nonce order. A signer with a
 * page of requests that wait (a payout key without ETH, or here requests the node never saw) held
 * every signer after it back: their requests, mined, stayed pending. The pages now go round the
 * signers, so the others' are followed on the next pass.
 */
describe("the engine's pending requests", () => {
  const chain = new FakeChain();
  const ctx = payoutApp(chain);

  it('of a signer behind a page of waiting ones are followed within a pass or two', async () => {
    const s = await scene(ctx, chain);
    const { bounty } = await paidBounty(ctx, s);
    const { db } = ctx.database;
    const { request: paid } = await payoutRequestOf(db, bounty.id);
    if (!paid.txHash) throw new Error('the paid bounty has no mined payout request');

    // Its receipt not yet read: the payout request pending again, its attempt sent.
    const now = ctx.clock.now();
    await db
      .update(walletIntents)
      .set({ status: 'pending', result: null, told: null, updatedAt: now })
      .where(eq(walletIntents.id, paid.id));
    await db
      .update(walletTxs)
      .set({ status: 'sent', blockNumber: null, updatedAt: now })
      .where(eq(walletTxs.hash, paid.txHash));
    // A signer first in address order with a page of requests the node never saw: they wait.
    const waiting = '0x0000000000000000000000000000000000000001';
    expect(waiting < paid.signer).toBe(true);
    for (let nonce = 0; nonce < 50; nonce++)
      await db
        .insert(walletIntents)
        .values(requestLike(paid, now, { signer: waiting, holder: waiting, nonce, status: 'pending' }));

    ctx.clock.advance(60_000);
    const status = async () =>
      (await db.select().from(walletIntents).where(eq(walletIntents.id, paid.id)))[0]?.status;
    for (let pass = 0; pass < 2 && (await status()) === 'pending'; pass++)
      await ctx.app.services.txEngine.run();
    expect(await status()).toBe('confirmed');
  });
});

/**
 * Confirmed payouts a reorg took a transfer back from are signed again, 50 a pass. They were the
 * first 50 by id on every pass, so 50 payouts waiting for their founders' funds held every later
 * one back; the batches now go round (`Rotation`), read a page after the last one's id.
 */
describe('the payouts that lost a transfer', () => {
  const chain = new FakeChain();
  const ctx = payoutApp(chain);

  it('are read a page after the last one, in id order', async () => {
    const s = await scene(ctx, chain);
    const { db } = ctx.database;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { bounty } = await paidBounty(ctx, s);
      const { payout } = await payoutRequestOf(db, bounty.id);
      // Its transfer taken back for good: every request of the payout failed, none live.
      await db
        .update(walletIntents)
        .set({ status: 'failed', blockNumber: null })
        .where(eq(walletIntents.payoutId, payout.id));
      ids.push(payout.id);
    }
    ids.sort();
    const head = BigInt(Number.MAX_SAFE_INTEGER);
    expect(await confirmedWithLostKind(db, head, null, 2)).toEqual(ids.slice(0, 2));
    expect(await confirmedWithLostKind(db, head, ids[1] as string, 2)).toEqual(ids.slice(2));
    expect(await confirmedWithLostKind(db, head, ids[2] as string, 2)).toEqual([]);
  });
});

/** Rows from before the engine's requests (no intent), still open: read a page after the last hash. */
describe('the rows from before the requests', () => {
  const chain = new FakeChain();
  const ctx = payoutApp(chain);

  it('are read a page after the last one, in hash order', async () => {
    const { db } = ctx.database;
    const at = new Date(ctx.clock.now().getTime() - 60_000);
    const hashes = ['0x01', '0x02', '0x03'].map((h) => h.padEnd(66, 'a'));
    for (const [i, hash] of hashes.entries())
      await db.insert(walletTxs).values({
        hash,
        signer: '0x00000000000000000000000000000000000000aa',
        nonce: i,
        raw: '0x02',
        kind: 'payout',
        status: 'sent',
        createdAt: at,
        updatedAt: at,
      });
    const now = ctx.clock.now();
    const hashOf = (rows: { hash: string }[]) => rows.map((r) => r.hash);
    expect(hashOf(await staleOrphans(db, now, null, 2))).toEqual(hashes.slice(0, 2));
    expect(hashOf(await staleOrphans(db, now, hashes[1] as string, 2))).toEqual(hashes.slice(2));
  });
});

/**
 * Requests a migration recorded with their signed bytes only (no call) get their call back at
 * start-up (`backfillCalls`). It read one page of 500 and stopped there: with more of them, those
 * past the page waited for as many restarts, and 500 whose bytes cannot be read kept every later
 * one without a call for good. It now goes through them all in id order.
 */
describe('the requests without their call', () => {
  const chain = new FakeChain();
  const ctx = payoutApp(chain);

  it('are all read back from their bytes, past 500 that cannot be', async () => {
    const s = await scene(ctx, chain);
    const { bounty } = await paidBounty(ctx, s);
    const { db } = ctx.database;
    const { request: paid } = await payoutRequestOf(db, bounty.id);
    const [attempt] = await db.select().from(walletTxs).where(eq(walletTxs.intentId, paid.id));
    if (!attempt) throw new Error('the payout request has no attempt');
    // The bytes a migration kept: a transaction signed for real (the fake chain's are not).
    const to = '0x00000000000000000000000000000000000000d1';
    const raw = await privateKeyToAccount(generatePrivateKey()).signTransaction({
      chainId: 31337,
      type: 'eip1559',
      to,
      data: '0xabcdef01',
      value: 7n,
      gas: 210_000n,
      nonce: 3,
      maxFeePerGas: 10n,
      maxPriorityFeePerGas: 1n,
    });

    // 500 requests without a call or any bytes, then one without a call whose bytes are readable.
    const now = ctx.clock.now();
    const noCall = { toAddress: '', data: '', gas: 0n, valueUnits: 0n };
    const unreadable = Array.from({ length: 500 }, () =>
      requestLike(paid, now, { ...noCall, status: 'failed' }),
    );
    await db.insert(walletIntents).values(unreadable);
    const last = requestLike(paid, now, { ...noCall, status: 'failed' });
    expect(unreadable.every((r) => r.id < last.id)).toBe(true);
    await db.insert(walletIntents).values(last);
    await db.insert(walletTxs).values({ ...attempt, hash: `0x${'ab'.repeat(32)}`, intentId: last.id, raw });

    expect(await ctx.app.services.txEngine.backfillCalls()).toBe(1);
    const [filled] = await db.select().from(walletIntents).where(eq(walletIntents.id, last.id));
    expect(filled).toMatchObject({ toAddress: to, data: '0xabcdef01', gas: 210_000n, valueUnits: 7n });
  });
});
