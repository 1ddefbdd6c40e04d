import type { SignedTx, TxJournal, TxReceipt, UnsignedTx } from '../../infra/chain/chain.ts';
import type { Executor } from '../../infra/db/client.ts';
import { uniqueViolation } from '../../infra/db/errors.ts';
import { AppError, type ErrorCode } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import * as nonces from './nonces.repo.ts';
import * as repo from './transactions.repo.ts';
import { CANCEL_KIND, type JournalDeps, type TxContext } from './transactions.types.ts';

const CANCELLED =
  'The transaction was cancelled before it mined: it would have reverted (an expired signature, slippage or spent funds).';

/**
 * The request side of the transaction engine for every key the service signs ordinary
 * transactions with (in-app wallets and the sponsor; `engine.ts` follows what it records):
 * one intent per request, keyed by the request's Idempotency-Key; the nonce taken under the
 * signer's row lock, shared by every instance; the signed bytes stored before they are sent; the
 * outcome settled once, from the receipt, whoever reads it first.
 */
export class TransactionJournal {
  constructor(private readonly deps: JournalDeps) {}

  /** A journal for one request: who it is for, what it does. */
  for(ctx: TxContext): TxJournal {
    const { db, clock, waitMs } = this.deps;
    if (!this.deps.kinds()[ctx.kind]) throw new Error(`No transaction kind ${ctx.kind} is declared.`);
    const handle: { -readonly [K in keyof TxJournal]: TxJournal[K] } = {
      waitMs,
      intentId: null,
      record: async (signerAddress, chainNonce, sign, unsigned) => {
        try {
          const r = await db.transaction((tx) =>
            this.recordIn(tx, ctx, signerAddress, chainNonce, sign, unsigned),
          );
          handle.intentId = r.intentId;
          return r.signed;
        } catch (err) {
          if (uniqueViolation(err) === 'wallet_intents_request_key') {
            throw new AppError(
              'idempotency_in_progress',
              'A request with this Idempotency-Key is still running; retry once it has answered.',
            );
          }
          throw err;
        }
      },
      sent: (hash) => this.sent(hash),
      refused: async (hash, reason) => {
        await db.transaction(async (tx) => {
          // A refusal that comes after the attempt settled (sent again and mined) changes nothing.
          const row = await repo.answerOpen(tx, hash, 'failed', clock.now());
          if (!row) return;
          await nonces.giveBack(tx, row.signer, row.nonce);
          if (row.intentId) await this.fail(tx, row.intentId, 'upstream_error', reason, false);
        });
      },
      mined: async (hash, r, refund) => {
        await this.settle(hash, r, refund);
      },
    };
    return handle;
  }

  /**
   * Records a request inside the caller's transaction (which may hold the client's own locks
   * first: a payout's funds lock): the signer's counter locked, a kind's quota checked under it,
   * the nonce picked against the chain's count (read under the lock), the transaction signed at
   * it, and the intent with its signed bytes stored before anything is sent.
   *
   * `early` (the payout key, all of whose transactions the service records): the count read before
   * the lock. Up to the counter, the counter's nonce is taken with no node call or gap look under
   * the lock (gaps are the engine's to fill); past it (a first use, the key used outside) the count
   * is read again under the lock.
   */
  async recordIn(
    tx: Executor,
    ctx: TxContext,
    signerAddress: string,
    chainNonce: () => Promise<number>,
    sign: (nonce: number) => Promise<SignedTx>,
    unsigned: UnsignedTx,
    early?: number,
  ): Promise<{ intentId: string; signed: SignedTx; nonce: number }> {
    const signer = signerAddress.toLowerCase();
    const intentId = newId('walletTx');
    const next = await nonces.lockNext(tx, signer);
    // Under the lock: a quota holds across instances, and the count read is complete.
    await this.assertQuota(tx, ctx);
    // Otherwise read under the lock: a count read before it may miss what the holder just sent.
    const usesEarly = early !== undefined && early <= next;
    const pending = usesEarly ? early : await chainNonce();
    // Only a count read under the lock tells of a gap (an early one lags what was just sent).
    if (!usesEarly && next > pending) this.deps.onGap?.(signer);
    const nonce = usesEarly ? next : await this.pick(tx, signer, next, pending);
    const signed = await sign(nonce);
    await this.insert(tx, intentId, ctx, signer, nonce, unsigned, signed);
    return { intentId, signed, nonce };
  }

