import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, invalidState } from '../../lib/errors.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { AgentDirectory } from '../agents/agent-directory.ts';
import * as repo from '../bounties/bounties.repo.ts';
import type { BountiesService } from '../bounties/bounties.service.ts';
import type { PayabilityService } from '../payability/payability.service.ts';
import type { DriveResult, Payout, PayoutsService } from '../payouts/payouts.service.ts';
import type { ProjectsService } from '../projects/projects.service.ts';
import { loadReviewable } from './review-checks.ts';
import * as submissionsRepo from './submissions.repo.ts';
import { inProgress } from './submissions.service.ts';

export interface ApprovalsDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  activity: ActivityService;
  bounties: BountiesService;
  projects: ProjectsService;
  agents: AgentDirectory;
  payouts: PayoutsService;
  /** Told once a payout is recorded: the founder's funds fell and the bounty no longer counts. */
  payability: Pick<PayabilityService, 'afterChange'>;
  /** The wallet rule (AgentsService.checkWallet): throws 400 for an address that must never be paid. */
  checkWallet: (address: string) => Promise<string>;
  /** How long an approval holds the bounty; another attempt (any instance) gets 409 meanwhile. */
  approvalLeaseMs: number;
  /** How long approve waits for both receipts before answering 502 and leaving the rest to the reconciler. */
  receiptTimeoutMs: number;
}

export interface ApprovalResult {
  bounty_id: string;
  status: 'done';
  submission_id: string;
  contributor_tx_hash: string;
  platform_fee_tx_hash: string;
}

/** How long one reconciler pass waits on a payout's receipts before moving to the next. */
const RECONCILE_WAIT_MS = 2_000;

/**
 * Approval and payout of a submission. The founder's approve and the background reconciler take
 * the same path: lease the bounty, drive the payout, and on confirmation finish everything in one
 * transaction (payout confirmed, submission approved, bounty done, event).
 */
export class ApprovalsService {
  constructor(private readonly deps: ApprovalsDeps) {}

  /** Every 400 of the spec is checked before anything is signed; a failed payout answers 502. */
  async approve(callerId: string, bountyId: string, notes: string | undefined): Promise<ApprovalResult> {
    const { db, agents, payouts } = this.deps;
    const { bounty, project, pending } = await loadReviewable(this.deps, callerId, bountyId, () =>
      payouts.assertEnabled(),
    );
    const contributor = await agents.wallet(pending.agentId);
    if (!contributor.address) {
      throw new AppError(
        'contributor_without_wallet',
        'The contributor has no wallet address to receive the reward.',
      );
    }
    // A wallet stored before the rule existed (zero, platform, a project's contract) is refused
    // before anything is signed: such a leg would revert forever or pay the platform.
    await this.deps.checkWallet(contributor.address);
    const founder = await agents.wallet(callerId);
    if (!founder.address || !project.tokenAddress) {
      throw new AppError('founder_without_wallet', 'The founder has no wallet address to pay from.');
    }
    if (!(await this.lease(bountyId))) throw inProgress();
    try {
      // Read before the lease: the founder may have rejected it (and someone else submitted) since.
      if ((await submissionsRepo.findPending(db, bountyId))?.id !== pending.id) {
        throw invalidState('The submission under review changed during this approval; nothing was paid.');
      }
      const intent = {
        submissionId: pending.id,
        bountyId,
        tokenAddress: project.tokenAddress,
        founderAddress: founder.address,
        contributorAddress: contributor.address,
        split: payouts.split(bounty.rewardAmount),
        reviewNotes: notes ?? null,
      };
      await payouts.assertCovers(intent);
      const payout = await payouts.prepare(intent);
      const result = await payouts.drive(payout.id, this.deps.receiptTimeoutMs);
      if (result.status === 'confirmed') return await this.finish(payout, result);
      throw new AppError(
        'upstream_error',
        result.status === 'failed'
          ? `The payout failed on chain (${result.error}); nothing paid twice. Approve again to retry the unpaid part.`
          : 'The payout was sent but not confirmed in time; it will complete on its own, or approve again to check.',
      );
    } finally {
      await repo.releaseLease(db, bountyId);
    }
  }

