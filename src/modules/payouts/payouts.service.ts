import type { FastifyBaseLogger } from 'fastify';
import type { Chain } from '../../infra/chain/chain.ts';
import { tokensToUnits } from '../../infra/chain/chain.ts';
import type { Db, Executor } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { FundsService } from '../funds/funds.service.ts';
import { type DriveResult, LEG_KINDS, PayoutDriver } from './payout-driver.ts';
import * as repo from './payouts.repo.ts';

export interface PayoutsDeps {
  db: Db;
  clock: Clock;
  chain: Chain;
  funds: FundsService;
  log: FastifyBaseLogger;
  platformFeeBps: number;
  payoutsEnabled: boolean;
  pollIntervalMs: number;
  stuckAfterMs: number;
}

export interface RewardSplit {
  rewardUnits: bigint;
  feeUnits: bigint;
  contributorUnits: bigint;
}

export interface PayoutIntent {
  submissionId: string;
  bountyId: string;
  tokenAddress: string;
  founderAddress: string;
  contributorAddress: string;
  split: RewardSplit;
  reviewNotes: string | null;
}

export type { DriveResult };
export type Payout = repo.PayoutRow;

/**
 * The money side of an approval. A payout row records the intent before anything is signed; its
 * legs (one transferFrom each) are driven by `PayoutDriver`, exactly once, across retries,
 * crashes and instances.
 */
export class PayoutsService {
  private readonly driver: PayoutDriver;

  constructor(private readonly deps: PayoutsDeps) {
    this.driver = new PayoutDriver({
      db: deps.db,
      clock: deps.clock,
      signer: deps.chain.payoutSigner,
      log: deps.log,
      pollIntervalMs: deps.pollIntervalMs,
      stuckAfterMs: deps.stuckAfterMs,
    });
  }

  /** fee = floor(reward * bps / 10000) in base units; the contributor gets the rest. */
  split(rewardAmount: number): RewardSplit {
    const rewardUnits = tokensToUnits(rewardAmount);
    const feeUnits = (rewardUnits * BigInt(this.deps.platformFeeBps)) / 10_000n;
    return { rewardUnits, feeUnits, contributorUnits: rewardUnits - feeUnits };
  }

  assertEnabled(): void {
    if (!this.deps.payoutsEnabled) {
      throw new AppError('payouts_disabled', 'Payouts are disabled by the operator; try again later.');
    }
  }

  /**
   * What still has to leave the founder's wallet: the legs not already paid by an earlier attempt.
   * Legs of that attempt are settled from the chain first: after a lost answer or a timeout a leg
   * may have mined unrecorded, and counting it again would refuse a founder who owes only the rest.
   */
  async outstandingUnits(submissionId: string, split: RewardSplit): Promise<bigint> {
    const earlier = await repo.findBySubmission(this.deps.db, submissionId);
    if (earlier?.status === 'pending' || earlier?.status === 'failed') await this.driver.settle(earlier.id);
    const paid = (await repo.liveLegsOfSubmission(this.deps.db, submissionId)).filter(
      (l) => l.status === 'success',
    );
    const paidKinds = new Set(paid.map((l) => l.kind));
    return (
      (paidKinds.has('contributor') ? 0n : split.contributorUnits) +
      (paidKinds.has('fee') ? 0n : split.feeUnits)
    );
  }

  /** Balance and allowance must each cover what is still to be paid, before anything is signed. */
  assertFunds(tokenAddress: string, founderAddress: string, units: bigint): Promise<void> {
    return this.deps.funds.assertCovers(tokenAddress, founderAddress, units);
  }

  /** The submission's payout, created on the first approval and reopened by a retry after a failure. */
  async prepare(intent: PayoutIntent): Promise<Payout> {
    const { db, clock, chain } = this.deps;
    const now = clock.now();
    const payout = await repo.insertOrGet(db, {
      id: newId('payout'),
      submissionId: intent.submissionId,
      bountyId: intent.bountyId,
      tokenAddress: intent.tokenAddress,
      fromAddress: intent.founderAddress,
      contributorAddress: intent.contributorAddress,
      treasuryAddress: chain.info?.treasuryAddress ?? '',
      rewardUnits: intent.split.rewardUnits,
      contributorUnits: intent.split.contributorUnits,
      feeUnits: intent.split.feeUnits,
      reviewNotes: intent.reviewNotes,
      status: 'pending',
      lastError: null,
      createdAt: now,
      updatedAt: now,
    });
    if (payout.status === 'failed') await repo.setStatus(db, payout.id, ['failed'], 'pending', null, now);
    // An approval retried after a failure or timeout records its own notes, whoever finishes it.
    const notes = payout.status === 'confirmed' ? payout.reviewNotes : intent.reviewNotes;
    if (notes !== payout.reviewNotes) await repo.setReviewNotes(db, payout.id, notes, now);
    return { ...payout, reviewNotes: notes, status: payout.status === 'failed' ? 'pending' : payout.status };
  }

  /** Moves the payout as far as it goes within `waitMs`; a reverted leg marks it failed. */
  async drive(payoutId: string, waitMs: number): Promise<DriveResult> {
    const result = await this.driver.drive(payoutId, waitMs);
    if (result.status === 'failed') {
      await repo.setStatus(
        this.deps.db,
        payoutId,
        ['pending'],
        'failed',
        result.error,
        this.deps.clock.now(),
      );
    }
    return result;
  }

  /**
   * Gives up an unfinished payout none of whose legs was signed, so nothing will ever sign one;
   * false (and nothing changed) when a leg exists, since that leg may move the tokens.
   */
  async abandon(payoutId: string, reason: string): Promise<boolean> {
    const { db, clock } = this.deps;
    return db.transaction(async (tx) => {
      if ((await repo.legsOf(tx, payoutId)).length > 0) return false;
      return repo.setStatus(tx, payoutId, ['pending'], 'failed', reason, clock.now());
    });
  }

  /** Marks the payout confirmed inside the caller's transaction; false if someone already did. */
  /**
   * Marks the payout confirmed inside the caller's transaction; false if someone already did. Both
   * legs paid is the fact that counts: a payout marked failed by an overlapping attempt is paid too.
   */
  confirm(tx: Executor, payoutId: string): Promise<boolean> {
    return repo.setStatus(tx, payoutId, ['pending', 'failed'], 'confirmed', null, this.deps.clock.now());
  }

  /**
   * For a reject, inside its transaction: refuses (false) once any leg may be moving tokens;
   * otherwise closes the submission's payout so nothing is signed for it afterwards.
   */
  async closeForReject(tx: Executor, submissionId: string): Promise<boolean> {
    const payout = await repo.lockBySubmission(tx, submissionId);
    if (!payout) return true;
    const live = (await repo.legsOf(tx, payout.id)).filter((l) => l.status !== 'reverted');
    if (live.length > 0) return false;
    await repo.setStatus(
      tx,
      payout.id,
      ['pending', 'failed'],
      'failed',
      'submission rejected',
      this.deps.clock.now(),
    );
    return true;
  }

  unfinished(limit: number): Promise<Payout[]> {
    return repo.unfinished(this.deps.db, limit);
  }

  get(payoutId: string): Promise<Payout | undefined> {
    return repo.findById(this.deps.db, payoutId);
  }
}

export { LEG_KINDS };
