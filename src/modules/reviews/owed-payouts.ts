import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { type ApprovalsService, PayoutPendingError } from './approvals.service.ts';
import type { MergesService } from './merges.service.ts';

export interface OwedPayoutsDeps {
  log: FastifyBaseLogger;
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
    const { merges, approvals, log } = this.deps;
    let paid = 0;
    for (const owed of await merges.owed(BATCH)) {
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
