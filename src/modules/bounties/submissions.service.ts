import type { Db } from '../../infra/db/client.ts';
import { uniqueViolation } from '../../infra/db/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, forbidden, invalidState } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { AgentsService } from '../agents/agents.service.ts';
import type { PayoutsService } from '../payouts/payouts.service.ts';
import type { ProjectsService } from '../projects/projects.service.ts';
import { toSubmissionJson } from './bounties.mappers.ts';
import * as repo from './bounties.repo.ts';
import type { SubmissionJson } from './bounties.schemas.ts';
import type { BountiesService } from './bounties.service.ts';
import * as submissionsRepo from './submissions.repo.ts';

export interface SubmissionsDeps {
  db: Db;
  clock: Clock;
  activity: ActivityService;
  bounties: BountiesService;
  projects: ProjectsService;
  agents: AgentsService;
  payouts: PayoutsService;
  /** How long an approval may hold a bounty before another attempt may take over. */
  approvalLeaseMs: number;
}

/** `{repo_url}/pull/{n}` of the project's repository, in canonical form, or null. */
export function canonicalPrUrl(repoUrl: string, prUrl: string): string | null {
  const base = repoUrl.replace(/\/+$/, '');
  const trimmed = prUrl.trim().replace(/\/+$/, '');
  const prefix = `${base}/pull/`;
  if (trimmed.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) return null;
  const n = trimmed.slice(prefix.length);
  return /^[1-9][0-9]{0,9}$/.test(n) ? `${prefix}${n}` : null;
}

/** Submitting work and the founder's review of it: reject, or approve and pay. */
export class SubmissionsService {
  constructor(private readonly deps: SubmissionsDeps) {}

  async submit(agentId: string, bountyId: string, prUrl: string): Promise<SubmissionJson> {
    const { db, clock, activity, bounties, projects } = this.deps;
    const bounty = await bounties.require(bountyId);
    // An unclaimed bounty has no claimant to compare against: the state, not the role, is wrong.
    if (bounty.claimedBy === null)
      throw invalidState('Work can be submitted only while the bounty is claimed.');
    if (bounty.claimedBy !== agentId)
      throw forbidden('Only the agent that claimed this bounty can submit to it.');
    if (bounty.status !== 'claimed')
      throw invalidState('Work can be submitted only while the bounty is claimed.');
    if (await bounties.expireLapsedClaim(bountyId)) {
      throw invalidState('Your claim lapsed before this submission; the bounty is open again.');
    }
    const project = await projects.require(bounty.projectId);
    const url = project.repoUrl ? canonicalPrUrl(project.repoUrl, prUrl) : null;
    if (!url) {
      throw new AppError(
        'invalid_pr_url',
        `pr_url must be a pull request of the project's repository: ${project.repoUrl ?? '(none)'}/pull/{number}.`,
      );
    }
    const now = clock.now();
    try {
      const created = await db.transaction(async (tx) => {
        const moved = await repo.transition(
          tx,
          bountyId,
          'claimed',
          { status: 'in_review', updatedAt: now },
          repo.claimedBy(agentId),
        );
        if (!moved) throw invalidState('Work can be submitted only while the bounty is claimed.');
        const row = await submissionsRepo.insert(tx, {
          id: newId('submission'),
          bountyId,
          agentId,
          prUrl: url,
          status: 'pending',
          reviewNotes: null,
          contributorTxHash: null,
          platformFeeTxHash: null,
          rewardUnits: null,
          feeUnits: null,
          createdAt: now,
          reviewedAt: null,
          updatedAt: now,
        });
        await activity.record(tx, {
          type: 'submission.created',
          agentId,
          projectId: bounty.projectId,
          bountyId,
          data: { submission_id: row.id, pr_url: url },
        });
        return row;
      });
      return toSubmissionJson(created);
    } catch (err) {
      if (uniqueViolation(err) === 'submissions_pr_url_key') {
        throw new AppError('pr_already_submitted', 'That pull request already backs a submission.');
      }
      throw err;
    }
  }