  /** The signed bytes reached the node (an attempt settled meanwhile stays settled). */
  async sent(hash: string): Promise<void> {
    const now = this.deps.clock.now();
    await repo.answerOpen(this.deps.db, hash, 'sent', now, { broadcastAt: now });
  }

  private async insert(
    tx: Executor,
    id: string,
    ctx: TxContext,
    signer: string,
    nonce: number,
    u: UnsignedTx,
    s: SignedTx,
  ) {
    const at = this.deps.clock.now();
    // The intent, its first attempt and the counter past its nonce: one statement.
    await repo.insertSigned(
      tx,
      {
        id,
        agentId: ctx.agentId,
        payoutId: ctx.payoutId ?? null,
        requestKey: ctx.requestKey,
        kind: ctx.kind,
        projectId: ctx.projectId,
        holder: ctx.holder.toLowerCase(),
        signer,
        nonce,
        toAddress: u.to.toLowerCase(),
        data: u.data,
        valueUnits: u.valueUnits,
        gas: u.gas,
        txHash: s.hash,
        createdAt: at,
        updatedAt: at,
      },
      {
        hash: s.hash,
        signer,
        nonce,
        raw: s.raw,
        kind: ctx.kind,
        agentId: ctx.agentId,
        projectId: ctx.projectId,
        intentId: id,
        maxFeePerGas: u.maxFeePerGas,
        maxPriorityFeePerGas: u.maxPriorityFeePerGas,
        createdAt: at,
        updatedAt: at,
      },
    );
  }

  /**
   * The nonce to sign at: the stored counter, unless the chain counts further (a transaction sent
   * elsewhere), or a nonce below the counter holds no recorded transaction that may still mine (a
   * node that forgot one): that gap is filled first, so later transactions are never stuck.
   */
  private async pick(tx: Executor, signer: string, next: number, pending: number) {
    if (next <= pending) return pending;
    const held = new Set(await nonces.heldNonces(tx, signer, pending, next));
    for (let n = pending; n < next; n++) if (!held.has(n)) return n;
    return next;
  }

  private async assertQuota(tx: Executor, ctx: TxContext) {
    const quota = this.deps.kinds()[ctx.kind]?.quota;
    if (!quota || !ctx.agentId) return;
    const since = new Date(this.deps.clock.now().getTime() - quota.windowMs);
    if ((await repo.countedSince(tx, ctx.agentId, ctx.kind, since)) >= quota.max) throw quota.refuse();
  }

  /**
   * Settles the request of a mined attempt, once: the attempt and the intent take the receipt's
   * outcome, every other attempt of the intent is replaced, and the agent is told by an event
   * (its kind's `afterConfirmed` after commit, when it newly confirmed).
   */
  async settle(hash: string, r: TxReceipt, gasRefundUnits?: bigint): Promise<void> {
    const { db, clock } = this.deps;
    const attempt = await repo.findTx(db, hash);
    const newly: { confirmed: repo.IntentRow | null } = { confirmed: null };
    await db.transaction(async (tx) => {
      const now = clock.now();
      // The request's row first, then its attempts: the order the engine takes them in too.
      const intent = attempt?.intentId ? await repo.lockIntent(tx, attempt.intentId) : undefined;
      const row = await repo.setStatus(tx, hash, r.status === 'success' ? 'mined' : 'reverted', now, {
        gasPaidUnits: r.gasPaidUnits,
        blockNumber: r.blockNumber,
        ...(gasRefundUnits === undefined ? {} : { gasRefundUnits }),
      });
      if (!row || !intent) return;
      await repo.replaceOthers(tx, intent.id, hash, now);
      if (row.kind === CANCEL_KIND) {
        // The engine's cancel took the nonce: the request would have reverted, and moved nothing.
        await repo.updateIntent(tx, intent.id, { txHash: null, blockNumber: null, updatedAt: now });
        await this.fail(tx, intent.id, 'upstream_error', intent.errorMessage ?? CANCELLED, false);
      } else if (r.status === 'success') {
        await repo.updateIntent(tx, intent.id, {
          status: 'confirmed',
          txHash: hash,
          blockNumber: r.blockNumber,
          result: { tx_hash: hash, ...this.deps.kinds()[intent.kind]?.resultOf?.(r) },
          errorCode: null,
          errorMessage: null,
          updatedAt: now,
        });
        await this.tell(tx, { ...intent, status: 'confirmed', txHash: hash });
        if (intent.status !== 'confirmed' || intent.txHash !== hash) {
          newly.confirmed = { ...intent, status: 'confirmed', txHash: hash, blockNumber: r.blockNumber };
        }
      } else {
        await repo.updateIntent(tx, intent.id, { txHash: hash, blockNumber: r.blockNumber, updatedAt: now });
        await this.fail(
          tx,
          intent.id,
          'upstream_error',
          `The transaction reverted on chain (${hash}).`,
          true,
        );
      }
    });
    const { confirmed } = newly;
    if (confirmed) await this.deps.kinds()[confirmed.kind]?.afterConfirmed?.(confirmed);
  }

