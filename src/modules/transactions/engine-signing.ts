import type { Fees, UnsignedTx } from '../../infra/chain/chain.ts';
import { SPONSOR_MAX_PRIORITY_FEE } from '../../infra/chain/evm-sponsor.ts';
import { outbid, replacementFees } from '../../infra/chain/tx-node.ts';
import type { EngineDeps } from './engine.deps.ts';
import * as nonces from './nonces.repo.ts';
import * as repo from './transactions.repo.ts';
import { CANCEL_KIND } from './transactions.types.ts';

const FILLER_GAS = 21_000n;

const feesOf = (a: repo.TxRow): Fees | null =>
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
 * What the engine signs anew, never beside bytes that may still mine: a replacement at a stuck
 * request's nonce (higher fees under the cap, or a cancel when a dry run says it would revert), the
 * request again at a fresh nonce once its own was taken for good, and transfers of nothing into
 * nonce gaps. Each is recorded before it is sent, under the request's row lock.
 */
export class TransactionSigning {
  constructor(
    private readonly deps: EngineDeps,
    private readonly send: (a: repo.TxRow, intent: repo.IntentRow | null) => Promise<number>,
  ) {}

  /**
   * Replaces a stuck attempt at its nonce with fees raised by at least 12.5% under the cap. A
   * request that would now revert (an expired signature, spent funds) is cancelled instead: a
   * transfer of nothing outbids it, so nobody pays for a revert the dry run could see.
   */
  async replace(intent: repo.IntentRow, old: repo.TxRow): Promise<boolean> {
    const { chain, maxFeePerGas, log } = this.deps;
    const key = await this.deps.keyOf(intent.signer);
    if (key === undefined) return false;
    const quote = await this.quote(key);
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
        'a replacement would pass the fee cap; waiting',
      );
      return false;
    }
    const data = await this.dataFor(intent, fees);
    const signed = await chain.wallets.signTx(key, { ...unsignedOf(intent, fees), data }, intent.nonce);
    if (!(await this.recordReplacement(intent, old, intent.kind, signed, fees, data))) return false;
    log.info(
      { transaction: intent.id, replaces: old.hash, txHash: signed.hash },
      'replacing a stuck transaction',
    );
    // As the request's: sent under its lock only while it still waits on them (`sendWhileOpen`).
    await this.send({ ...old, ...fees, hash: signed.hash, raw: signed.raw, broadcastAt: null }, intent);
    return true;
  }

  /**
   * A request whose reverted attempt a reorg took off the chain: its bytes may come back from a
   * node's pool and could succeed now, after the request was told it failed, so a cancel outbids
   * them at their nonce. Signed first, then in one transaction the request is pending again, the
   * old attempt in flight and the cancel recorded (a failure before leaves everything as it was,
   * for the next pass); then the cancel is sent. Whichever mines at the nonce settles the request.
   */
  async cancelReverted(intent: repo.IntentRow, old: repo.TxRow, key: string | null): Promise<boolean> {
    const { db, clock, chain, maxFeePerGas } = this.deps;
    const fees = outbid(feesOf(old), await this.quote(key), maxFeePerGas);
    const noop = { to: intent.signer, data: '0x', valueUnits: 0n, gas: FILLER_GAS, ...fees };
    const signed = await chain.wallets.signTx(key, noop, old.nonce);
    // Another instance reopened it first (true: in hand), or the request moved to another nonce
    // since (false: the caller fills this one).
    const recorded = await db.transaction(async (tx) => {
      const locked = await repo.lockIntent(tx, intent.id);
      if (!locked || locked.nonce !== old.nonce) return false;
      if (locked.status === 'pending') return 'busy';
      const now = clock.now();
      if (await repo.liveSiblingOf(tx, locked)) {
        // Its client signed the request anew meanwhile (a payout retried after the revert): it is
        // not reopened, and the cancel only takes the nonce, as a filler.
        await repo.setStatus(tx, old.hash, 'dropped', now, { blockNumber: null });
        await repo.insertOrReopenFiller(tx, {
          hash: signed.hash,
          signer: old.signer,
          nonce: old.nonce,
          raw: signed.raw,
          kind: CANCEL_KIND,
          ...fees,
          createdAt: now,
          updatedAt: now,
        });
        return true;
      }
      await repo.updateIntent(tx, intent.id, {
        status: 'pending',
        blockNumber: null,
        final: false,
        errorMessage: 'Cancelled before it mined: its reverted transaction left the chain.',
        updatedAt: now,
      });
      await repo.setStatus(tx, old.hash, 'sent', now, { blockNumber: null });
      await this.record({ ...intent, nonce: old.nonce }, CANCEL_KIND, signed, old.nonce, fees, tx);
      return true;
    });
    if (recorded === true)
      await this.send({ ...old, hash: signed.hash, raw: signed.raw, broadcastAt: null }, null);
    return recorded !== false;
  }

  private async cancel(intent: repo.IntentRow, old: repo.TxRow, key: string | null, why: string) {
    const { db, clock, chain, maxFeePerGas } = this.deps;
    const fees = outbid(feesOf(old), await this.quote(key), maxFeePerGas);
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
  async resign(intent: repo.IntentRow) {
    const { db, clock, chain, journal, maxFeePerGas, log } = this.deps;
    const key = await this.deps.keyOf(intent.signer);
    const quote = key === undefined ? null : await this.quote(key);
    const reverts =
      key === undefined || !quote
        ? 'no key signs for it here'
        : await chain.wallets.dryRun(intent.signer, unsignedOf(intent, quote));
    const fees = outbid(null, quote ?? (await chain.wallets.quoteFees()), maxFeePerGas);
    const data = reverts ? intent.data : await this.dataFor(intent, fees);
    const signed = await db.transaction(async (tx) => {
      const next = await nonces.lockNext(tx, intent.signer);
      const locked = await repo.lockIntent(tx, intent.id);
      if (locked?.status !== 'pending' || locked.nonce !== intent.nonce) return null;
      await repo.dropOpen(tx, intent.id, clock.now());
      if (reverts) {
        const why = `Its nonce was used by another transaction, and it cannot be sent again: ${reverts}`;
        await journal.fail(tx, intent.id, 'upstream_error', why, false);
        return null;
      }
      const nonce = Math.max(next, await chain.wallets.nonceOf(intent.signer, 'pending'));
      const s = await chain.wallets.signTx(
        key as string | null,
        { ...unsignedOf(intent, fees), data },
        nonce,
      );
      await this.record(intent, intent.kind, s, nonce, fees, tx);
      await repo.updateIntent(tx, intent.id, { nonce, data, txHash: s.hash, updatedAt: clock.now() });
      await nonces.setNext(tx, intent.signer, nonce + 1);
      return s;
    });
    if (!signed) return;
    log.warn({ transaction: intent.id, txHash: signed.hash }, 'a transaction lost its nonce; signed again');
    await chain.wallets.broadcast(signed.raw).catch(() => 'unknown');
  }

  /**
   * Records a replacement of `old` at its nonce, under the request's row lock and only while `old`
   * is still its newest attempt (another instance's engine may have replaced it already).
   */
  private recordReplacement(
    intent: repo.IntentRow,
    old: repo.TxRow,
    kind: string,
    signed: { hash: string; raw: string },
    fees: Fees,
    data?: string,
  ): Promise<boolean> {
    return this.deps.db.transaction(async (tx) => {
      const locked = await repo.lockIntent(tx, intent.id);
      if (locked?.status !== 'pending' || locked.nonce !== old.nonce) return false;
      const [newest] = (await repo.attemptsOf(tx, [intent.id])).slice(-1);
      if (newest?.hash !== old.hash) return false;
      await this.record(intent, kind, signed, old.nonce, fees, tx);
      // A sale signed again for these fees: later replacements start from its call data.
      if (data !== undefined && data !== intent.data) {
        await repo.updateIntent(tx, intent.id, { data, updatedAt: this.deps.clock.now() });
      }
      return true;
    });
  }

  /**
   * Today's fees for a signer: the node's quote, with the sponsor's tip held to what Base's
   * sequencer needs (as the sponsor prices its own transactions), so a sale's seller is not
   * charged a node's default tip.
   */
  private async quote(key: string | null): Promise<Fees> {
    const q = await this.deps.chain.wallets.quoteFees();
    if (key !== null || q.maxPriorityFeePerGas <= SPONSOR_MAX_PRIORITY_FEE) return q;
    return {
      maxFeePerGas: q.maxFeePerGas - q.maxPriorityFeePerGas + SPONSOR_MAX_PRIORITY_FEE,
      maxPriorityFeePerGas: SPONSOR_MAX_PRIORITY_FEE,
    };
  }

  /** The call data to sign at `fees`: what the kind's policy says, else the request as asked. */
  private dataFor(intent: repo.IntentRow, fees: Fees): Promise<string> {
    const dataFor = this.deps.kinds()[intent.kind]?.dataFor;
    return dataFor ? dataFor(intent, fees) : Promise.resolve(intent.data);
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

  /**
   * Nonces below the signer's counter that nothing will ever fill: the ones above every nonce still
   * held give their place back (the counter comes down, under the signer's lock: nothing waits
   * behind them, and a signer without ETH could never pay a filler there); the ones below a held
   * nonce get a transfer of nothing, so what waits behind them can mine.
   */
  async fillGaps(signer: string): Promise<number> {
    const { db, chain, maxFeePerGas, log } = this.deps;
    if ((await nonces.nextOf(db, signer)) === undefined) return 0;
    const pending = await chain.wallets.nonceOf(signer, 'pending');
    const { next, held } = await db.transaction(async (tx) => {
      const counter = await nonces.lockNext(tx, signer);
      if (pending >= counter) return { next: counter, held: new Set<number>() };
      const holding = new Set(await nonces.heldNonces(tx, signer, pending, counter));
      const top = holding.size > 0 ? Math.max(...holding) + 1 : pending;
      if (top < counter) {
        await nonces.lowerNext(tx, signer, top);
        log.warn({ signer, from: counter, to: top }, 'gave back nonces nothing waits behind');
      }
      return { next: Math.min(counter, top), held: holding };
    });
    if (pending >= next) return 0;
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
      await repo.insertOrReopenFiller(db, {
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
      log.warn({ signer, nonce, txHash: s.hash }, 'filled a nonce nothing else would fill');
    }
    return gaps.length;
  }
}
