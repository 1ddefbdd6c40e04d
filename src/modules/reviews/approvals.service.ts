import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { DomainEvents } from '../../lib/domain-events.ts';
import { AppError, invalidState } from '../../lib/errors.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { BountiesService } from '../bounties/bounties.service.ts';
import type { BountyState } from '../bounties/bounty-state.ts';
import type { PayoutsService, RepaidListener } from '../payouts/payouts.service.ts';
import type { ProjectsService } from '../projects/projects.service.ts';
import type { ApproveMerge } from './approve-merge.ts';
import { type ApprovalResult, finishApproval } from './finish-approval.ts';
import * as owedRepo from './owed.repo.ts';
import { loadReviewable } from './review-checks.ts';
import { inProgress } from './submissions.service.ts';

export interface ApprovalsDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  activity: ActivityService;
  bounties: BountiesService;
  /** The bounty's approval lease and its move to done, in the bounties module. */
  bountyState: BountyState;
  projects: ProjectsService;
  payouts: PayoutsService;
  /** Told `payout.confirmed` once an approval finished: the founder's funds fell, the bounty no longer counts. */
  events: Pick<DomainEvents, 'publish'>;
  /** The wallet rule (AgentsService.checkWallet): throws 400 for an address that must never be paid. */
  checkWallet: (address: string) => Promise<string>;
  /** `"merge": true`: the pull request merged on the host before anything is paid. */
  merger: Pick<ApproveMerge, 'mergeFirst'>;
  /** How long an approval holds the bounty; another attempt (any instance) gets 409 meanwhile. */
  approvalLeaseMs: number;
  /** How long approve waits for both receipts before answering 502 and leaving the rest to the reconciler. */
  receiptTimeoutMs: number;
}

/** A payout sent but not confirmed within the wait: not a failure, it completes on its own. */
export class PayoutPendingError extends AppError {
  constructor() {
    super(
      'upstream_error',
      'The payout was sent but not confirmed in time; it will complete on its own, or approve again to check.',
    );
  }
}

/** Most a reconciler pass waits on a payout's receipts; never longer than an approval waits. */
const RECONCILE_WAIT_MS = 2_000;

/**
 * Approval and payout of a submission. The founder's approve and the background reconciler take
 * the same path: lease the bounty, drive the payout, and on confirmation finish everything in one
 * transaction (payout confirmed, submission approved, bounty done, event).
 */
export class ApprovalsService {
  constructor(private readonly deps: ApprovalsDeps) {}

  /**
   * A payout a reorg took back and another transaction paid: the approval names that one. The
   * composition root wires it to `PayoutsService.onRepaid` (compose-reviews.ts).
   */
  recordRepaid(r: Parameters<RepaidListener>[0]): Promise<void> {
    return owedRepo.recordRepaid(this.deps.db, r, this.deps.clock.now());
  }

