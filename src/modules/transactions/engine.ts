import type { EngineDeps } from './engine.deps.ts';
import { TransactionSigning } from './engine-signing.ts';
import { CANCEL_KIND } from './journal.ts';
import * as repo from './transactions.repo.ts';

/** A request's own wait reads its receipt; the engine looks at it after this long without news. */
const FOLLOW_AFTER_MS = 1_000;
const OPEN = new Set(['signed', 'sent']);
/** How long after its last change a request's signer is still compared with the chain each pass. */
const RECENT_MS = 15 * 60_000;

/**
 * The follow-up half of the transaction engine (the journal records; this settles): every pass
 * it reads the receipts of pending requests (settling each once), watches confirmed ones until
 * PAYOUT_CONFIRMATIONS deep (a reorg puts the same bytes back on the chain), sends again bytes the
 * node lost, replaces a transaction stuck past PAYOUT_STUCK_AFTER_SECONDS at its nonce with higher fees
 * under the cap (or cancels it when a dry run says it would now revert), signs a request again at
 * a fresh nonce only once another transaction's use of its nonce is final, and fills any gap in a
 * signer's nonces so nothing waits behind it. No signer stays wedged.
 */
export class TransactionEngine {
  private running: Promise<number> | null = null;
  /** Signers whose nonces ran ahead of the chain's (told by the journal), repaired on the next pass. */
  private readonly suspects = new Set<string>();
  private readonly signing: TransactionSigning;

  constructor(private readonly deps: EngineDeps) {
    this.signing = new TransactionSigning(deps, (a, intent) => this.send(a, intent));
  }

  /** One pass (joined when one is running); how many transactions it put on the chain. */
  run(): Promise<number> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(limit = 50): Promise<number> {
    const { db, clock, chain, confirmations } = this.deps;
    const head = await chain.wallets.headBlock();
    const finalAt = head - BigInt(confirmations);
    let put = await this.watchUnfinal(head);
    const before = new Date(clock.now().getTime() - FOLLOW_AFTER_MS);
    const pending = await repo.pendingIntents(db, before, limit);
    const attempts = await repo.attemptsOf(
      db,
      pending.map((i) => i.id),
    );
    const signers = new Set<string>(this.suspects);
    this.suspects.clear();
    for (const intent of pending) {
      signers.add(intent.signer);
      try {
        put += await this.follow(
          intent,
          attempts.filter((a) => a.intentId === intent.id),
          finalAt,
        );
      } catch (err) {
        this.deps.log.error({ err, transaction: intent.id }, 'following a transaction failed; will retry');
      }
    }
    for (const o of await repo.staleOrphans(db, before, limit)) {
      signers.add(o.signer);
      await this.followOrphan(o);
    }
    // A reorg deeper than PAYOUT_CONFIRMATIONS takes back what looked final: the signers of recent
    // requests are compared with the chain too (one nonce read each).
    const recent = new Date(clock.now().getTime() - RECENT_MS);
    for (const signer of await repo.recentSigners(db, recent, limit)) signers.add(signer);
    for (const signer of signers) {
      try {
        put += await this.repairSigner(signer);
      } catch (err) {
        this.deps.log.error({ err, signer }, 'repairing a signer failed; will retry');
      }
    }
    return put;
  }

  /**
   * Confirmed requests not yet seen final (their receipt PAYOUT_CONFIRMATIONS deep): each is looked
   * up by hash on every pass, however long ago it mined, so a pass that could not read the chain
   * while a reorg regrew past it never makes it final unseen. A moved receipt moves the block; a
   * missing one puts the same bytes back.
   */
  private async watchUnfinal(head: bigint): Promise<number> {
    const { db, clock, chain, confirmations } = this.deps;
    let put = 0;
    for (const intent of await repo.unfinalIntents(db, 50)) {
      if (!intent.txHash) continue;
      const r = await chain.wallets.receipt(intent.txHash);
      if (!r) {
        put += await this.reopen(intent.txHash);
        continue;
      }
      const final = head - r.blockNumber >= BigInt(confirmations);
      if (r.blockNumber !== intent.blockNumber || final) {
        await repo.updateIntent(db, intent.id, { blockNumber: r.blockNumber, final, updatedAt: clock.now() });
        await repo.setStatus(db, intent.txHash, r.status === 'success' ? 'mined' : 'reverted', clock.now(), {
          blockNumber: r.blockNumber,
        });
      }
    }
    return put;
  }

  /**
   * A mined attempt the chain no longer has: in flight again from its stored bytes (its request
   * back to pending, however final it looked); a reverted one is never sent again (it could succeed
   * now, after its request was told it failed): a transfer of nothing takes its nonce instead.
   */
  private async reopen(hash: string): Promise<number> {
    const { db, clock, chain, log } = this.deps;
    const attempt = await repo.findTx(db, hash);
    if (!attempt) return 0;
    if (attempt.status === 'reverted') {
      await repo.setStatus(db, hash, 'dropped', clock.now(), { blockNumber: null });
      log.warn({ txHash: hash }, 'a reverted transaction left the chain; its nonce is filled');
      return this.signing.fillGaps(attempt.signer);
    }
    await db.transaction(async (tx) => {
      if (attempt.intentId) {
        await repo.lockIntent(tx, attempt.intentId);
        await repo.updateIntent(tx, attempt.intentId, {
          status: 'pending',
          blockNumber: null,
          final: false,
          updatedAt: clock.now(),
        });
      }
      await repo.setStatus(tx, hash, 'sent', clock.now(), { blockNumber: null });
    });
    await chain.wallets.broadcast(attempt.raw).catch(() => 'unknown');
    log.warn(
      { transaction: attempt.intentId, txHash: hash },
      'a mined transaction left the chain; sent again',
    );
    return 1;
  }

