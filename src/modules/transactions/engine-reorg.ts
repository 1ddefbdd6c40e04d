import type { TxReceipt } from '../../infra/chain/chain.ts';
import { callOfRaw } from '../../infra/chain/tx-node.ts';
import { Rotation } from '../../lib/rotation.ts';
import type { EngineDeps } from './engine.deps.ts';
import * as pages from './engine-pages.repo.ts';
import type { TransactionSigning } from './engine-signing.ts';
import * as nonces from './nonces.repo.ts';
import * as repo from './transactions.repo.ts';
import { refundFor } from './transactions.types.ts';

/** Requests without their call read back per page at start-up (`backfillCalls`). */
const BACKFILL_PAGE = 500;

/**
 * The engine's side that the chain can take things back from: confirmed requests watched until
 * PAYOUT_CONFIRMATIONS deep, settled transactions a reorg (or a node that lost its pool, or an
 * embedded chain restored from an older state) removed put back on their way, and a signer whose
 * recorded nonces run ahead of the chain's repaired, so nothing waits behind a nonce it forgot.
 */
export class EngineReorgs {
  constructor(
    private readonly deps: EngineDeps,
    private readonly signing: TransactionSigning,
  ) {}

  /**
   * Confirmed requests not yet seen final (their receipt PAYOUT_CONFIRMATIONS deep): each is looked
   * up by hash on every pass, however long ago it mined, so a pass that could not read the chain
   * while a reorg regrew past it never makes it final unseen. A moved receipt moves the block; a
   * missing one puts the same bytes back.
   */
  async watchUnfinal(head: bigint): Promise<number> {
    const { db, clock, chain, confirmations } = this.deps;
    let put = 0;
    for (const intent of await pages.unfinalIntents(db, 50)) {
      if (!intent.txHash) continue;
      const r = await chain.wallets.receipt(intent.txHash);
      if (!r) {
        put += await this.reopen(intent.txHash);
        continue;
      }
      const final = head - r.blockNumber >= BigInt(confirmations);
      if (r.blockNumber !== intent.blockNumber || final) {
        await repo.updateIntent(db, intent.id, { blockNumber: r.blockNumber, final, updatedAt: clock.now() });
        await this.record(intent.txHash, intent.kind, r);
      }
    }
    return put;
  }

  /** The head the last pass saw, by number and hash (this process's; null before its first pass). */
  private seenHead: { number: bigint; hash: string } | null = null;
  /**
   * A recheck under way: the attempts settled since `since`, looked up in order of hash, `after`
   * the last one looked up (null: none yet). It outlives a pass that failed halfway (a lost RPC
   * answer) and one that reached its page's end, so every attempt is looked up once per change.
   */
  private recheck: { since: Date; after: string | null } | null = null;

  /**
   * A reorg deeper than PAYOUT_CONFIRMATIONS takes back requests already seen final, and another
   * transaction of the same key (used outside the service) can take such a request's nonce before
   * any pass saw the signer's count fall behind (`repairSigner`): wallets-interleave seed 510894955,
   * a payout confirmed and final, its block reorged away, its nonce then used outside, and the
   * payout left confirmed with nothing paid. So each pass reads the hash of the block the last pass
   * saw at its head; when it changed (or on a process's first pass), a recheck starts: every attempt
   * settled since `since` is looked up by hash, `limit` a pass until all were, and one the chain no
   * longer has is put back (`reopen`), from where its request is sent again or, its nonce taken,
   * failed and signed anew by its client. A pass that fails halfway leaves the recheck where it
   * stopped, and another change starts it again from the first.
   */
  async recheckSettled(head: bigint, since: Date, limit: number): Promise<number> {
    const { db, chain } = this.deps;
    const seen = this.seenHead;
    const hash = await chain.wallets.blockHash(head);
    this.seenHead = hash === null ? null : { number: head, hash };
    // One node call while the head stands still; a second, for the old head's hash, once it moved.
    let atSeen: string | null = null;
    if (seen?.number === head) atSeen = hash;
    else if (seen && seen.number < head) atSeen = await chain.wallets.blockHash(seen.number);
    if (!seen || atSeen !== seen.hash) this.recheck = { since, after: null };
    const recheck = this.recheck;
    if (!recheck) return 0;
    let put = 0;
    const page = await pages.settledSince(db, recheck.since, recheck.after, limit);
    for (const a of page) {
      const r = await chain.wallets.receipt(a.hash);
      if (!r) put += await this.reopen(a.hash);
      else if (r.blockNumber !== a.blockNumber || r.gasPaidUnits !== a.gasPaidUnits)
        await this.record(a.hash, a.kind, r);
      recheck.after = a.hash;
    }
    if (page.length < limit) this.recheck = null;
    return put;
  }

