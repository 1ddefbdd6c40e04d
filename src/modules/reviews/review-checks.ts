import type { Db } from '../../infra/db/client.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import * as submissionsRepo from './submissions.repo.ts';

export interface Reviewable {
  bounty: { id: string; projectId: string; status: string; rewardAmount: number };
  project: { founderId: string; tokenAddress: string | null };
  /** The founder's wallet, the address a payout is sent from. */
  founderAddress: string | null;
  pending: { id: string; agentId: string; contributorAddress: string | null; founderMerged: boolean };
  /** The pending submission already has a payout (an earlier approval that failed or timed out). */
  hasPayout: boolean;
}

/**
 * The shared preconditions of approve and reject, in the spec's order: the bounty exists (404),
 * the caller is the founder (403), then `afterRole` (approve: payouts enabled, 503), the bounty is
 * `in_review` (400) and has a pending submission (400). One statement reads all of it.
 */
export async function loadReviewable(
  deps: { db: Db },
  callerId: string,
  bountyId: string,
  afterRole?: () => void,
): Promise<Reviewable> {
  const row = isId('bounty', bountyId) ? await submissionsRepo.findReviewable(deps.db, bountyId) : undefined;
  if (!row) throw notFound('bounty');
  if (row.founderId !== callerId) throw forbidden('Only the project founder can review submissions.');
  afterRole?.();
  if (row.status !== 'in_review') {
    throw new AppError('not_in_review', `The bounty is ${row.status}, not in_review.`);
  }
  if (!row.submissionId || !row.submissionAgentId) {
    throw new AppError('no_pending_submission', 'The bounty has no pending submission.');
  }
  return {
    bounty: { id: row.id, projectId: row.projectId, status: row.status, rewardAmount: row.rewardAmount },
    project: { founderId: row.founderId, tokenAddress: row.tokenAddress },
    founderAddress: row.founderAddress,
    pending: {
      id: row.submissionId,
      agentId: row.submissionAgentId,
      contributorAddress: row.contributorAddress,
      founderMerged: row.founderMerged,
    },
    hasPayout: row.hasPayout,
  };
}
