import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { walletIntents, walletTxs } from '../src/infra/db/schema.ts';
import type { EngineReorgs } from '../src/modules/transactions/engine-reorg.ts';
import { paidBounty, payoutApp } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { payoutLegsOf, payoutRequestOf, requestLike } from './helpers/payout-rows.ts';
import { scene } from './helpers/review-flow.ts';

/**
 * A payout request cancelled before it mined (its dry-run said it would revert) has failed, and
 * its payout has a newer request; then a reorg takes the block holding the cancel. (Found by the
 * interleaving model, seed 1496570856: the engine put the failed request back to pending, which the
 * newer one's unique index refused on every pass, and the audit found the cancel recorded mined
 * but on no chain.) The request stays failed, the cancel is dropped, its nonce is filled, and the
 * newer request is left as it is.
 */
describe('a cancel a reorg took out, of a payout request that had failed', () => {
  const chain = new FakeChain();
  const ctx = payoutApp(chain);

  it('leaves the request failed and its newer one alone; the cancel is dropped', async () => {
    const s = await scene(ctx, chain);
    const { bounty } = await paidBounty(ctx, s);
    const { db } = ctx.database;
    const { request: newer } = await payoutRequestOf(db, bounty.id);

    // The older request of the same payout: failed, its cancel mined at its nonce.
    const now = ctx.clock.now();
    const failed = requestLike(newer, now, {
      payoutId: newer.payoutId,
      nonce: newer.nonce + 1000,
      status: 'failed',
      told: newer.told,
      errorCode: 'upstream_error',
      errorMessage: 'Cancelled before it mined',
    });
    await db.insert(walletIntents).values(failed);
    const cancel = `0x${randomBytes(32).toString('hex')}`;
    await db.insert(walletTxs).values({
      hash: cancel,
      signer: newer.signer,
      nonce: failed.nonce,
      raw: '0x02',
      kind: 'nonce_filler',
      intentId: failed.id,
      status: 'mined',
      blockNumber: 15n,
      createdAt: now,
      updatedAt: now,
    });

    const reorgs = (ctx.app.services.txEngine as unknown as { reorgs: EngineReorgs }).reorgs;
    await reorgs.reopen(cancel);

    const status = async (id: string) =>
      (await db.select().from(walletIntents).where(eq(walletIntents.id, id)))[0]?.status;
    expect(await status(failed.id)).toBe('failed');
    expect(await status(newer.id)).toBe(newer.status);
    const [tx] = await db.select().from(walletTxs).where(eq(walletTxs.hash, cancel));
    expect(tx).toMatchObject({ status: 'dropped', blockNumber: null });
    const legs = await payoutLegsOf(db, { bountyId: bounty.id });
    expect(legs.map((l) => [l.id, l.status])).toEqual([
      [newer.id, 'success'],
      [failed.id, 'dropped'],
    ]);
  });
});