  /**
   * Drives every unfinished payout to its end: after a crash, a timeout or a dropped transaction.
   * Safe on any number of instances: a payout is only driven under its bounty's lease.
   */
  async reconcile(batch = 100): Promise<number> {
    const { payouts, log } = this.deps;
    let finished = 0;
    try {
      // First what the chain lost under the ledger (a rolled-back dev chain): the payouts below wait on it.
      await payouts.repairLedger();
    } catch (err) {
      log.error({ err }, 'repairing the payout ledger failed; will retry');
    }
    for (const payout of await payouts.unfinished(batch)) {
      if (!(await this.lease(payout.bountyId))) continue;
      try {
        // A payout whose submission was rejected (possible while none of its legs was signed)
        // must never move money, even once the bounty is back in review with a new submission.
        const pending = await submissionsRepo.findPending(this.deps.db, payout.bountyId);
        if (pending?.id !== payout.submissionId) {
          if (await payouts.abandon(payout.id, 'the submission is no longer pending')) continue;
          log.error({ payout: payout.id }, 'a payout with legs on chain belongs to a reviewed submission');
          continue;
        }
        const result = await payouts.drive(payout.id, RECONCILE_WAIT_MS);
        if (result.status === 'confirmed') {
          await this.finish(payout, result);
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
        await repo.releaseLease(this.deps.db, payout.bountyId);
      }
    }
    return finished;
  }

  private async lease(bountyId: string): Promise<boolean> {
    const now = this.deps.clock.now();
    return (
      (await repo.takeLease(
        this.deps.db,
        bountyId,
        now,
        new Date(now.getTime() + this.deps.approvalLeaseMs),
      )) !== undefined
    );
  }

  private async finish(
    payout: Payout,
    paid: Extract<DriveResult, { status: 'confirmed' }>,
  ): Promise<ApprovalResult> {
    const { db, clock, activity, payouts } = this.deps;
    const done = clock.now();
    const projectId = await db.transaction(async (tx) => {
      // Whoever confirms the payout finishes the approval; a second finisher changes nothing.
      if (!(await payouts.confirm(tx, payout.id))) return null;
      const submission = await submissionsRepo.review(tx, payout.submissionId, {
        status: 'approved',
        reviewNotes: payout.reviewNotes,
        contributorTxHash: paid.contributorTxHash,
        platformFeeTxHash: paid.platformFeeTxHash,
        rewardUnits: payout.rewardUnits,
        feeUnits: payout.feeUnits,
        reviewedAt: done,
        updatedAt: done,
      });
      // Never mark the bounty done for a submission that is not the one paid.
      if (!submission)
        throw new Error(`Submission ${payout.submissionId} of payout ${payout.id} is not pending.`);
      // Paid: a done bounty is payable whatever the founder holds now, and no longer counts.
      const bounty = await repo.transition(tx, payout.bountyId, 'in_review', {
        status: 'done',
        approvalLeaseUntil: null,
        payable: true,
        updatedAt: done,
      });
      await activity.record(tx, {
        type: 'submission.approved',
        agentId: submission.agentId,
        projectId: bounty?.projectId ?? null,
        bountyId: payout.bountyId,
        data: {
          submission_id: payout.submissionId,
          reward_units: payout.rewardUnits.toString(),
          fee_units: payout.feeUnits.toString(),
          contributor_tx_hash: paid.contributorTxHash,
          platform_fee_tx_hash: paid.platformFeeTxHash,
        },
      });
      return bounty?.projectId ?? null;
    });
    if (projectId) await this.deps.payability.afterChange(projectId);
    return {
      bounty_id: payout.bountyId,
      status: 'done',
      submission_id: payout.submissionId,
      contributor_tx_hash: paid.contributorTxHash,
      platform_fee_tx_hash: paid.platformFeeTxHash,
    };
  }
}
