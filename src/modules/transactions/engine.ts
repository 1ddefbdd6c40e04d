import { OncePer } from '../../lib/once-per.ts';
import { Rotation } from '../../lib/rotation.ts';
import type { EngineDeps } from './engine.deps.ts';
import * as pages from './engine-pages.repo.ts';
import { EngineReorgs } from './engine-reorg.ts';
import { TransactionSigning } from './engine-signing.ts';
import * as nonces from './nonces.repo.ts';
import * as repo from './transactions.repo.ts';
import { refundFor } from './transactions.types.ts';

/** A request's own wait reads its receipt; the engine looks at it after this long without news. */
const FOLLOW_AFTER_MS = 1_000;
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
  /** Pending requests, a page a pass, the signers in turn. */
  private readonly pendingPages = new Rotation<string>();
  /** Rows from before the requests, a page a pass in hash order. */
  private readonly orphanPages = new Rotation<string>();
  /** Promised requests waiting for their signer's ETH: said once a minute each. */
  private readonly waitLogged = new OncePer(60_000);
  private readonly signing: TransactionSigning;
  private readonly reorgs: EngineReorgs;

  constructor(private readonly deps: EngineDeps) {
    this.signing = new TransactionSigning(deps, (a, intent) => this.send(a, intent));
    this.reorgs = new EngineReorgs(deps, this.signing);
  }

  /** One pass (joined when one is running); how many transactions it put on the chain. */
  run(): Promise<number> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(limit = 50): Promise<number> {
    const { db, clock, chain } = this.deps;
    const head = await chain.wallets.headBlock();
    let put = await this.reorgs.watchUnfinal(head);
    const before = new Date(clock.now().getTime() - FOLLOW_AFTER_MS);
    // A page a pass, the signers in turn: a signer with a page of requests that wait (a payout key
    // without ETH) never holds back the others' (`Rotation`).
    const pending = await this.pendingPages.next(
      limit,
      (after, n) => pages.pendingIntents(db, before, after, n),
      (intent) => intent.signer,
      (intent) => intent.id,
    );
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
          head,
        );
      } catch (err) {
        this.deps.log.error({ err, transaction: intent.id }, 'following a transaction failed; will retry');
      }
    }
    const orphans = await this.orphanPages.next(
      limit,
      (after, n) => pages.staleOrphans(db, before, after, n),
      (o) => o.hash,
    );
    for (const o of orphans) {
      signers.add(o.signer);
      await this.followOrphan(o);
    }
    // A reorg deeper than PAYOUT_CONFIRMATIONS takes back what looked final: what settled recently
    // is looked up again when the head the last pass saw changed, and the signers of recent
    // requests are compared with the chain (one nonce read each).
    const recent = new Date(clock.now().getTime() - RECENT_MS);
    try {
      put += await this.reorgs.recheckSettled(head, recent, limit);
    } catch (err) {
      // The recheck goes on from where it stopped next pass; the signers are compared meanwhile.
      this.deps.log.error({ err }, 'looking settled transactions up again failed; will go on');
    }
    for (const signer of await this.reorgs.recentSigners(recent, limit)) signers.add(signer);
    for (const signer of signers) {
      try {
        put += await this.reorgs.repairSigner(signer);
      } catch (err) {
        this.deps.log.error({ err, signer }, 'repairing a signer failed; will retry');
      }
    }
    return put;
  }

  /**
   * The node refuses a request's bytes for certain (its signer can no longer pay for them): when
   * none of its attempts is in the node's pool or mined, nothing of it can execute, so it fails and
   * its nonce goes back (when it was the last taken; otherwise the next transaction fills it).
   * A request once told it confirmed (a reorg took its block back) never fails: it was promised, and
   * what paid for it (often a sale of the same wallet the reorg also took) may come back; it waits.
   */
  private async unpayable(intent: repo.IntentRow): Promise<number> {
    const { db, clock, chain, journal, log } = this.deps;
    if (this.deps.kinds()[intent.kind]?.unpayable === 'wait') {
      log.error(
        { transaction: intent.id, signer: intent.signer },
        'the signer cannot pay the gas of its transaction; it waits until the key is topped up',
      );
      return 0;
    }
    if (intent.told === 'confirmed') {
      if (this.waitLogged.due(intent.id, clock.now().getTime())) {
        log.warn(
          { transaction: intent.id, signer: intent.signer },
          'a confirmed transaction a reorg took back cannot be paid for now; it waits',
        );
      }
      return 0;
    }
    const failed = await db.transaction(async (tx) => {
      const locked = await repo.lockIntent(tx, intent.id);
      if (locked?.status !== 'pending' || locked.nonce !== intent.nonce) return false;
      // Read and asked under the lock bytes are sent under (`sendWhileOpen`): none sent meanwhile
      // by another pass (its node took them) is failed here with its nonce given back.
      const attempts = (await repo.attemptsOf(tx, [intent.id])).filter((x) => repo.isOpen(x.status));
      for (const x of attempts) if (await chain.wallets.known(x.hash)) return false;
      for (const x of attempts) await repo.setStatus(tx, x.hash, 'failed', clock.now());
      await nonces.giveBack(tx, intent.signer, intent.nonce);
      const why =
        'Its wallet can no longer pay for its gas, and the node holds none of its transactions: nothing was executed.';
      await journal.fail(tx, intent.id, 'insufficient_eth', why, false);
      return true;
    });
    if (failed) log.warn({ transaction: intent.id }, 'a transaction its signer can no longer pay for failed');
    return 0;
  }

  /** Looks at `signer` soon: its recorded nonces ran ahead of the chain's. */
  nudge(signer: string): void {
    this.suspects.add(signer.toLowerCase());
    setImmediate(() => {
      this.run().catch((err: unknown) => this.deps.log.error({ err }, 'the transaction engine failed'));
    });
  }

  /**
   * Follows these pending requests at once (a client that just recorded or reopened them), instead
   * of waiting for the next pass; how many transactions went on the chain.
   */
  async followNow(intentIds: string[]): Promise<number> {
    const { db, chain } = this.deps;
    const head = await chain.wallets.headBlock();
    const attempts = await repo.attemptsOf(db, intentIds);
    let put = 0;
    for (const id of intentIds) {
      const intent = await repo.findIntent(db, id);
      if (intent?.status !== 'pending') continue;
      put += await this.follow(
        intent,
        attempts.filter((a) => a.intentId === id),
        head,
      );
    }
    return put;
  }

  /** Requests recorded without their call (a migration): read back from their signed bytes. */
  backfillCalls(): Promise<number> {
    return this.reorgs.backfillCalls();
  }

  /** One pending request: settled from a receipt, or put back on its way. */
  private async follow(intent: repo.IntentRow, attempts: repo.TxRow[], head: bigint) {
    const { chain, journal, confirmations } = this.deps;
    const policy = this.deps.kinds()[intent.kind] ?? {};
    for (const a of [...attempts].reverse()) {
      if (a.status === 'failed') continue;
      const r = await chain.wallets.receipt(a.hash);
      if (!r) continue;
      // A revert counts only `revertDepth` deep: until then a reorg may still mine the call.
      if (r.status === 'reverted' && head - r.blockNumber < BigInt(policy.revertDepth ?? 0)) return 0;
      await journal.settle(a.hash, r, refundFor(policy, a.kind, r));
      return 0;
    }
    const live = attempts.filter((a) => repo.isOpen(a.status) && a.nonce === intent.nonce);
    const newest = live[live.length - 1];
    if ((await chain.wallets.nonceOf(intent.signer, 'latest')) > intent.nonce) {
      // Another transaction took the nonce (none of ours mined there): acted on only once final.
      const finalAt = head - BigInt(confirmations);
      if ((await chain.wallets.nonceOf(intent.signer, finalAt)) <= intent.nonce) return 0;
      if (policy.nonceTaken === 'fail') {
        await this.reorgs.failTaken(intent, live);
        return 0;
      }
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
    let result: string | null;
    try {
      result = intent ? await this.sendWhileOpen(a, intent) : await chain.wallets.broadcast(a.raw);
    } catch (err) {
      log.warn({ err, txHash: a.hash }, 'a transaction could not be sent; will retry');
      return 0;
    }
    if (result === null) return 0;
    if (result === 'underpriced' && intent) return (await this.signing.replace(intent, a)) ? 1 : 0;
    if (result === 'no_funds' && intent) return this.unpayable(intent);
    if (result === 'accepted')
      await repo.answerOpen(db, a.hash, 'sent', clock.now(), { broadcastAt: a.broadcastAt ?? clock.now() });
    log.info({ txHash: a.hash, result }, 'transaction sent again');
    return 1;
  }

  /**
   * The attempt's bytes broadcast under its request's row lock, and only while the request still
   * waits on them (pending at the attempt's nonce, the attempt open); null when it no longer does.
   * A pass reads its requests before it follows them: meanwhile another instance can fail one (its
   * nonce taken) and its payout be signed anew, and a reorg deeper than PAYOUT_CONFIRMATIONS can
   * free the nonce again. Sent then, the old bytes paid the payout a second time
   * (wallets-interleave seed 629858485). `failTaken` asks the node under the same lock.
   */
  private sendWhileOpen(a: repo.TxRow, intent: repo.IntentRow): Promise<string | null> {
    const { db, chain } = this.deps;
    return db.transaction(async (tx) => {
      const locked = await repo.lockIntent(tx, intent.id);
      if (locked?.status !== 'pending' || locked.nonce !== a.nonce) return null;
      const attempt = await repo.findTx(tx, a.hash);
      if (!attempt || !repo.isOpen(attempt.status)) return null;
      return chain.wallets.broadcast(a.raw);
    });
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