  /**
   * A signer whose recorded nonces run ahead of the chain's: every settled attempt in between is
   * looked up, and one the chain lost is put back (`reopen`), so no later transaction waits behind
   * a nonce the chain forgot; then any nonce nothing holds is filled.
   */
  private async repairSigner(signer: string): Promise<number> {
    const { db, chain } = this.deps;
    const next = await repo.nextOf(db, signer);
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
   * The node refuses a request's bytes for certain (its signer can no longer pay for them): when
   * none of its attempts is in the node's pool or mined, nothing of it can execute, so it fails and
   * its nonce goes back (when it was the last taken; otherwise the next transaction fills it).
   */
  private async unpayable(intent: repo.IntentRow): Promise<number> {
    const { db, clock, chain, journal, log } = this.deps;
    const attempts = (await repo.attemptsOf(db, [intent.id])).filter((x) => OPEN.has(x.status));
    for (const x of attempts) if (await chain.wallets.known(x.hash)) return 0;
    await db.transaction(async (tx) => {
      const locked = await repo.lockIntent(tx, intent.id);
      if (locked?.status !== 'pending' || locked.nonce !== intent.nonce) return;
      for (const x of attempts) await repo.setStatus(tx, x.hash, 'failed', clock.now());
      await repo.giveBack(tx, intent.signer, intent.nonce);
      const why =
        'Its wallet can no longer pay for its gas, and the node holds none of its transactions: nothing was executed.';
      await journal.fail(tx, intent.id, 'insufficient_eth', why, false);
    });
    log.warn({ transaction: intent.id }, 'a transaction its signer can no longer pay for failed');
    return 0;
  }

  /** Looks at `signer` soon: its recorded nonces ran ahead of the chain's. */
  nudge(signer: string): void {
    this.suspects.add(signer.toLowerCase());
    setImmediate(() => {
      this.run().catch((err: unknown) => this.deps.log.error({ err }, 'the transaction engine failed'));
    });
  }

  /** One pending request: settled from a receipt, or put back on its way. */
  private async follow(intent: repo.IntentRow, attempts: repo.TxRow[], finalAt: bigint) {
    const { chain, journal } = this.deps;
    for (const a of [...attempts].reverse()) {
      if (a.status === 'failed') continue;
      const r = await chain.wallets.receipt(a.hash);
      if (!r) continue;
      const refundOf = a.kind === CANCEL_KIND ? undefined : this.deps.kinds()[intent.kind]?.refundOf;
      await journal.settle(a.hash, r, refundOf?.(r));
      return 0;
    }
    const live = attempts.filter((a) => OPEN.has(a.status) && a.nonce === intent.nonce);
    const newest = live[live.length - 1];
    if ((await chain.wallets.nonceOf(intent.signer, 'latest')) > intent.nonce) {
      // Another transaction took the nonce (none of ours mined there): signed again only once final.
      if ((await chain.wallets.nonceOf(intent.signer, finalAt)) <= intent.nonce) return 0;
      await this.signing.resign(intent);
      return 1;
    }
    if (!newest) return 0;
    // Bytes the node does not hold are sent again first (its answer may say fees are too low, or
    // that the signer can no longer pay); only bytes waiting in its pool are replaced when stuck.
    if (!(await chain.wallets.known(newest.hash))) return this.send(newest, intent);
    const sentAt = newest.broadcastAt ?? newest.createdAt;
    if (this.deps.clock.now().getTime() - sentAt.getTime() > this.deps.stuckAfterMs) {
      return (await this.signing.replace(intent, newest)) ? 1 : 0;
    }
    if (newest.status === 'signed') return this.send(newest, intent);
    return 0;
  }

  /** Broadcasts an attempt's stored bytes; the node's refusal for fees gets a replacement. */
  private async send(a: repo.TxRow, intent: repo.IntentRow | null): Promise<number> {
    const { db, clock, chain, log } = this.deps;
    let result: string;
    try {
      result = await chain.wallets.broadcast(a.raw);
    } catch (err) {
      log.warn({ err, txHash: a.hash }, 'a transaction could not be sent; will retry');
      return 0;
    }
    if (result === 'underpriced' && intent) return (await this.signing.replace(intent, a)) ? 1 : 0;
    if (result === 'no_funds' && intent) return this.unpayable(intent);
    if (result === 'accepted') {
      await repo.setStatus(db, a.hash, 'sent', clock.now(), { broadcastAt: a.broadcastAt ?? clock.now() });
    }
    log.info({ txHash: a.hash, result }, 'transaction sent again');
    return 1;
  }

  /** A row from before the engine (no request): settled from its receipt, or sent again. */
  private async followOrphan(o: repo.TxRow) {
    const { db, clock, chain } = this.deps;
    const r = await chain.wallets.receipt(o.hash);
    if (r) {
      await repo.setStatus(db, o.hash, r.status === 'success' ? 'mined' : 'reverted', clock.now(), {
        gasPaidUnits: r.gasPaidUnits,
        blockNumber: r.blockNumber,
      });
    } else if ((await chain.wallets.nonceOf(o.signer, 'latest')) > o.nonce) {
      await repo.setStatus(db, o.hash, 'dropped', clock.now());
    } else {
      await this.send(o, null);
    }
  }
}
