import type { FastifyBaseLogger } from 'fastify';
import type { PayoutSigner } from '../../infra/chain/chain.ts';
import type { Db } from '../../infra/db/client.ts';
import { uniqueViolation } from '../../infra/db/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { invalidState } from '../../lib/errors.ts';
import { capFees, LegBroadcaster, settleFromChain, signLeg } from './leg-broadcast.ts';
import * as repo from './payouts.repo.ts';

export const LEG_KINDS = ['contributor', 'fee'] as const;
export type LegKind = (typeof LEG_KINDS)[number];

export type DriveResult =
  | { status: 'confirmed'; contributorTxHash: string; platformFeeTxHash: string }
  | { status: 'failed'; error: string }
  | { status: 'pending' };

export interface DriverDeps {
  db: Db;
  clock: Clock;
  signer: PayoutSigner;
  log: FastifyBaseLogger;
  pollIntervalMs: number;
  stuckAfterMs: number;
  /** Blocks on top of a reverted receipt before the revert counts (PAYOUT_REVERT_CONFIRMATIONS). */
  revertConfirmations: number;
  /** The highest fee cap ever signed, in wei (PAYOUT_MAX_FEE_PER_GAS_GWEI). */
  maxFeePerGas: bigint;
  /** PAYOUTS_ENABLED: while false no new leg is signed; signed ones are still sent and settled. */
  signNewLegs: boolean;
}

const isOpen = (l: repo.LegRow) => l.status === 'signed' || l.status === 'sent';

/**
 * Drives one payout's legs toward the chain: signs a leg only where none may still move the
 * tokens, stores every signed transaction before broadcasting it, hands the legs to
 * `LegBroadcaster` (re-broadcasts, replacements), and records what mined.
 */
export class PayoutDriver {
  private readonly broadcaster: LegBroadcaster;

  constructor(private readonly deps: DriverDeps) {
    this.broadcaster = new LegBroadcaster(deps);
  }

  async drive(payoutId: string, waitMs: number): Promise<DriveResult> {
    const payout = await repo.findById(this.deps.db, payoutId);
    if (!payout) throw new Error(`No payout ${payoutId}.`);
    let legs = await this.liveLegs(payoutId);
    const missing = LEG_KINDS.filter((k) => !legs.has(k));
    if (missing.length > 0 && payout.status === 'pending' && this.deps.signNewLegs) {
      await this.sign(payout, missing);
      legs = await this.liveLegs(payoutId);
    }
    await this.broadcaster.push([...legs.values()]);
    return this.await(payoutId, waitMs);
  }

  private async liveLegs(payoutId: string): Promise<Map<LegKind, repo.LegRow>> {
    const legs = await repo.legsOf(this.deps.db, payoutId);
    return new Map(legs.filter((l) => l.status !== 'reverted').map((l) => [l.kind as LegKind, l]));
  }

  /**
   * Allocates nonces and stores the signed transfers in one transaction, before any broadcast.
   * Throws 409 when the submission was reviewed meanwhile; its payout is then closed.
   */
  private async sign(payout: repo.PayoutRow, kinds: LegKind[]): Promise<void> {
    const { db, clock, signer } = this.deps;
    // The counter is seeded from the chain once; after that the database owns the nonces.
    if (!(await repo.hasNonceCounter(db, signer.address))) {
      await repo.seedNonce(db, signer.address, await signer.chainNonce());
    }
    const fees = capFees(await signer.quoteFees(), this.deps.maxFeePerGas);
    const now = clock.now();
    let reviewed = false;
    try {
      await db.transaction(async (tx) => {
        // A reject holds this lock too: a payout it closed is never signed afterwards.
        const locked = await repo.lockById(tx, payout.id);
        if (locked?.status !== 'pending') return;
        // A reject with no payout row yet (or one whose lease ran out) locks only the submission.
        if ((await repo.lockSubmissionStatus(tx, payout.submissionId)) !== 'pending') {
          await repo.setStatus(
            tx,
            payout.id,
            ['pending'],
            'failed',
            'the submission is no longer pending',
            now,
          );
          reviewed = true;
          return;
        }
        for (const kind of kinds) {
          const nonce = await repo.allocateNonce(tx, signer.address);
          const { leg, attempt } = await signLeg(signer, payout, kind, nonce, fees, now);
          await repo.insertLeg(tx, leg, attempt);
        }
      });
    } catch (err) {
      // Another process signed this payout's legs first; its legs are the ones to drive.
      if (uniqueViolation(err) !== 'payout_legs_live_key') throw err;
    }
    if (reviewed) {
      throw invalidState('The submission was reviewed while this approval ran; nothing was paid.');
    }
  }

  /**
   * Records what mined for each unsettled leg, its receipts read together. An approval retried
   * after a lost answer uses it before the funds check: a leg that mined unrecorded is paid.
   */
  async settle(payoutId: string): Promise<void> {
    const legs = await repo.legsOf(this.deps.db, payoutId);
    const open = legs.filter(isOpen);
    if (open.length === 0) return;
    const attempts = await repo.attemptsOf(
      this.deps.db,
      open.map((l) => l.id),
    );
    await Promise.all(
      open.map((l) =>
        settleFromChain(
          this.deps,
          l,
          attempts.filter((a) => a.legId === l.id),
        ),
      ),
    );
  }

  /** Polls every unsettled leg until all settle or the time is up; receipts are awaited together. */
  private async await(payoutId: string, waitMs: number): Promise<DriveResult> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      await this.settle(payoutId);
      const settled = await repo.legsOf(this.deps.db, payoutId);
      const result = outcome(settled);
      // Nothing in flight (signing is off, say): waiting cannot change the answer.
      if (result.status !== 'pending' || Date.now() >= deadline || !settled.some(isOpen)) return result;
      await new Promise((r) => setTimeout(r, this.deps.pollIntervalMs));
    }
  }
}

/** The payout's state from its legs: both kinds paid, a live leg reverted, or still moving. */
export function outcome(legs: repo.LegRow[]): DriveResult {
  const success = new Map(legs.filter((l) => l.status === 'success').map((l) => [l.kind, l]));
  const contributor = success.get('contributor');
  const fee = success.get('fee');
  if (contributor?.txHash && fee?.txHash) {
    return { status: 'confirmed', contributorTxHash: contributor.txHash, platformFeeTxHash: fee.txHash };
  }
  const live = legs.filter((l) => l.status !== 'reverted');
  const liveKinds = new Set(live.map((l) => l.kind));
  const reverted = legs.filter((l) => l.status === 'reverted' && !liveKinds.has(l.kind));
  if (reverted.length > 0 && live.every((l) => l.status === 'success')) {
    return { status: 'failed', error: `the ${reverted.map((l) => l.kind).join(' and ')} transfer reverted` };
  }
  return { status: 'pending' };
}
