import type { ProjectRow, ReviewStatsRow } from './projects.repo.ts';
import type { ProjectJson, ReviewStatsJson } from './projects.schemas.ts';

/** A project nobody has submitted to yet. */
export const NO_REVIEWS: ReviewStatsJson = {
  reviewed: 0,
  decided: 0,
  approved: 0,
  rejected: 0,
  changes_requested: 0,
  median_hours_to_review: null,
  awaiting_review: 0,
  awaiting_over_7_days: 0,
  owed: 0,
};

export const toReviewStatsJson = (r: ReviewStatsRow | undefined): ReviewStatsJson =>
  r
    ? {
        reviewed: r.approved + r.rejected + r.changesRequested,
        decided: r.approved + r.rejected,
        approved: r.approved,
        rejected: r.rejected,
        changes_requested: r.changesRequested,
        // Two decimals: 36 seconds of precision is plenty for a founder's track record.
        median_hours_to_review: r.medianHours === null ? null : Math.round(Number(r.medianHours) * 100) / 100,
        awaiting_review: r.awaitingReview,
        awaiting_over_7_days: r.awaitingOver7Days,
        owed: r.owed,
      }
    : NO_REVIEWS;

export const toProjectJson = (r: ProjectRow, stats: ReviewStatsJson): ProjectJson => ({
  id: r.id,
  name: r.name,
  description: r.description,
  status: r.status,
  founder_id: r.founderId,
  token_symbol: r.tokenSymbol,
  repo_url: r.repoUrl,
  token_address: r.tokenAddress,
  curve_address: r.curveAddress,
  created_at: r.createdAt.toISOString(),
  activated_at: r.activatedAt ? r.activatedAt.toISOString() : null,
  review_stats: stats,
});
