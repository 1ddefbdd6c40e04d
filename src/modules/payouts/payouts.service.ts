import { type TxReceipt, tokensToUnits } from '../../infra/chain/chain.ts';
import type { Executor } from '../../infra/db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { Rotation } from '../../lib/rotation.ts';
import type { KindPolicies } from '../transactions/transactions.types.ts';
import { splitReward } from './fee-split.ts';
import * as fresh from './fresh-payout.repo.ts';
import { FreshPayout, type FreshResult } from './fresh-payout.ts';
import { abandon, closeForReject } from './payout-closing.ts';
import { PayoutDriver } from './payout-driver.ts';
import { payoutKinds } from './payout-kinds.ts';
import * as repo from './payouts.repo.ts';
import {
  type DriveResult,
  type DriverDeps,
  LEG_KINDS,
  type LegKind,
  type PayoutIntent,
  type PayoutsDeps,
  type RepaidKind,
  type RepaidListener,
  type RewardSplit,
  type SigningLease,
} from './payouts.types.ts';
import { assertRetryCovered } from './retry-coverage.ts';

export type { DriveResult, FreshResult, PayoutIntent, PayoutsDeps, RepaidListener, RewardSplit };
export type Payout = repo.PayoutRow;

/**
 * What paying an approval's intent came to. 'reviewed': the submission was reviewed meanwhile;
 * 'lease_lost': another process holds the bounty; in both nothing was signed. 'driven': the
 * payout, confirmed (with the legs a fresh payout saw mine, for the finishing transaction),
 * failed on chain, or still pending when the wait ended.
 */
export type PayOutcome =
  | { status: 'reviewed' }
  | { status: 'lease_lost' }
  | { status: 'driven'; payout: Payout; result: DriveResult };

/**
 * The money side of an approval. A payout row records what is owed before anything is signed; its
 * transaction (one router call; one transferFrom each for payouts signed before the router) is an
 * intent of the one transaction engine, signed by the payout key after the funds reservation
 * (`PayoutDriver`, `FreshPayout`) and followed by the engine, exactly once, across retries,
 * crashes, reorgs and instances.
 */
export class PayoutsService {
  private readonly driver: PayoutDriver;
  private readonly fresh: FreshPayout;
  private readonly driverDeps: DriverDeps;
  /** Unfinished payouts, a batch a pass in id order: none starves behind failing ones (`Rotation`). */
  private readonly unfinishedPages = new Rotation<string>();
  private readonly repaidListeners: RepaidListener[] = [];

  constructor(private readonly deps: PayoutsDeps) {
    const driverDeps: DriverDeps = {
      db: deps.db,
      clock: deps.clock,
      signer: deps.chain.payoutSigner,
      chain: deps.chain.wallets,
      journal: deps.journal,
      follow: (ids) => deps.follow(ids),
      log: deps.log,
      funds: deps.funds,
      confirmations: deps.confirmations ?? 0,
      pollIntervalMs: deps.pollIntervalMs,
      revertConfirmations: deps.revertConfirmations ?? 0,
      maxFeePerGas: BigInt(deps.maxFeePerGasGwei ?? 500) * 10n ** 9n,
      signNewLegs: deps.payoutsEnabled,
      lockSubmission: deps.lockSubmission,
    };
    this.driverDeps = driverDeps;
    this.driver = new PayoutDriver(driverDeps);
    this.fresh = new FreshPayout(driverDeps);
  }

  /** The payout key's kinds for the transaction engine (`payout-kinds.ts`). */
  kinds(): KindPolicies {
    return payoutKinds(this.deps.revertConfirmations ?? 0, (payoutId, kind, txHash) =>
      this.repaid(payoutId, kind, txHash),
    );
  }

  /** The reviews module records the hash that paid on the submission (it owns that table). */
  onRepaid(listener: RepaidListener): void {
    this.repaidListeners.push(listener);
  }

