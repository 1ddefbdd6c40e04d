import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { type ApprovalsService, PayoutPendingError } from './approvals.service.ts';
import type { MergesService } from './merges.service.ts';
import type { OwedPayoutState } from './owed.repo.ts';

export interface OwedPayoutsDeps {
  log: FastifyBaseLogger;
  clock: Clock;
  merges: Pick<MergesService, 'owed' | 'recordPayoutFailure'>;
  approvals: Pick<ApprovalsService, 'approve'>;
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
/** After its payout reverted n times, an owed payout waits 30 s * 2^(n-1) (at most an hour). */
const REVERT_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 3_600_000;

/**
 * A payout that reverted on chain for a reason the funds check cannot see (a token that refuses
 * the transfer, a router whose payer is another key) would revert again: each try costs gas, so
 * tries back off. Funds and wallet refusals cost nothing and are tried every pass.
 */
export function waitsAfterReverts(o: OwedPayoutState, now: Date): boolean {
  if (o.reverts === 0 || o.payoutStatus !== 'failed' || !o.payoutUpdatedAt) return false;
  const wait = Math.min(REVERT_BACKOFF_MS * 2 ** (o.reverts - 1), MAX_BACKOFF_MS);
  return now.getTime() - o.payoutUpdatedAt.getTime() < wait;
}

/**
 * Pays what founders owe: every pending submission whose pull request the founder merged. The
 * merge webhook only records the merge (the reward is owed from then on, durably, on the
 * submission and its bounty) and nudges this job; the job approves as the founder would, pinned
 * to the merged submission, on every instance (the approval lease lets one of them pay). A payout
 * that cannot be made (funds, allowance, wallets, a revert) is told once to both sides as
 * `payout.failed` and tried again on every pass, so it is paid as soon as the funds cover it; a
 * payout still confirming is not a failure and says nothing.
 */
export class OwedPayouts {
  private running: Promise<number> | null = null;
  private again = false;

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
    const { merges, approvals, log, clock } = this.deps;
    let paid = 0;
    for (const owed of await merges.owed(BATCH)) {
      if (waitsAfterReverts(owed, clock.now())) continue;
      try {
        await approvals.approve(owed.founderId, owed.bountyId, `Merged: ${owed.prUrl}`, {
          submissionId: owed.submissionId,
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
}
