import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { FundsService } from '../funds/funds.service.ts';
import { type ApprovalsService, PayoutPendingError } from './approvals.service.ts';
import type { MergesService } from './merges.service.ts';
import type { OwedPayoutState, RevertedLeg } from './owed.repo.ts';

export interface OwedPayoutsDeps {
  log: FastifyBaseLogger;
  clock: Clock;
  merges: Pick<MergesService, 'owed' | 'recordPayoutFailure'>;
  approvals: Pick<ApprovalsService, 'approve'>;
  /** Whether the founder's funds covered a reverted payout transaction at its block. */
  funds: Pick<FundsService, 'coveredAt'>;
}

/** Answers that mean there is nothing to pay here now: another process pays it, or it moved on. */
const NOT_OURS = new Set([
  'operation_in_progress',
  'invalid_state',
  'not_in_review',
  'no_pending_submission',
  'not_found',
]);

/** How many owed submissions one pass tries. */
const BATCH = 50;
/** After n reverts the founder's funds do not explain, an owed payout waits 30 s * 2^(n-1) (at most an hour). */
const REVERT_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 3_600_000;
/** Explanations kept (one per reverted transaction; a revert's block never changes what it says). */
const MAX_EXPLANATIONS = 10_000;
const NONE: ReadonlySet<string> = new Set();

/**
 * Whether an owed payout waits before it is tried again. A payout that reverted on chain for a
 * reason the funds check cannot see (a token that refuses the transfer, a router whose payer is
 * another key) would revert again, and each try costs gas: after n such reverts it waits
 * 30 s * 2^(n-1), at most an hour, from the latest. A revert the founder's funds explain (balance or
 * allowance below the reward at the revert's block: `explained` holds those legs) is not one of
 * them: a payout whose latest revert is explained never waits, since the funds check refuses a
 * retry for nothing until the funds cover it, and then it pays. The wait counts from the revert,
 * not from the payout's last change, so a retry the funds check refused never restarts it. Funds
 * and wallet refusals cost nothing and are tried every pass.
 */
export function waitsAfterReverts(
  o: OwedPayoutState,
  now: Date,
  explained: ReadonlySet<string> = NONE,
): boolean {
  if (o.payoutStatus !== 'failed') return false;
  const latest = o.reverted.at(-1);
  if (!latest || explained.has(latest.legId)) return false;
  const unexplained = o.reverted.filter((l) => !explained.has(l.legId)).length;
  const wait = Math.min(REVERT_BACKOFF_MS * 2 ** (unexplained - 1), MAX_BACKOFF_MS);
  return now.getTime() - latest.revertedAt.getTime() < wait;
}

/**
 * Pays what founders owe: every pending submission whose pull request the founder merged. The
 * merge webhook only records the merge (the reward is owed from then on, durably, on the
 * submission and its bounty) and nudges this job; the job approves as the founder would, pinned
 * to the merged submission, on every instance (the approval lease lets one of them pay). A payout
 * that cannot be made (funds, allowance, wallets, a revert) is told once to both sides as
 * `payout.failed` and tried again on every pass, and at once when the chain watcher sees a
 * founder's balance or allowance change, so it is paid as soon as the funds cover it; a payout
 * still confirming is not a failure and says nothing.
 */
export class OwedPayouts {
  private running: Promise<number> | null = null;
  private again = false;
  /** Per reverted transaction (leg and block): whether the founder's funds fell short there. */
  private readonly shortAt = new Map<string, boolean>();
  /** Reverted transactions whose funds could not be read (told once each). */
  private readonly unread = new Set<string>();

  constructor(private readonly deps: OwedPayoutsDeps) {}

  /** Starts a pass soon (after the caller's answer), or one more after the running pass. */
  nudge(): void {
    setImmediate(() => {
      this.run().catch((err: unknown) => this.deps.log.error({ err }, 'paying owed rewards failed'));
    });
  }

  /** Resolves once no pass is running (for a graceful close). */
  async idle(): Promise<void> {
    await this.running?.catch(() => {});
  }

  /** One pass (joined when one is running); how many owed rewards it paid. */
  run(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const pass = async () => {
      let paid = 0;
      do {
        this.again = false;
        paid += await this.pass();
      } while (this.again);
      return paid;
    };
    this.running = pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(): Promise<number> {
    const { merges, approvals, log } = this.deps;
    let paid = 0;
    for (const owed of await merges.owed(BATCH)) {
      if (await this.waits(owed)) continue;
      try {
        // With merge: one an approval asked for and did not finish (a crash) is merged first.
        await approvals.approve(owed.founderId, owed.bountyId, `Merged: ${owed.prUrl}`, {
          submissionId: owed.submissionId,
          merge: true,
        });
        paid++;
      } catch (err) {
        if (err instanceof PayoutPendingError) continue;
        if (!(err instanceof AppError)) {
          log.error({ err, submission: owed.submissionId }, 'paying an owed reward failed; will retry');
          continue;
        }
        if (NOT_OURS.has(err.code)) continue;
        if (await merges.recordPayoutFailure(owed, err)) {
          log.warn(
            { submission: owed.submissionId, reason: err.code },
            'an owed reward could not be paid yet',
          );
        }
      }
    }
    return paid;
  }

  /**
   * `waitsAfterReverts`, reading the founder's funds at a revert's block only for a payout that
   * would otherwise wait: the latest revert first (explained, it waits no longer), then the others.
   */
  private async waits(o: OwedPayoutState): Promise<boolean> {
    const now = this.deps.clock.now();
    if (!waitsAfterReverts(o, now)) return false;
    const latest = o.reverted.at(-1);
    if (!latest || (await this.fundsShort(latest))) return false;
    const explained = new Set<string>();
    for (const leg of o.reverted.slice(0, -1)) if (await this.fundsShort(leg)) explained.add(leg.legId);
    return waitsAfterReverts(o, now, explained);
  }

  /**
   * Whether the founder's balance or allowance was below what the reverted transaction takes, at
   * the end of its block (read from the chain there, once per transaction). Unknown (no block, the
   * node cannot read that block's state) counts as not explained: the payout waits as before.
   */
  private async fundsShort(leg: RevertedLeg): Promise<boolean> {
    if (leg.blockNumber === null) return false;
    const key = `${leg.legId}@${leg.blockNumber}`;
    const known = this.shortAt.get(key);
    if (known !== undefined) return known;
    let short: boolean;
    try {
      short = !(await this.deps.funds.coveredAt(
        leg.tokenAddress,
        leg.fromAddress,
        leg.units,
        leg.blockNumber,
      ));
    } catch (err) {
      if (!this.unread.has(key)) {
        this.unread.add(key);
        this.deps.log.warn(
          { err, leg: leg.legId, block: leg.blockNumber.toString() },
          "the founder's funds at a payout's revert could not be read; the payout backs off",
        );
      }
      return false;
    }
    if (this.shortAt.size >= MAX_EXPLANATIONS) {
      this.shortAt.clear();
      this.unread.clear();
    }
    this.shortAt.set(key, short);
    return short;
  }
}