  /** Ends a request as failed (`counted`: whether it still counts against its kind's quota). */
  async fail(tx: Executor, intentId: string, code: ErrorCode, message: string, counted: boolean) {
    const intent = await repo.lockIntent(tx, intentId);
    if (!intent || intent.status === 'failed') return;
    await repo.updateIntent(tx, intentId, {
      status: 'failed',
      errorCode: code,
      errorMessage: message,
      counted: intent.counted && counted,
      updatedAt: this.deps.clock.now(),
    });
    await this.tell(tx, { ...intent, status: 'failed', errorCode: code, errorMessage: message });
  }

  /** `wallet.tx_confirmed` / `wallet.tx_failed` to the wallet's agent, once per outcome it reaches. */
  async tell(tx: Executor, intent: repo.IntentRow): Promise<void> {
    // The payout key's transactions have no agent to tell: the payout's own events say it.
    if (!intent.agentId || intent.status === 'pending' || intent.told === intent.status) return;
    await repo.updateIntent(tx, intent.id, { told: intent.status });
    await this.deps.activity.record(tx, {
      type: intent.status === 'confirmed' ? 'wallet.tx_confirmed' : 'wallet.tx_failed',
      agentId: intent.agentId,
      projectId: intent.projectId,
      recipients: [intent.agentId],
      data: {
        transaction_id: intent.id,
        kind: intent.kind,
        tx_hash: intent.txHash,
        ...(intent.status === 'failed' ? { reason: intent.errorMessage } : {}),
      },
    });
  }

  /**
   * Inside the caller's transaction (an approval's finishing one): the payout key's request whose
   * attempt the caller saw mine successfully, confirmed in one statement (`settle` tells agents).
   */
  settleMinedIn(tx: Executor, hash: string, r: TxReceipt): Promise<void> {
    return repo.settleMined(tx, hash, r, this.deps.clock.now());
  }

  /** The payout key's requests for these payouts, with their attempts (the payouts module's view). */
  async ofPayouts(
    ex: Executor,
    payoutIds: string[],
  ): Promise<{ intents: repo.IntentRow[]; attempts: repo.TxRow[] }> {
    const intents = await repo.intentsOfPayouts(ex, payoutIds);
    const ids = intents.map((i) => i.id);
    return { intents, attempts: await repo.attemptsOf(ex, ids) };
  }

  /** The request an Idempotency-Key already started, if any. */
  byRequest(agentId: string, requestKey: string): Promise<repo.IntentRow | undefined> {
    return repo.intentByRequest(this.deps.db, agentId, requestKey);
  }

  find(id: string): Promise<repo.IntentRow | undefined> {
    return repo.findIntent(this.deps.db, id);
  }

  list(agentId: string, limit: number): Promise<repo.IntentRow[]> {
    return repo.intentsOf(this.deps.db, agentId, limit);
  }

  /** The agent's requests of `kind` since `since` that count against its quota. */
  countedSince(agentId: string, kind: string, since: Date): Promise<number> {
    return repo.countedSince(this.deps.db, agentId, kind, since);
  }

  /** The longest a request waits for its receipt before it answers 202. */
  get waitMs(): number {
    return this.deps.waitMs;
  }
}
