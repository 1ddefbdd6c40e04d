import type { FastifyBaseLogger } from 'fastify';
import type { Fees, UnsignedTx, WalletActions } from '../../infra/chain/chain.ts';
import { outbid, replacementFees } from '../../infra/chain/tx-node.ts';
import { saleRefund } from '../../infra/chain/tx-results.ts';
import type { Db } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import * as repo from './wallet-journal.repo.ts';
import { CANCEL_KIND, type WalletJournal } from './wallet-journal.ts';

export interface EngineDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  journal: WalletJournal;
  chain: {
    wallets: Pick<
      WalletActions,
      'nonceOf' | 'broadcast' | 'receipt' | 'known' | 'headBlock' | 'quoteFees' | 'dryRun' | 'signTx'
    >;
  };
  /** The key that signs for `signer`: a wallet's private key, null for the sponsor, undefined: none. */
  keyOf: (signer: string) => Promise<string | null | undefined>;
  /** PAYOUT_CONFIRMATIONS: how deep a mined transaction is watched, and how deep a foreign one must be. */
  confirmations: number;
  /** PAYOUT_STUCK_SECONDS: a sent transaction not mined after this is replaced with higher fees. */
  stuckAfterMs: number;
  /** PAYOUT_MAX_FEE_PER_GAS_GWEI, in wei: no replacement is signed above it. */
  maxFeePerGas: bigint;
}

/** A request's own wait reads its receipt; the engine looks at it after this long without news. */
const FOLLOW_AFTER_MS = 1_000;
const FILLER_GAS = 21_000n;
const OPEN = new Set(['signed', 'sent']);

const feesOf = (a: repo.WalletTxRow): Fees | null =>
  a.maxFeePerGas === null || a.maxPriorityFeePerGas === null
    ? null
    : { maxFeePerGas: a.maxFeePerGas, maxPriorityFeePerGas: a.maxPriorityFeePerGas };

const unsignedOf = (i: repo.IntentRow, fees: Fees): UnsignedTx => ({
  to: i.toAddress,
  data: i.data,
  valueUnits: i.valueUnits,
  gas: i.gas,
  ...fees,
});

/**
 * The follow-up half of the transaction engine (the journal records; this settles): every pass
 * it reads the receipts of pending requests (settling each once), watches confirmed ones until
 * PAYOUT_CONFIRMATIONS deep (a reorg puts the same bytes back on the chain), sends again bytes the
 * node lost, replaces a transaction stuck past PAYOUT_STUCK_SECONDS at its nonce with higher fees
 * under the cap (or cancels it when a dry run says it would now revert), signs a request again at
 * a fresh nonce only once another transaction's use of its nonce is final, and fills any gap in a
 * signer's nonces so nothing waits behind it. No signer stays wedged.
 */
export class WalletEngine {
  private running: Promise<number> | null = null;