  /** Recent signers, a page a pass in address order (`Rotation`). */
  private readonly signerPages = new Rotation<string>();

  /**
   * The next `limit` signers of requests settled or changed since `since`, after the last page's,
   * in address order, a page that reaches the last filled up from the first: with more active signers
   * than a pass compares, each is still compared every few passes (one unordered page, before,
   * could give the same ones on every pass and never reach the others).
   */
  recentSigners(since: Date, limit: number): Promise<string[]> {
    return this.signerPages.next(
      limit,
      (after, n) => pages.recentSigners(this.deps.db, since, after, n),
      (signer) => signer,
    );
  }

  /**
   * A settled attempt as its receipt now says: mined again in another block after a reorg, it paid
   * gas at that block's fees (and a sponsored sale was refunded accordingly), not the first block's
   * (wallets-interleave seed 510894955: a sponsored sale recorded with the gas of a block a reorg
   * took back).
   */
  private async record(hash: string, kind: string, r: TxReceipt): Promise<void> {
    const refund = refundFor(this.deps.kinds()[kind], kind, r);
    await repo.setStatus(
      this.deps.db,
      hash,
      r.status === 'success' ? 'mined' : 'reverted',
      this.deps.clock.now(),
      {
        blockNumber: r.blockNumber,
        gasPaidUnits: r.gasPaidUnits,
        ...(refund === undefined ? {} : { gasRefundUnits: refund }),
      },
    );
  }

  /**
   * A settled attempt the chain no longer has: its request is pending again, however final it
   * looked. A mined one is sent again from its stored bytes (the same hash: it can only execute
   * once). A reverted one is never sent again (it could succeed now, after its request was told
   * it failed): a cancel outbids any copy a node put back in its pool, and whichever of the two
   * mines at the nonce settles the request; without a key here, a transfer of nothing fills it.
   * The cancel of a request that failed is not sent again: its nonce is filled like a gap.
   */
  async reopen(hash: string): Promise<number> {
    const { db, clock, chain, log } = this.deps;
    const attempt = await repo.findTx(db, hash);
    if (!attempt) return 0;
    const intent = attempt.intentId ? await repo.findIntent(db, attempt.intentId) : undefined;
    if (attempt.status === 'reverted') {
      const key = await this.deps.keyOf(attempt.signer);
      if (intent && key !== undefined && (await this.signing.cancelReverted(intent, attempt, key))) {
        log.warn(
          { transaction: intent.id, txHash: hash },
          'a reverted transaction left the chain; cancelled',
        );
        return 1;
      }
      return this.dropAndFill(
        hash,
        attempt.signer,
        'a reverted transaction left the chain; its nonce is filled',
      );
    }
    if (intent?.status === 'failed') {
      // The cancel of a request that had already failed: the request stays failed (it moved nothing
      // either way, and its payout or wallet action may have a new request by now); only its nonce
      // is free again, so it is filled (or a later transaction takes it).
      return this.dropAndFill(
        hash,
        attempt.signer,
        'a cancel left the chain; its nonce is filled',
        intent.id,
      );
    }
    if (intent && !(await this.reopenIntent(intent.id, hash)))
      // Failed since it was read (under its lock now): as above.
      return this.dropAndFill(
        hash,
        attempt.signer,
        'a cancel left the chain; its nonce is filled',
        intent.id,
      );
    if (!intent) await repo.setStatus(db, hash, 'sent', clock.now(), { blockNumber: null });
    await chain.wallets.broadcast(attempt.raw).catch(() => 'unknown');
    log.warn(
      { transaction: attempt.intentId, txHash: hash },
      'a mined transaction left the chain; sent again',
    );
    return 1;
  }

  /** An attempt the chain no longer has that is not sent again: dropped, and its nonce filled. */
  private async dropAndFill(hash: string, signer: string, message: string, transaction?: string) {
    await repo.setStatus(this.deps.db, hash, 'dropped', this.deps.clock.now(), { blockNumber: null });
    this.deps.log.warn({ transaction, txHash: hash }, message);
    return this.signing.fillGaps(signer);
  }