  /** A payout confirmed before was paid by this transaction (a reorg took back the one recorded). */
  private async repaid(payoutId: string, kind: RepaidKind, txHash: string): Promise<void> {
    const payout = await repo.findById(this.deps.db, payoutId);
    if (payout?.status !== 'confirmed') return;
    for (const l of this.repaidListeners) await l({ submissionId: payout.submissionId, kind, txHash });
  }

  /** What approving a reward of `rewardAmount` whole tokens pays (`splitReward`, at PLATFORM_FEE_BPS). */
  split(rewardAmount: number): RewardSplit {
    return splitReward(tokensToUnits(rewardAmount), this.deps.platformFeeBps);
  }

  assertEnabled(): void {
    if (!this.deps.payoutsEnabled) {
      throw new AppError('payouts_disabled', 'Payouts are disabled by the operator; try again later.');
    }
  }

  /**
   * The first approval of a submission (no payout row yet), under the bounty's lease, which the
   * caller renews in the signing transaction (`lease.renew`): `FreshPayout` checks the funds
   * against the wallet's other payouts in flight, records the payout, signs and stores its
   * transaction in one transaction, sends it and reads its receipt. A payout it cannot finish
   * cleanly is left `pending` for `drive` (see `FreshResult`).
   */
  async payFresh(
    intent: PayoutIntent,
    lease: SigningLease,
    waitMs: number,
  ): Promise<FreshResult & { payout: Payout }> {
    const payout = this.rowFor(intent, this.deps.clock.now());
    return { ...(await this.fresh.pay(payout, lease, waitMs)), payout };
  }

  /**
   * Pays an approval's intent: the one call an approval makes into payouts before it finishes.
   * The first approval of a submission (`recorded` false) signs fresh under the caller's lease
   * (`payFresh`), and what that cannot finish cleanly is driven at once; a payout recorded
   * before (a retry after a failure or timeout, or another approval's) is checked against the
   * funds for what is still to send, reopened and driven. Within `waitMs` in all.
   */
  async pay(
    intent: PayoutIntent,
    lease: SigningLease,
    waitMs: number,
    recorded: boolean,
  ): Promise<PayOutcome> {
    const started = Date.now();
    if (!recorded) {
      const { payout, ...fresh } = await this.payFresh(intent, lease, waitMs);
      switch (fresh.status) {
        case 'reviewed':
          return { status: 'reviewed' };
        case 'lease_lost':
          return { status: 'lease_lost' };
        case 'confirmed':
        case 'pending':
          return { status: 'driven', payout, result: fresh };
        case 'unfinished': {
          const left = Math.max(0, waitMs - (Date.now() - started));
          return { status: 'driven', payout, result: await this.drive(payout.id, left) };
        }
        case 'existing':
          break; // another approval recorded it first: driven as a retry
      }
    }
    await assertRetryCovered(this.deps, this.driver, intent);
    const payout = await this.prepare(intent);
    return { status: 'driven', payout, result: await this.drive(payout.id, waitMs, { retry: true }) };
  }

  /**
   * Inside the approval's finishing transaction: confirms the payout, recording first the
   * transaction a first approval saw mine (`mined`; none when the engine settled it). False when
   * it is no longer pending or failed (another finisher confirmed it): whoever confirms it
   * finishes the approval.
   */
  async confirmPaid(
    tx: Executor,
    payoutId: string,
    now: Date,
    mined?: { hash: string; receipt: TxReceipt },
  ): Promise<boolean> {
    if (mined) await this.deps.journal.settleMinedIn(tx, mined.hash, mined.receipt);
    return fresh.confirmPaid(tx, payoutId, now);
  }

