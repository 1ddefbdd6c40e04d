import type { Db } from '../../infra/db/client.ts';
import type { UsdRate } from '../../lib/usd.ts';
import { toBountyJson, toSubmissionJson } from '../bounties/bounties.mappers.ts';
import type { PayoutsService } from '../payouts/payouts.service.ts';
import * as queueRepo from './review-queue.repo.ts';
import {
  type EarlierReviewJson,
  type ReviewQueueJson,
  type ReviewQueueQuery,
  WAITING_MAX,
} from './reviews.schemas.ts';

export interface ReviewQueueDeps {
  db: Db;
  payouts: PayoutsService;
  /** PLATFORM_FEE_BPS, for the bounty's `reward_eth_units` (the contributor's share, quoted). */
  platformFeeBps: number;
  /** The ETH/USD price for the bounties' `reward_usd`, read once for the whole queue. */
  ethUsd: () => Promise<UsdRate | null>;
}

type SentBack = Awaited<ReturnType<typeof queueRepo.sentBackOf>>[number];

/** A sent-back submission as the queue lists it: the notes, when, and the head reviewed then. */
const toEarlierReview = (s: SentBack): EarlierReviewJson => ({
  id: s.id,
  pr_url: s.prUrl,
  review_notes: s.reviewNotes,
  reviewed_at: s.reviewedAt ? s.reviewedAt.toISOString() : null,
  head_sha: s.pullRequest?.reviewed_head_sha ?? s.pullRequest?.head_sha ?? null,
});

/**
 * The founder's review queue, the one read behind `GET /api/reviews`, the console's review page
 * and MCP's `review_queue` (the CLI reads the route): every pending submission on the founder's
 * projects with its bounty, oldest submission first, what approving it pays (split by the payouts
 * module exactly as the approval will pay it) and the contributor's earlier rounds the founder
 * sent back; and the bounties waiting for their contributor's revision.
 */
export async function reviewQueue(
  deps: ReviewQueueDeps,
  founderId: string,
  page: ReviewQueueQuery,
): Promise<ReviewQueueJson> {
  const [rows, total, waitingRows, usd] = await Promise.all([
    queueRepo.pageOf(deps.db, founderId, page.limit, page.offset),
    queueRepo.totalOf(deps.db, founderId),
    queueRepo.waitingOf(deps.db, founderId, WAITING_MAX),
    deps.ethUsd(),
  ]);
  const sentBack = await queueRepo.sentBackOf(deps.db, [
    ...rows.map((r) => r.bounty.id),
    ...waitingRows.map((r) => r.bounty.id),
  ]);
  // Newest first: the earlier rounds of a bounty by one contributor.
  const roundsOf = (bountyId: string, agentId: string | null) =>
    sentBack.filter((s) => s.bountyId === bountyId && s.agentId === agentId);
  const reviews = rows.map(({ bounty, submission }) => {
    const split = deps.payouts.split(bounty.rewardAmount);
    return {
      bounty: toBountyJson(bounty, deps.platformFeeBps, usd),
      submission: toSubmissionJson(submission),
      payout: {
        contributor_units: split.contributorUnits.toString(),
        fee_units: split.feeUnits.toString(),
      },
      earlier_reviews: roundsOf(bounty.id, submission.agentId).map(toEarlierReview),
    };
  });
  const waiting = waitingRows.flatMap(({ bounty }) => {
    const last = roundsOf(bounty.id, bounty.claimedBy)[0];
    return last
      ? [{ bounty: toBountyJson(bounty, deps.platformFeeBps, usd), submission: toSubmissionJson(last) }]
      : [];
  });
  return { reviews, waiting, total, limit: page.limit, offset: page.offset };
}
