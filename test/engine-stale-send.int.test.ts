import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { walletIntents, walletTxs } from '../src/infra/db/schema.ts';
import { paidBounty, payoutApp } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { payoutRequestOf, requestLike } from './helpers/payout-rows.ts';
import { scene } from './helpers/review-flow.ts';

/**
 * The engine reads a pending request, then follows it: its receipts, its signer's nonce, whether
 * the node holds its bytes, and sends them again when it does not. Meanwhile another instance can
 * fail the request (its nonce taken, for good as far as PAYOUT_CONFIRMATIONS tell) and its payout be
 * signed anew, and a reorg deeper than that can free the nonce again: wallets-interleave seed
 * 629858485, where the first engine then sent the failed request's bytes and the payout was paid
 * twice. The bytes are sent under the request's row lock, only while it is pending at their nonce.
 */
describe('a request failed while a pass followed it', () => {
  const chain = new FakeChain();
  const ctx = payoutApp(chain);

  it('is not sent again from the bytes the pass read', async () => {
    const s = await scene(ctx, chain);
    const { bounty } = await paidBounty(ctx, s);
    const { db } = ctx.database;
    const { request: paid } = await payoutRequestOf(db, bounty.id);

    // A pending request of the payout key at a nonce the chain has not reached, its bytes sent
    // once and no longer in the node's pool.
    const now = ctx.clock.now();
    const request = requestLike(paid, now, { nonce: paid.nonce + 1000, status: 'pending' });
    await db.insert(walletIntents).values(request);
    const hash = `0x${randomBytes(32).toString('hex')}`;
    await db.insert(walletTxs).values({
      hash,
      signer: request.signer,
      nonce: request.nonce,
      raw: '0x02',
      kind: request.kind,
      intentId: request.id,
      status: 'sent',
      createdAt: now,
      updatedAt: now,
    });

    // While the engine follows it (between reading it and sending its bytes), another instance
    // fails it: its attempt dropped, its nonce another's.
    const wallets = chain.wallets as { known: (h: string) => Promise<boolean> };
    const known = wallets.known;
    wallets.known = async (h) => {
      if (h === hash) {
        await db.update(walletIntents).set({ status: 'failed' }).where(eq(walletIntents.id, request.id));
        await db.update(walletTxs).set({ status: 'dropped' }).where(eq(walletTxs.hash, hash));
      }
      return known(h);
    };
    let broadcasts = 0;
    chain.onBroadcast = async () => {
      broadcasts++;
    };
    try {
      await ctx.app.services.txEngine.followNow([request.id]);
    } finally {
      wallets.known = known;
      chain.onBroadcast = null;
    }
    expect(broadcasts).toBe(0);
  });
});