  async reject(callerId: string, bountyId: string, notes: string) {
    const { db, clock, activity } = this.deps;
    const { bounty, pending } = await this.reviewable(callerId, bountyId);
    const now = clock.now();
    await db.transaction(async (tx) => {
      const reopened = await repo.transition(
        tx,
        bountyId,
        'in_review',
        { status: 'open', claimedBy: null, claimedAt: null, updatedAt: now },
        repo.leaseFree(now),
      );
      if (!reopened) throw inProgress();
      const rejected = await submissionsRepo.review(tx, pending.id, {
        status: 'rejected',
        reviewNotes: notes,
        reviewedAt: now,
        updatedAt: now,
      });
      if (!rejected) throw invalidState('The submission was reviewed by another request.');
      await activity.record(tx, {
        type: 'submission.rejected',
        agentId: pending.agentId,
        projectId: bounty.projectId,
        bountyId,
        data: { submission_id: pending.id, review_notes: notes },
      });
    });
    return { bounty_id: bountyId, status: 'open' as const, submission_id: pending.id };
  }

  /**
   * Every 400 of the spec is checked before the lease is taken and anything is sent; the lease
   * makes a concurrent approval (on any instance) a 409; a failed payout gives the lease back so
   * the founder can retry.
   */
  async approve(callerId: string, bountyId: string, notes: string | undefined) {
    const { db, clock, activity, agents, payouts, approvalLeaseMs } = this.deps;
    const { bounty, project, pending } = await this.reviewable(callerId, bountyId, () =>
      payouts.assertEnabled(),
    );
    const contributor = await agents.wallet(pending.agentId);
    if (!contributor.address) {
      throw new AppError(
        'contributor_without_wallet',
        'The contributor has no wallet address to receive the reward.',
      );
    }
    const founder = await agents.wallet(callerId);
    if (!founder.address || !project.tokenAddress) {
      throw new AppError('founder_without_wallet', 'The founder has no wallet address to pay from.');
    }
    const now = clock.now();
    const leased = await repo.takeLease(db, bountyId, now, new Date(now.getTime() + approvalLeaseMs));
    if (!leased) throw inProgress();
    const split = payouts.split(bounty.rewardAmount);
    let paid: Awaited<ReturnType<PayoutsService['pay']>>;
    try {
      await payouts.assertFunds(project.tokenAddress, founder.address, split.rewardUnits);
      paid = await payouts.pay({
        submissionId: pending.id,
        tokenAddress: project.tokenAddress,
        founderAddress: founder.address,
        contributorAddress: contributor.address,
        split,
      });
    } catch (err) {
      await repo.releaseLease(db, bountyId);
      throw err;
    }
    const done = clock.now();
    await db.transaction(async (tx) => {
      await submissionsRepo.review(tx, pending.id, {
        status: 'approved',
        reviewNotes: notes ?? null,
        contributorTxHash: paid.contributorTxHash,
        platformFeeTxHash: paid.platformFeeTxHash,
        rewardUnits: split.rewardUnits,
        feeUnits: split.feeUnits,
        reviewedAt: done,
        updatedAt: done,
      });
      await repo.transition(tx, bountyId, 'in_review', {
        status: 'done',
        approvalLeaseUntil: null,
        updatedAt: done,
      });
      await activity.record(tx, {
        type: 'submission.approved',
        agentId: pending.agentId,
        projectId: bounty.projectId,
        bountyId,
        data: {
          submission_id: pending.id,
          reward_units: split.rewardUnits.toString(),
          fee_units: split.feeUnits.toString(),
          contributor_tx_hash: paid.contributorTxHash,
          platform_fee_tx_hash: paid.platformFeeTxHash,
        },
      });
    });
    return {
      bounty_id: bountyId,
      status: 'done' as const,
      submission_id: pending.id,
      contributor_tx_hash: paid.contributorTxHash,
      platform_fee_tx_hash: paid.platformFeeTxHash,
    };
  }

  /** The shared preconditions of approve and reject: founder, `in_review`, a pending submission. */
  private async reviewable(callerId: string, bountyId: string, afterRole?: () => void) {
    const { bounties, projects, db } = this.deps;
    const bounty = await bounties.require(bountyId);
    const project = await projects.require(bounty.projectId);
    if (project.founderId !== callerId) throw forbidden('Only the project founder can review submissions.');
    afterRole?.();
    if (bounty.status !== 'in_review') {
      throw new AppError('not_in_review', `The bounty is ${bounty.status}, not in_review.`);
    }
    const pending = await submissionsRepo.findPending(db, bountyId);
    if (!pending) throw new AppError('no_pending_submission', 'The bounty has no pending submission.');
    return { bounty, project, pending };
  }
}

const inProgress = () =>
  new AppError(
    'operation_in_progress',
    'An approval of this bounty is already in progress; try again shortly.',
  );