  constructor(private readonly deps: EngineDeps) {}

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
    let put = await this.watchUnfinal(finalAt);
    const before = new Date(clock.now().getTime() - FOLLOW_AFTER_MS);
    const pending = await repo.pendingIntents(db, before, limit);
    const attempts = await repo.attemptsOf(
      db,
      pending.map((i) => i.id),
    );
    const signers = new Set<string>();
    for (const intent of pending) {
      signers.add(intent.signer);
      try {
        put += await this.follow(
          intent,
          attempts.filter((a) => a.intentId === intent.id),
          finalAt,
        );
      } catch (err) {
        this.deps.log.error(
          { err, transaction: intent.id },
          'following a wallet transaction failed; will retry',
        );
      }
    }
    for (const o of await repo.staleOrphans(db, before, limit)) {
      signers.add(o.signer);
      await this.followOrphan(o);
    }
    for (const signer of signers) put += await this.fillGaps(signer);
    return put;
  }

  /** Confirmed requests not yet final: a receipt the chain lost puts the same bytes back. */
  private async watchUnfinal(finalAt: bigint): Promise<number> {
    const { db, clock, chain, log } = this.deps;
    let put = 0;
    for (const intent of await repo.unfinalIntents(db, finalAt, 50)) {
      if (!intent.txHash) continue;
      const r = await chain.wallets.receipt(intent.txHash);
      if (r) {
        if (r.blockNumber !== intent.blockNumber) {
          await repo.updateIntent(db, intent.id, { blockNumber: r.blockNumber, updatedAt: clock.now() });
          await repo.setStatus(
            db,
            intent.txHash,
            r.status === 'success' ? 'mined' : 'reverted',
            clock.now(),
            {
              blockNumber: r.blockNumber,
            },
          );
        }
        continue;
      }
      const attempt = await repo.findTx(db, intent.txHash);
      await db.transaction(async (tx) => {
        await repo.updateIntent(tx, intent.id, {
          status: 'pending',
          blockNumber: null,
          updatedAt: clock.now(),
        });
        await repo.setStatus(tx, intent.txHash as string, 'sent', clock.now(), { blockNumber: null });
      });
      if (attempt) {
        await chain.wallets.broadcast(attempt.raw).catch(() => 'unknown');
        put++;
      }
      log.warn(
        { transaction: intent.id, txHash: intent.txHash },
        'a mined wallet transaction left the chain; sent again',
      );
    }
    return put;
  }

  /** One pending request: settled from a receipt, or put back on its way. */
  private async follow(intent: repo.IntentRow, attempts: repo.WalletTxRow[], finalAt: bigint) {
    const { chain, journal } = this.deps;
    for (const a of [...attempts].reverse()) {
      if (a.status === 'failed') continue;
      const r = await chain.wallets.receipt(a.hash);
      if (!r) continue;
      await journal.settle(
        a.hash,
        r,
        intent.kind === 'sponsored_sell' && a.kind !== CANCEL_KIND ? saleRefund(r.logs) : undefined,
      );
      return 0;
    }
    const live = attempts.filter((a) => OPEN.has(a.status) && a.nonce === intent.nonce);
    const newest = live[live.length - 1];
    if ((await chain.wallets.nonceOf(intent.signer, 'latest')) > intent.nonce) {
      // Another transaction took the nonce (none of ours mined there): signed again only once final.
      if ((await chain.wallets.nonceOf(intent.signer, finalAt)) <= intent.nonce) return 0;
      await this.resign(intent);
      return 1;
    }
    if (!newest) return 0;
    const sentAt = newest.broadcastAt ?? newest.createdAt;
    if (this.deps.clock.now().getTime() - sentAt.getTime() > this.deps.stuckAfterMs) {
      return (await this.replace(intent, newest)) ? 1 : 0;
    }
    if (newest.status === 'sent' && (await chain.wallets.known(newest.hash))) return 0;
    return this.send(newest, intent);
  }

  /** Broadcasts an attempt's stored bytes; the node's refusal for fees gets a replacement. */
  private async send(a: repo.WalletTxRow, intent: repo.IntentRow | null): Promise<number> {
    const { db, clock, chain, log } = this.deps;
    let result: string;
    try {
      result = await chain.wallets.broadcast(a.raw);
    } catch (err) {
      log.warn({ err, txHash: a.hash }, 'a wallet transaction could not be sent; will retry');
      return 0;
    }
    if (result === 'underpriced' && intent) return (await this.replace(intent, a)) ? 1 : 0;
    if (result === 'accepted') {
      await repo.setStatus(db, a.hash, 'sent', clock.now(), { broadcastAt: a.broadcastAt ?? clock.now() });
    }
    log.info({ txHash: a.hash, result }, 'wallet transaction sent again');
    return 1;
  }

  /**
   * Replaces a stuck attempt at its nonce with fees raised by at least 12.5% under the cap. A
   * request that would now revert (an expired signature, spent funds) is cancelled instead: a
   * transfer of nothing outbids it, so nobody pays for a revert the dry run could see.
   */
  private async replace(intent: repo.IntentRow, old: repo.WalletTxRow): Promise<boolean> {
    const { chain, maxFeePerGas, log } = this.deps;
    const key = await this.deps.keyOf(intent.signer);
    if (key === undefined) return false;
    const quote = await chain.wallets.quoteFees();
    const reverts = await chain.wallets.dryRun(intent.signer, unsignedOf(intent, quote), 'latest');
    if (reverts) {
      await this.cancel(intent, old, key, reverts);
      return true;
    }
    const oldFees = feesOf(old);
    const fees = oldFees ? replacementFees(oldFees, quote, maxFeePerGas) : outbid(null, quote, maxFeePerGas);
    if (!fees) {
      log.warn(
        { transaction: intent.id, nonce: intent.nonce },
        'a wallet transaction replacement would pass the fee cap; waiting',
      );
      return false;
    }
    const signed = await chain.wallets.signTx(key, unsignedOf(intent, fees), intent.nonce);
    if (!(await this.recordReplacement(intent, old, intent.kind, signed, fees))) return false;
    log.info(
      { transaction: intent.id, replaces: old.hash, txHash: signed.hash },
      'replacing a stuck wallet transaction',
    );
    await this.send({ ...old, hash: signed.hash, raw: signed.raw, broadcastAt: null }, null);
    return true;
  }

  private async cancel(intent: repo.IntentRow, old: repo.WalletTxRow, key: string | null, why: string) {
    const { db, clock, chain, maxFeePerGas } = this.deps;
    const fees = outbid(feesOf(old), await chain.wallets.quoteFees(), maxFeePerGas);
    const noop = { to: intent.signer, data: '0x', valueUnits: 0n, gas: FILLER_GAS, ...fees };
    const signed = await chain.wallets.signTx(key, noop, intent.nonce);
    if (!(await this.recordReplacement(intent, old, CANCEL_KIND, signed, fees))) return;
    await repo.updateIntent(db, intent.id, {
      errorMessage: `Cancelled before it mined: ${why}`,
      updatedAt: clock.now(),
    });
    await this.send({ ...old, hash: signed.hash, raw: signed.raw, broadcastAt: null }, null);
  }

  /**
   * The request's nonce went to another transaction, for good: signed again at a fresh nonce. Under
   * the request's row lock, and only while its nonce is still the lost one: two instances' engines
   * never both sign it again.
   */
  private async resign(intent: repo.IntentRow) {
    const { db, clock, chain, journal, maxFeePerGas, log } = this.deps;
    const key = await this.deps.keyOf(intent.signer);
    const quote = await chain.wallets.quoteFees();
    const reverts =
      key === undefined
        ? 'no key signs for it here'
        : await chain.wallets.dryRun(intent.signer, unsignedOf(intent, quote));
    const fees = outbid(null, quote, maxFeePerGas);
    const signed = await db.transaction(async (tx) => {
      const next = await repo.lockNext(tx, intent.signer);
      const locked = await repo.lockIntent(tx, intent.id);
      if (locked?.status !== 'pending' || locked.nonce !== intent.nonce) return null;
      await repo.dropOpen(tx, intent.id, clock.now());
      if (reverts) {
        const why = `Its nonce was used by another transaction, and it cannot be sent again: ${reverts}`;
        await journal.fail(tx, intent.id, 'upstream_error', why, false);
        return null;
      }
      const nonce = Math.max(next, await chain.wallets.nonceOf(intent.signer, 'pending'));
      const s = await chain.wallets.signTx(key as string | null, unsignedOf(intent, fees), nonce);
      await this.record(intent, intent.kind, s, nonce, fees, tx);
      await repo.updateIntent(tx, intent.id, { nonce, txHash: s.hash, updatedAt: clock.now() });
      await repo.setNext(tx, intent.signer, nonce + 1);
      return s;
    });
    if (!signed) return;
    log.warn(
      { transaction: intent.id, txHash: signed.hash },
      'a wallet transaction lost its nonce; signed again',
    );
    await chain.wallets.broadcast(signed.raw).catch(() => 'unknown');
  }

  /**
   * Records a replacement of `old` at its nonce, under the request's row lock and only while `old`
   * is still its newest attempt (another instance's engine may have replaced it already).
   */
  private recordReplacement(
    intent: repo.IntentRow,
    old: repo.WalletTxRow,
    kind: string,
    signed: { hash: string; raw: string },
    fees: Fees,
  ): Promise<boolean> {
    return this.deps.db.transaction(async (tx) => {
      const locked = await repo.lockIntent(tx, intent.id);
      if (locked?.status !== 'pending' || locked.nonce !== old.nonce) return false;
      const [newest] = (await repo.attemptsOf(tx, [intent.id])).slice(-1);
      if (newest?.hash !== old.hash) return false;
      await this.record(intent, kind, signed, old.nonce, fees, tx);
      return true;
    });
  }

  private async record(
    intent: repo.IntentRow,
    kind: string,
    signed: { hash: string; raw: string },
    nonce: number,
    fees: Fees,
    ex: Parameters<typeof repo.insertTx>[0] = this.deps.db,
  ) {
    const at = this.deps.clock.now();
    await repo.insertTx(ex, {
      hash: signed.hash,
      signer: intent.signer,
      nonce,
      raw: signed.raw,
      kind,
      agentId: intent.agentId,
      projectId: intent.projectId,
      intentId: intent.id,
      ...fees,
      createdAt: at,
      updatedAt: at,
    });
  }

  /** A row from before the engine (no request): settled from its receipt, or sent again. */
  private async followOrphan(o: repo.WalletTxRow) {
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

  /** Nonces below the signer's counter that nothing will ever fill get a transfer of nothing. */
  private async fillGaps(signer: string): Promise<number> {
    const { db, chain, maxFeePerGas, log } = this.deps;
    const next = await repo.nextOf(db, signer);
    if (next === undefined) return 0;
    const pending = await chain.wallets.nonceOf(signer, 'pending');
    if (pending >= next) return 0;
    const held = new Set(await repo.heldNonces(db, signer, pending, next));
    const gaps = [];
    for (let n = pending; n < next; n++) if (!held.has(n)) gaps.push(n);
    if (gaps.length === 0) return 0;
    const key = await this.deps.keyOf(signer);
    if (key === undefined) return 0;
    const fees = outbid(null, await chain.wallets.quoteFees(), maxFeePerGas);
    for (const nonce of gaps) {
      const s = await chain.wallets.signTx(
        key,
        { to: signer, data: '0x', valueUnits: 0n, gas: FILLER_GAS, ...fees },
        nonce,
      );
      const at = this.deps.clock.now();
      await repo.insertTx(db, {
        hash: s.hash,
        signer,
        nonce,
        raw: s.raw,
        kind: CANCEL_KIND,
        ...fees,
        createdAt: at,
        updatedAt: at,
      });
      await chain.wallets.broadcast(s.raw).catch(() => 'unknown');
      log.warn({ signer, nonce, txHash: s.hash }, 'filled a wallet nonce nothing else would fill');
    }
    return gaps.length;
  }
}
