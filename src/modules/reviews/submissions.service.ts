import type { Db, Executor } from '../../infra/db/client.ts';
import { uniqueViolation } from '../../infra/db/errors.ts';
import type { RepoHost } from '../../infra/repo-host/repo-host.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, forbidden, invalidState, paymentOwed } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { AgentDirectory } from '../agents/agent-directory.ts';
import { toSubmissionJson } from '../bounties/bounties.mappers.ts';
import type { SubmissionJson } from '../bounties/bounties.schemas.ts';
import type { BountiesService } from '../bounties/bounties.service.ts';
import type { BountyState } from '../bounties/bounty-state.ts';
import type { PayoutsService } from '../payouts/payouts.service.ts';
import type { ProjectsService } from '../projects/projects.service.ts';
import { pullRequestParts, readReport, reviewedHeadOf } from './pr-report.ts';
import { changesSince } from './review-changes.ts';
import { loadReviewable } from './review-checks.ts';
import { reviewQueue } from './review-queue.ts';
import type { ReviewQueueJson, ReviewQueueQuery, SubmissionChangesJson } from './reviews.schemas.ts';
import * as submissionsRepo from './submissions.repo.ts';

export interface SubmissionsDeps {
  db: Db;
  clock: Clock;
  activity: ActivityService;
  bounties: BountiesService;
  /** The bounty's review moves (submit, reject), in the bounties module. */
  bountyState: BountyState;
  projects: ProjectsService;
  agents: AgentDirectory;
  payouts: PayoutsService;
  repoHost: RepoHost;
  /** REVISION_HOURS: how long the claimant has to submit again after a request for changes. */
  revisionHours: number;
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

/** Submitting work, and the founder rejecting it (approval lives in approvals.service.ts). */
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
    // Whoever opened the pull request is paid for it: only its author may submit it.
    const { repoLogin } = await this.deps.agents.require(agentId);
    if (!repoLogin) {
      throw new AppError(
        'repo_identity_required',
        'Link your repository host account first (POST /api/agents/me/repo-identity): ' +
          'a pull request is accepted only from its author.',
      );
    }
    const pr = await this.requireAuthoredPullRequest(url, repoLogin);
    // What the founder will see: the pull request and its checks, as the host reports them now.
    const founder = await this.deps.agents.require(project.founderId);
    const read = await readReport(this.deps.repoHost, url, founder.repoLogin, pr);
    // A resubmission shows the founder what changed since the head it sent back.
    const reviewedHead = reviewedHeadOf(await submissionsRepo.latestOfAgent(db, bountyId, agentId));
    const report = read && reviewedHead ? { ...read, reviewed_head_sha: reviewedHead } : read;
    const now = clock.now();
    try {
      const created = await db.transaction(async (tx) => {
        const moved = await this.deps.bountyState.startReview(tx, bountyId, agentId, now);
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
          mergedAt: null,
          mergedBy: null,
          founderMerged: false,
          payoutFailedReason: null,
          pullRequest: report,
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
      if (uniqueViolation(err) === 'submissions_pr_url_live_key') {
        throw new AppError('pr_already_submitted', 'That pull request already backs a submission.');
      }
      throw err;
    }
  }

  /** The pull request must exist on the host, be open or merged, and be the caller's own. */
  private async requireAuthoredPullRequest(url: string, repoLogin: string) {
    const { owner, repo: repoName, number } = pullRequestParts(url);
    const pr = await this.deps.repoHost.getPullRequest(owner, repoName, number);
    if (!pr) throw new AppError('invalid_pr_url', `There is no pull request at ${url}.`);
    if (pr.state === 'closed' && !pr.merged) {
      throw new AppError('invalid_pr_url', 'That pull request was closed without being merged.');
    }
    // Host logins are case-insensitive, as GitHub's are.
    if (pr.authorLogin.toLowerCase() !== repoLogin.toLowerCase()) {
      throw new AppError(
        'pr_author_mismatch',
        `That pull request was opened by ${pr.authorLogin}, not by you (${repoLogin}); submit your own pull request.`,
      );
    }
    return pr;
  }

  /**
   * The founder sends the pending submission back: it becomes `changes_requested` and the bounty
   * returns to `claimed` by the same claimant until `revision_due_at`. Refused like a reject: not
   * the founder 403, not in review 400, merged by the founder 409 `payment_owed`.
   */
  async requestChanges(callerId: string, bountyId: string, notes: string) {
    const { db, clock, activity } = this.deps;
    const { bounty, pending } = await loadReviewable(this.deps, callerId, bountyId);
    if (pending.founderMerged) throw paymentOwed();
    const now = clock.now();
    const due = new Date(now.getTime() + this.deps.revisionHours * 3_600_000);
    await db.transaction(async (tx) => {
      const payout = await this.deps.payouts.closeForReject(tx, pending.id);
      if (payout === 'paying') {
        throw invalidState('A payout of this submission has started; approve again to finish it instead.');
      }
      const sent = await submissionsRepo.closeReview(tx, pending.id, 'changes_requested', {
        reviewNotes: notes,
        reviewedAt: now,
        updatedAt: now,
      });
      if (!sent) {
        const still = await submissionsRepo.findPending(tx, bountyId);
        if (still?.id === pending.id && still.founderMerged) throw paymentOwed();
        throw invalidState('The submission was reviewed by another request.');
      }
      if (!(await this.deps.bountyState.returnForChanges(tx, bountyId, now, due))) throw inProgress();
      await activity.record(tx, {
        type: 'submission.changes_requested',
        agentId: pending.agentId,
        projectId: bounty.projectId,
        bountyId,
        data: { submission_id: pending.id, review_notes: notes, revision_due_at: due.toISOString() },
      });
    });
    return {
      bounty_id: bountyId,
      status: 'claimed' as const,
      submission_id: pending.id,
      revision_due_at: due.toISOString(),
    };
  }

  /** The founder's review queue, a page of it (see review-queue.ts): the one read every surface shows. */
  queue(founderId: string, page: ReviewQueueQuery): Promise<ReviewQueueJson> {
    const { db, payouts, bounties } = this.deps;
    const ethUsd = () => bounties.ethUsd();
    return reviewQueue({ db, payouts, platformFeeBps: bounties.platformFeeBps, ethUsd }, founderId, page);
  }

  /** What changed on a resubmission since the founder's last review (see review-changes.ts). */
  changesSince(callerId: string, bountyId: string, submissionId: string): Promise<SubmissionChangesJson> {
    return changesSince(this.deps, callerId, bountyId, submissionId);
  }

  /** The files of a submission's pull request with their patches, from the host (for review). */
  filesOf(prUrl: string) {
    const { owner, repo, number } = pullRequestParts(prUrl);
    return this.deps.repoHost.listPullRequestFiles(owner, repo, number);
  }

  /**
   * The host reported a change (new commits, checks, a close, a merge): the report of every live
   * submission of that pull request, or of that head commit, is read again and stored.
   */
  async refreshReports(match: { prUrl: string } | { repositoryFullName: string; sha: string }) {
    const rows = await submissionsRepo.liveForReport(this.deps.db, match);
    for (const row of rows) {
      const founderLogin = await this.founderLoginOf(row.bountyId);
      const report = await readReport(this.deps.repoHost, row.prUrl, founderLogin);
      if (report) await submissionsRepo.storeReport(this.deps.db, row.id, report, this.deps.clock.now());
    }
    return rows.length;
  }

  /** The host login of the founder of the bounty's project: whose statuses a report counts. */
  async founderLoginOf(bountyId: string): Promise<string | null> {
    const bounty = await this.deps.bounties.require(bountyId);
    const project = await this.deps.projects.require(bounty.projectId);
    return (await this.deps.agents.require(project.founderId)).repoLogin;
  }

  /** The pending submission a merged pull request backs, with who may approve it. */
  async findPendingByPrUrl(prUrl: string): Promise<{ bountyId: string; founderId: string } | null> {
    const sub = await submissionsRepo.findPendingByPrUrl(this.deps.db, prUrl);
    if (!sub) return null;
    const bounty = await this.deps.bounties.require(sub.bountyId);
    const project = await this.deps.projects.require(bounty.projectId);
    return { bountyId: bounty.id, founderId: project.founderId };
  }

  async reject(callerId: string, bountyId: string, notes: string) {
    const { db, clock, activity } = this.deps;
    const { bounty, pending } = await loadReviewable(this.deps, callerId, bountyId);
    // Once the founder merged it the reward is owed, whatever happens to its payout.
    if (pending.founderMerged) throw paymentOwed();
    const now = clock.now();
    await db.transaction(async (tx) => {
      // Checked under the payout's row lock, which signing takes too: no leg can appear meanwhile.
      const payout = await this.deps.payouts.closeForReject(tx, pending.id);
      if (payout === 'paying') {
        throw invalidState('A payout of this submission has started; approve again to finish it instead.');
      }
      const rejected = await submissionsRepo.closeReview(tx, pending.id, 'rejected', {
        reviewNotes: notes,
        reviewedAt: now,
        updatedAt: now,
      });
      if (!rejected) {
        const still = await submissionsRepo.findPending(tx, bountyId);
        if (still?.id === pending.id && still.founderMerged) throw paymentOwed();
        throw invalidState('The submission was reviewed by another request.');
      }
      const reopened = await this.deps.bountyState.reopenRejected(tx, bountyId, now);
      if (!reopened) throw inProgress();
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
}

/** The payouts module's port to a submission's row lock (wired in compose.ts): its status, locked. */
export const lockSubmissionStatus = (tx: Executor, submissionId: string) =>
  submissionsRepo.lockStatus(tx, submissionId);

export const inProgress = () =>
  new AppError(
    'operation_in_progress',
    'An approval of this bounty is already in progress; try again shortly.',
  );
