import type { Db } from '../../infra/db/client.ts';
import type { RepoHost } from '../../infra/repo-host/repo-host.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, invalidState } from '../../lib/errors.ts';
import type { BountyState } from '../bounties/bounty-state.ts';
import type { MergesService, PendingMerge } from './merges.service.ts';
import { pullRequestParts } from './pr-report.ts';
import * as submissionsRepo from './submissions.repo.ts';

export interface ApproveMergeDeps {
  db: Db;
  clock: Clock;
  repoHost: Pick<RepoHost, 'mergePullRequest'>;
  bountyState: Pick<BountyState, 'markPaymentOwed' | 'clearPaymentOwed'>;
  merges: Pick<MergesService, 'record'>;
}

/**
 * An approval with `"merge": true`: the pull request is merged on the repository host before
 * anything is paid, and paid once it is merged. Each step is recorded before the next happens:
 * 1. the reward becomes owed (`founder_merged`, `payment_owed`), in one transaction, before the
 *    host is asked: a crash after the host merged still pays (the owed-payouts job approves with
 *    `merge` again and finds it merged);
 * 2. the host merges it, only at the head the founder last saw (`pull_request.head_sha`);
 * 3. a refusal the pull request explains (a conflict, closed, a head pushed since) undoes step 1
 *    and answers 409 `not_mergeable`: nothing is paid; any other failure leaves it owed (502);
 * 4. the merge is recorded with `submission.merged` (by the founder), so the host's webhook for
 *    it, arriving later, records and pays nothing more.
 * Runs under the approval's lease, so one approval of the bounty at a time does this.
 */
export class ApproveMerge {
  constructor(private readonly deps: ApproveMergeDeps) {}

  async mergeFirst(p: Omit<PendingMerge, 'prUrl'>): Promise<void> {
    const { db, clock, repoHost, bountyState } = this.deps;
    const sub = await db.transaction(async (tx) => {
      const row = await submissionsRepo.requestMerge(tx, p.submissionId, clock.now());
      if (row) await bountyState.markPaymentOwed(tx, p.bountyId, clock.now());
      return row;
    });
    if (!sub)
      throw invalidState('The submission under review changed during this approval; nothing was paid.');
    // The host reported it merged (by the founder, or an earlier approval's merge): nothing to ask.
    if (sub.mergedAt) return;
    const { owner, repo, number } = pullRequestParts(sub.prUrl);
    try {
      await repoHost.mergePullRequest(owner, repo, number, { sha: sub.report?.head_sha ?? null });
    } catch (err) {
      if (err instanceof AppError && err.code === 'not_mergeable') {
        await db.transaction(async (tx) => {
          if (await submissionsRepo.undoMergeRequest(tx, p.submissionId, clock.now()))
            await bountyState.clearPaymentOwed(tx, p.bountyId, clock.now());
        });
      }
      throw err;
    }
    await this.deps.merges.record({ ...p, prUrl: sub.prUrl }, null, { forFounder: true });
  }
}
