import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../infra/db/client.ts';
import { parsePullRequestWebhook, type RepoHost } from '../../infra/repo-host/repo-host.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { ApprovalsService } from '../reviews/approvals.service.ts';
import type { SubmissionsService } from '../reviews/submissions.service.ts';
import * as repo from './webhooks.repo.ts';

export interface WebhooksDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  repoHost: RepoHost;
  submissions: SubmissionsService;
  approvals: ApprovalsService;
}

export interface Delivery {
  id: string | undefined;
  event: string | undefined;
  signature: string | undefined;
  rawBody: Buffer;
}

export type WebhookOutcome =
  | { status: 'duplicate' | 'ignored' }
  | {
      status: 'approved';
      bounty_id: string;
      submission_id: string;
      contributor_tx_hash: string;
      platform_fee_tx_hash: string;
    };

/**
 * The repository host's webhooks. A merged pull request that backs a pending submission is
 * approved exactly as the founder would approve it: same checks, same payout path, same
 * exactly-once guarantees. A delivery is recorded only once handled, so a failed one can be
 * redelivered; a handled one is acknowledged again and ignored.
 */
export class WebhooksService {
  constructor(private readonly deps: WebhooksDeps) {}

  async handle(d: Delivery): Promise<WebhookOutcome> {
    const { db, clock, repoHost, submissions, approvals, log } = this.deps;
    if (!repoHost.verifyWebhook(d.rawBody, d.signature)) {
      throw new AppError('forbidden', 'The webhook signature does not match.');
    }
    if (!d.id || !d.event)
      throw new AppError('validation_error', 'X-GitHub-Delivery and X-GitHub-Event are required.');
    if (await repo.seen(db, d.id)) return { status: 'duplicate' };
    let outcome: WebhookOutcome = { status: 'ignored' };
    if (d.event === 'pull_request') {
      let payload: unknown;
      try {
        payload = JSON.parse(d.rawBody.toString('utf8'));
      } catch {
        throw new AppError('validation_error', 'The webhook body is not valid JSON.');
      }
      const pr = parsePullRequestWebhook(payload);
      if (pr.action === 'closed' && pr.merged) {
        const pending = await submissions.findPendingByPrUrl(pr.htmlUrl);
        if (pending) {
          log.info(
            { pr: pr.htmlUrl, bounty: pending.bountyId },
            'merged pull request: approving its submission',
          );
          const approved = await approvals.approve(
            pending.founderId,
            pending.bountyId,
            `Merged: ${pr.htmlUrl}`,
          );
          outcome = { ...approved, status: 'approved' };
        }
      }
    }
    await repo.record(db, d.id, d.event, clock.now());
    return outcome;
  }
}
