import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../infra/db/client.ts';
import { parseCommitWebhook, parsePullRequestWebhook } from '../../infra/repo-host/host-webhooks.ts';
import type { RepoHost } from '../../infra/repo-host/repo-host.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { MergesService, PendingMerge } from '../reviews/merges.service.ts';
import type { SubmissionsService } from '../reviews/submissions.service.ts';
import * as repo from './webhooks.repo.ts';

export interface WebhooksDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  repoHost: RepoHost;
  merges: MergesService;
  /** The owed-payouts job: told at once that a founder's merge made a reward owed. */
  owed: { nudge(): void };
  /** Reads the pull-request report of live submissions again when the host reports a change. */
  reports?: Pick<SubmissionsService, 'refreshReports'>;
}

export interface Delivery {
  id: string | undefined;
  event: string | undefined;
  signature: string | undefined;
  rawBody: Buffer;
}

export type WebhookOutcome =
  | { status: 'duplicate' | 'ignored' }
  /** Merged by the founder: the reward is owed, and the owed-payouts job pays it. */
  | { status: 'owed'; bounty_id: string; submission_id: string }
  | { status: 'merged'; bounty_id: string; submission_id: string; merged_by: string | null };

/**
 * The repository host's webhooks. A merged pull request that backs a pending submission is first
 * checked with the host (a signed delivery proves who sent it, not that the merge happened, nor
 * who made it), then recorded; only a merge by the founder makes its reward owed, and the
 * delivery is acknowledged at once: the owed-payouts job approves it exactly as the founder would
 * (same checks, same payout path, same exactly-once guarantees), pinned to the merged submission,
 * and tells both sides if it cannot pay yet. A delivery is recorded only once handled, so a
 * failed one can be redelivered; a handled one is acknowledged again and ignored.
 */
export class WebhooksService {
  constructor(private readonly deps: WebhooksDeps) {}

  async handle(d: Delivery): Promise<WebhookOutcome> {
    const { db, clock, repoHost, merges } = this.deps;
    if (!repoHost.verifyWebhook(d.rawBody, d.signature)) {
      throw new AppError('forbidden', 'The webhook signature does not match.');
    }
    if (!d.id || !d.event)
      throw new AppError('validation_error', 'X-GitHub-Delivery and X-GitHub-Event are required.');
    if (await repo.seen(db, d.id)) return { status: 'duplicate' };
    let outcome: WebhookOutcome = { status: 'ignored' };
    const payload = (): unknown => {
      try {
        return JSON.parse(d.rawBody.toString('utf8'));
      } catch {
        throw new AppError('validation_error', 'The webhook body is not valid JSON.');
      }
    };
    if (d.event === 'pull_request') {
      const pr = parsePullRequestWebhook(payload());
      if (pr.action === 'closed' && pr.merged) {
        const pending = await merges.findPending(pr.htmlUrl);
        if (pending) outcome = await this.merged(pending);
      }
      // New commits, an edit, a close, a reopen or the merge: the founder's report follows.
      await this.refresh({ prUrl: pr.htmlUrl });
    } else if (['status', 'check_run', 'check_suite'].includes(d.event)) {
      const commit = parseCommitWebhook(d.event, payload());
      if (commit) await this.refresh(commit);
    }
    await repo.record(db, d.id, d.event, clock.now());
    return outcome;
  }

  /** A report that cannot be read now is logged; the next change of the pull request reads it. */
  private async refresh(match: Parameters<SubmissionsService['refreshReports']>[0]): Promise<void> {
    try {
      await this.deps.reports?.refreshReports(match);
    } catch (err) {
      this.deps.log.warn({ err, match }, 'refreshing a pull request report failed');
    }
  }

  private async merged(pending: PendingMerge): Promise<WebhookOutcome> {
    const { repoHost, merges, log } = this.deps;
    const ids = { bounty_id: pending.bountyId, submission_id: pending.submissionId };
    // The submission's own URL, not the delivery's fields: the pull request checked is the one paid for.
    const [owner, name, , number] = new URL(pending.prUrl).pathname.split('/').slice(-4);
    const pr = await repoHost.getPullRequest(owner as string, name as string, Number(number));
    if (!pr?.merged) {
      log.warn({ pr: pending.prUrl }, 'merge webhook for a pull request the host does not report merged');
      return { status: 'ignored' };
    }
    const merge = await merges.record(pending, pr.mergedByLogin);
    if (!merge) return { status: 'ignored' };
    if (!merge.byFounder) {
      log.info(
        { pr: pending.prUrl, mergedBy: merge.mergedBy },
        'merged by someone else: waits for the founder',
      );
      return { status: 'merged', ...ids, merged_by: merge.mergedBy };
    }
    log.info({ pr: pending.prUrl, bounty: pending.bountyId }, 'merged by the founder: the reward is owed');
    this.deps.owed.nudge();
    return { status: 'owed', ...ids };
  }
}
