import type { Db } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AppError } from '../../lib/errors.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { AgentDirectory } from '../agents/agent-directory.ts';
import type { BountiesService } from '../bounties/bounties.service.ts';
import type { BountyState } from '../bounties/bounty-state.ts';
import type { ProjectsService } from '../projects/projects.service.ts';
import type { OwedPayoutState, OwedSubmission } from './owed.repo.ts';
import * as owedRepo from './owed.repo.ts';
import * as submissionsRepo from './submissions.repo.ts';

export interface MergesDeps {
  db: Db;
  clock: Clock;
  activity: ActivityService;
  bounties: BountiesService;
  bountyState: Pick<BountyState, 'markPaymentOwed'>;
  projects: ProjectsService;
  agents: AgentDirectory;
}

/** A pending submission whose pull request the host reports merged, with who is concerned. */
export type PendingMerge = OwedSubmission;

export interface RecordedMerge {
  mergedBy: string | null;
  /** Only a merge by the founder's `repo_login` makes the reward owed and approves on its own. */
  byFounder: boolean;
}

/** Host logins are case-insensitive; a founder without a login never matches. */
export const sameLogin = (a: string | null, b: string | null): boolean =>
  a !== null && b !== null && a.toLowerCase() === b.toLowerCase();

/**
 * What a merge of a submission's pull request means for the marketplace: recorded once on the
 * submission and in the public feed, and owed by the founder only when the founder merged it.
 * The caller (the host's webhook) has checked the merge with the host.
 */
export class MergesService {
  constructor(private readonly deps: MergesDeps) {}

  /** The pending submission a pull request backs, or null. */
  async findPending(prUrl: string): Promise<PendingMerge | null> {
    const sub = await submissionsRepo.findPendingByPrUrl(this.deps.db, prUrl);
    if (!sub) return null;
    const bounty = await this.deps.bounties.require(sub.bountyId);
    const project = await this.deps.projects.require(bounty.projectId);
    return {
      submissionId: sub.id,
      bountyId: bounty.id,
      projectId: project.id,
      founderId: project.founderId,
      contributorId: sub.agentId,
      prUrl: sub.prUrl,
    };
  }

  /**
   * Records the merge and `submission.merged`, in one transaction. A merge already recorded (a
   * second delivery) answers what was recorded then; null once the submission is not pending.
   * `forFounder`: the platform merged it at the founder's approval (`ApproveMerge`).
   */
  async record(
    p: PendingMerge,
    mergedBy: string | null,
    opts: { forFounder?: boolean } = {},
  ): Promise<RecordedMerge | null> {
    const { db, clock, activity, agents } = this.deps;
    const founder = await agents.require(p.founderId);
    const byFounder = opts.forFounder === true || sameLogin(founder.repoLogin, mergedBy);
    const now = clock.now();
    return db.transaction(async (tx) => {
      const row = await submissionsRepo.recordMerge(tx, p.submissionId, {
        mergedAt: now,
        mergedBy,
        founderMerged: byFounder,
        updatedAt: now,
      });
      if (!row) {
        const pending = await submissionsRepo.findPending(tx, p.bountyId);
        if (pending?.id !== p.submissionId) return null;
        return { mergedBy: pending.mergedBy, byFounder: pending.founderMerged };
      }
      // As recorded: the host's webhook of a merge an approval asked for is the founder's (recordMerge).
      const recorded = { mergedBy: row.mergedBy, byFounder: row.founderMerged };
      // Owed from here on, in the merge's own transaction: the owed-payouts job pays it.
      if (recorded.byFounder) await this.deps.bountyState.markPaymentOwed(tx, p.bountyId, now);
      await activity.record(tx, {
        type: 'submission.merged',
        agentId: p.contributorId,
        projectId: p.projectId,
        bountyId: p.bountyId,
        data: {
          submission_id: p.submissionId,
          pr_url: p.prUrl,
          merged_by: recorded.mergedBy,
          by_founder: recorded.byFounder,
        },
      });
      return recorded;
    });
  }

  /** Pending submissions the founder merged and nobody has paid yet, oldest first. */
  owed(limit: number): Promise<OwedPayoutState[]> {
    return owedRepo.owed(this.deps.db, limit);
  }

  /**
   * An owed payout that could not be made: the founder and the contributor are told why, once per
   * reason (a pass that fails the same way again says nothing), with the event's webhook outbox
   * rows in the same transaction. False when nothing was recorded.
   */
  async recordPayoutFailure(p: OwedSubmission, err: AppError): Promise<boolean> {
    const { db, activity, clock } = this.deps;
    return db.transaction(async (tx) => {
      if (!(await owedRepo.setPayoutFailure(tx, p.submissionId, err.code, clock.now()))) return false;
      await activity.record(tx, {
        type: 'payout.failed',
        recipients: [p.founderId, p.contributorId],
        agentId: p.founderId,
        projectId: p.projectId,
        bountyId: p.bountyId,
        data: { submission_id: p.submissionId, reason: err.code, message: err.message },
      });
      return true;
    });
  }
}
