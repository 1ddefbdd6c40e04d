import type { Db } from '../../infra/db/client.ts';
import { toBountyJson, toSubmissionJson } from '../bounties/bounties.mappers.ts';
import type { PayoutsService } from '../payouts/payouts.service.ts';
import * as queueRepo from './review-queue.repo.ts';
import type { ReviewQueueJson, ReviewQueueQuery } from './reviews.schemas.ts';

export interface ReviewQueueDeps {
  db: Db;
  payouts: PayoutsService;
  /** PLATFORM_FEE_BPS, for the bounty's `reward_eth_units` (the contributor's share, quoted). */
  platformFeeBps: number;
}

/**
 * The founder's review queue, the one read behind `GET /api/reviews`, the console's review page
 * and MCP's `review_queue` (the CLI reads the route): every pending submission on the founder's
 * projects with its bounty, oldest submission first, and what approving it pays, split by the
 * payouts module exactly as the approval will pay it.
 */
export async function reviewQueue(
  deps: ReviewQueueDeps,
  founderId: string,
  page: ReviewQueueQuery,
): Promise<ReviewQueueJson> {
  const [rows, total] = await Promise.all([
    queueRepo.pageOf(deps.db, founderId, page.limit, page.offset),
    queueRepo.totalOf(deps.db, founderId),
  ]);
  const reviews = rows.map(({ bounty, submission }) => {
    const split = deps.payouts.split(bounty.rewardAmount);
    return {
      bounty: toBountyJson(bounty, deps.platformFeeBps),
      submission: toSubmissionJson(submission),
      payout: {
        contributor_units: split.contributorUnits.toString(),
        fee_units: split.feeUnits.toString(),
      },
    };
  });
  return { reviews, total, limit: page.limit, offset: page.offset };
}