  /** The submission's payout, created on the first approval and reopened by a retry after a failure. */
  async prepare(intent: PayoutIntent): Promise<Payout> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const payout = await repo.insertOrGet(db, this.rowFor(intent, now));
    if (payout.status === 'failed') await repo.setStatus(db, payout.id, ['failed'], 'pending', null, now);
    // An approval retried after a failure or timeout records its own notes, whoever finishes it.
    const notes = payout.status === 'confirmed' ? payout.reviewNotes : intent.reviewNotes;
    if (notes !== payout.reviewNotes) await repo.setReviewNotes(db, payout.id, notes, now);
    return { ...payout, reviewNotes: notes, status: payout.status === 'failed' ? 'pending' : payout.status };
  }

  /** The payout row recording an intent, before anything is signed. */
  private rowFor(intent: PayoutIntent, now: Date): Payout {
    return {
      id: newId('payout'),
      submissionId: intent.submissionId,
      bountyId: intent.bountyId,
      tokenAddress: intent.tokenAddress,
      fromAddress: intent.founderAddress,
      contributorAddress: intent.contributorAddress,
      treasuryAddress: this.deps.chain.info?.treasuryAddress ?? '',
      rewardUnits: intent.split.rewardUnits,
      contributorUnits: intent.split.contributorUnits,
      feeUnits: intent.split.feeUnits,
      reviewNotes: intent.reviewNotes,
      status: 'pending',
      lastError: null,
      createdAt: now,
      updatedAt: now,
    };
  }

  /**
   * Moves the payout as far as it goes within `waitMs`; a reverted leg with nothing else in flight
   * marks it failed. `retry`: an approval asked again, so a reverted leg is signed once more.
   */
  async drive(payoutId: string, waitMs: number, opts: { retry?: boolean } = {}): Promise<DriveResult> {
    const result = await this.driver.drive(payoutId, waitMs, opts.retry === true);
    if (result.status === 'failed')
      await repo.failIfIdle(this.deps.db, payoutId, result.error, this.deps.clock.now());
    return result;
  }

  /** Gives up an unfinished payout nothing was signed for (`payout-closing.ts`). */
  abandon(payoutId: string, reason: string): Promise<boolean> {
    return abandon(this.closingDeps(), payoutId, reason);
  }

  /** For a reject, inside its transaction: closes the submission's payout (`payout-closing.ts`). */
  closeForReject(tx: Executor, submissionId: string): Promise<'closed' | 'contributor_failed' | 'paying'> {
    return closeForReject(this.closingDeps(), tx, submissionId);
  }

  private closingDeps() {
    return { ...this.driverDeps, clock: this.deps.clock };
  }

  /**
   * The next `limit` unfinished payouts after the previous batch, wrapping around: payouts that
   * keep failing at the head of the list never hold back the ones behind them.
   */
  unfinished(limit: number): Promise<Payout[]> {
    return this.unfinishedPages.next(
      limit,
      (after, n) => repo.unfinishedAfter(this.deps.db, after, n),
      (p) => p.id,
    );
  }

  /**
   * Start-up check: payout transactions of another payout key still in flight can only be
   * replaced by that key; a transaction signed here could land beside them.
   */
  async assertNoForeignLegsInFlight(): Promise<void> {
    const address = this.deps.chain.payoutSigner.address;
    const foreign = await repo.inFlightOfOtherSigners(this.deps.db, address);
    if (foreign.length === 0) return;
    const which = foreign
      .map((f) => `${f.signer} (${f.legs} transactions, nonces ${f.firstNonce}-${f.lastNonce})`)
      .join(', ');
    throw new Error(
      `Payout transactions signed by another payout key are still in flight: ${which}. This ` +
        `instance signs as ${address} and must not drive them. Run with that PAYOUT_PRIVATE_KEY ` +
        'until they settle, then switch keys.',
    );
  }

  /**
   * Confirmed payouts whose paid transaction a reorg took back and another transaction's nonce
   * replaced, or whose bytes sent again then reverted once final: signed again at a fresh nonce
   * (after the funds reservation), on every pass until one is signed, so a founder short of funds
   * at that moment only delays it. How many were signed again.
   */
  async resignLost(): Promise<number> {
    const depth = Math.max(this.deps.confirmations ?? 0, this.deps.revertConfirmations ?? 0);
    return this.driver.resignLost((await this.deps.chain.payoutSigner.headBlock()) - BigInt(depth));
  }

  get(payoutId: string): Promise<Payout | undefined> {
    return repo.findById(this.deps.db, payoutId);
  }
}

export { LEG_KINDS };