  /**
   * Every 400 of the spec is checked before anything is signed; a failed payout answers 502.
   * `submissionId` pins the submission to pay (an owed payout: the one the founder merged);
   * `replay` (an Idempotency-Key retry of a request that died) answers a finished approval with
   * its outcome instead of 400 `not_in_review`; `merge` merges on the host first (ApproveMerge).
   */
  async approve(
    callerId: string,
    bountyId: string,
    notes: string | undefined,
    opts: { submissionId?: string; replay?: boolean; merge?: boolean } = {},
  ): Promise<ApprovalResult> {
    const { payouts, bountyState } = this.deps;
    let reviewable: Awaited<ReturnType<typeof loadReviewable>>;
    try {
      reviewable = await loadReviewable(this.deps, callerId, bountyId, () => payouts.assertEnabled());
    } catch (err) {
      const paid = opts.replay && err instanceof AppError && err.code === 'not_in_review';
      const result = paid ? await this.paidResult(bountyId) : undefined;
      if (result) return result;
      throw err;
    }
    const { bounty, project, pending, founderAddress, hasPayout } = reviewable;
    if (opts.submissionId && pending.id !== opts.submissionId) {
      throw invalidState('The submission to pay is no longer the one under review; nothing was paid.');
    }
    if (!pending.contributorAddress) {
      throw new AppError(
        'contributor_without_wallet',
        'The contributor has no wallet address to receive the reward.',
      );
    }
    // A wallet stored before the rule existed (zero, platform, a project's contract) is refused
    // before anything is signed: such a leg would revert forever or pay the platform.
    await this.deps.checkWallet(pending.contributorAddress);
    if (!founderAddress || !project.tokenAddress) {
      throw new AppError('founder_without_wallet', 'The founder has no wallet address to pay from.');
    }
    const owner = randomUUID();
    const lease = await this.lease(bountyId, owner);
    if (!lease) throw inProgress();
    let finished = false;
    try {
      // Read with the lease: the founder may have rejected it (and someone else submitted) since.
      if (lease.pendingSubmissionId !== pending.id) {
        throw invalidState('The submission under review changed during this approval; nothing was paid.');
      }
      if (opts.merge) {
        const { projectId, id } = bounty;
        await this.deps.merger.mergeFirst({
          submissionId: pending.id,
          bountyId: id,
          projectId,
          founderId: project.founderId,
          contributorId: pending.agentId,
        });
      }
      const intent = {
        submissionId: pending.id,
        bountyId,
        tokenAddress: project.tokenAddress,
        founderAddress,
        contributorAddress: pending.contributorAddress,
        split: payouts.split(bounty.rewardAmount),
        reviewNotes: notes ?? null,
      };
      const { receiptTimeoutMs, approvalLeaseMs } = this.deps;
      const renew = (tx: Executor) => bountyState.renewApprovalLease(tx, bountyId, owner, approvalLeaseMs);
      const paid = await payouts.pay(intent, { renew }, receiptTimeoutMs, hasPayout);
      if (paid.status === 'reviewed') {
        throw invalidState('The submission was reviewed while this approval ran; nothing was paid.');
      }
      if (paid.status === 'lease_lost') throw inProgress();
      const { payout, result } = paid;
      if (result.status === 'confirmed') {
        const answer = await finishApproval(this.deps, payout, result);
        finished = answer.released;
        return answer.result;
      }
      if (result.status === 'pending') throw new PayoutPendingError();
      throw new AppError(
        'upstream_error',
        `The payout failed on chain (${result.error}); nothing paid twice. Approve again to retry.`,
      );
    } finally {
      // Finishing releases the lease in its own statement; a lease another process took stays.
      if (!finished) await bountyState.releaseApprovalLease(bountyId, owner);
    }
  }

  /** The answer of the bounty's finished approval, for a retry of the request that made it. */
  private async paidResult(bountyId: string): Promise<ApprovalResult | undefined> {
    const paid = await owedRepo.findPaid(this.deps.db, bountyId);
    if (!paid) return undefined;
    return {
      bounty_id: bountyId,
      status: 'done',
      submission_id: paid.id,
      contributor_tx_hash: paid.contributorTxHash,
      platform_fee_tx_hash: paid.platformFeeTxHash,
    };
  }

  /**
   * Drives every unfinished payout to its end: after a crash, a timeout or a dropped transaction.
   * Safe on any number of instances: a payout is only driven under its bounty's lease.
   */
  async reconcile(batch = 100): Promise<number> {
    const { payouts, log } = this.deps;
    let finished = 0;
    try {
      // Paid payouts a reorg took back for good (the engine puts back what it can): signed again.
      await payouts.resignLost();
    } catch (err) {
      log.error({ err }, 'signing again payouts a reorg took back failed; will retry');
    }
    for (const payout of await payouts.unfinished(batch)) {
      const owner = randomUUID();
      const lease = await this.lease(payout.bountyId, owner);
      if (!lease) continue;
      let released = false;
      try {
        // A payout whose submission was rejected (possible while none of its legs was signed)
        // must never move money, even once the bounty is back in review with a new submission.
        if (lease.pendingSubmissionId !== payout.submissionId) {
          if (await payouts.abandon(payout.id, 'the submission is no longer pending')) continue;
          log.error(
            { payout: payout.id },
            'a payout with transactions on chain belongs to a reviewed submission',
          );
          continue;
        }
        const result = await payouts.drive(
          payout.id,
          Math.min(RECONCILE_WAIT_MS, this.deps.receiptTimeoutMs),
        );
        if (result.status === 'confirmed') {
          released = (await finishApproval(this.deps, payout, result)).released;
          finished++;
        } else if (result.status === 'failed') {
          log.warn(
            { payout: payout.id, error: result.error },
            'payout failed on chain; the founder can approve again',
          );
        }
      } catch (err) {
        log.error({ err, payout: payout.id }, 'reconciling a payout failed; will retry');
      } finally {
        if (!released) await this.deps.bountyState.releaseApprovalLease(payout.bountyId, owner);
      }
    }
    return finished;
  }

  /**
   * The bounty's approval lease for `owner` (a fencing token: renew and release match it), with
   * the submission pending as it was taken; undefined while another holds a live one.
   */
  private lease(bountyId: string, owner: string) {
    return this.deps.bountyState.takeApprovalLease(bountyId, owner, this.deps.approvalLeaseMs);
  }
}