  /**
   * The request back to pending and its attempt back in flight, under the request's row lock;
   * false (nothing changed) when the request failed meanwhile.
   */
  private reopenIntent(intentId: string, hash: string): Promise<boolean> {
    const { db, clock } = this.deps;
    return db.transaction(async (tx) => {
      if ((await repo.lockIntent(tx, intentId))?.status === 'failed') return false;
      await repo.updateIntent(tx, intentId, {
        status: 'pending',
        blockNumber: null,
        final: false,
        updatedAt: clock.now(),
      });
      await repo.setStatus(tx, hash, 'sent', clock.now(), { blockNumber: null });
      return true;
    });
  }

  /**
   * A signer whose recorded nonces run ahead of the chain's: every settled attempt in between is
   * looked up, and one the chain lost is put back (`reopen`), so no later transaction waits behind
   * a nonce the chain forgot; then any nonce nothing holds is filled.
   */
  async repairSigner(signer: string): Promise<number> {
    const { db, chain } = this.deps;
    const next = await nonces.nextOf(db, signer);
    if (next === undefined) return 0;
    const pending = await chain.wallets.nonceOf(signer, 'pending');
    if (pending >= next) return 0;
    let put = 0;
    for (const a of await repo.settledAttemptsAt(db, signer, pending, next)) {
      if (!(await chain.wallets.receipt(a.hash))) put += await this.reopen(a.hash);
    }
    return put + (await this.signing.fillGaps(signer));
  }

  /**
   * The request's nonce went to another transaction, for good, and its kind's client signs anew
   * itself (`nonceTaken: 'fail'`): it fails having moved nothing, unless the node still holds one
   * of its attempts (a receipt index lagging the nonce count is no certainty). Under its row lock,
   * only while its nonce is still the lost one.
   */
  async failTaken(intent: repo.IntentRow, live: repo.TxRow[]): Promise<void> {
    const { db, clock, chain, journal, log } = this.deps;
    const failed = await db.transaction(async (tx) => {
      const locked = await repo.lockIntent(tx, intent.id);
      if (locked?.status !== 'pending' || locked.nonce !== intent.nonce) return false;
      // Read and asked under the lock the engine sends a request's bytes under (`sendWhileOpen`):
      // an attempt recorded or sent since this pass read the request is seen, and none is sent
      // once it failed.
      const open = (await repo.attemptsOf(tx, [intent.id])).filter((a) => repo.isOpen(a.status));
      for (const hash of new Set([...live, ...open].map((a) => a.hash)))
        if (await chain.wallets.known(hash)) return false;
      await repo.dropOpen(tx, intent.id, clock.now());
      const why = 'Its nonce was used by another transaction: it moved nothing.';
      await journal.fail(tx, intent.id, 'upstream_error', why, false);
      return true;
    });
    if (failed)
      log.warn({ transaction: intent.id, nonce: intent.nonce }, 'another transaction used this nonce');
  }

  /**
   * Requests recorded without their call (a migration that had only their signed bytes): the
   * call (to, data, value, gas) is read back from the newest attempt's bytes, so a replacement or
   * a fresh signature makes the same call. Every such request, in pages in id order: one page of
   * 500 was read before, so the rest waited for later restarts, and 500 whose bytes cannot be read
   * held every later one back for good.
   */
  async backfillCalls(): Promise<number> {
    const { db, clock, log } = this.deps;
    let filled = 0;
    for (let page = await repo.intentsWithoutCall(db, null, BACKFILL_PAGE); page.length > 0; ) {
      for (const intent of page) {
        const newest = (await repo.attemptsOf(db, [intent.id])).at(-1);
        const call = newest ? callOfRaw(newest.raw) : null;
        if (!call) {
          log.error({ transaction: intent.id }, 'a recorded transaction has no call and no readable bytes');
          continue;
        }
        await repo.updateIntent(db, intent.id, {
          toAddress: call.to,
          data: call.data,
          valueUnits: call.valueUnits,
          gas: call.gas,
          updatedAt: clock.now(),
        });
        filled++;
      }
      const last = page.at(-1);
      page =
        page.length < BACKFILL_PAGE || !last ? [] : await repo.intentsWithoutCall(db, last.id, BACKFILL_PAGE);
    }
    return filled;
  }
}
