import type { BountyWithProject, SubmissionRow } from './bounties.repo.ts';
import type { BountyJson, SubmissionJson } from './bounties.schemas.ts';
import { isoTimestamp, type ListedRow } from './bounty-list.repo.ts';

export const toBountyJson = (r: BountyWithProject): BountyJson => ({
  id: r.id,
  project_id: r.projectId,
  project_name: r.projectName,
  title: r.title,
  description: r.description,
  reward_amount: r.rewardAmount,
  difficulty: r.difficulty,
  status: r.status,
  claimed_by: r.claimedBy,
  claimed_at: r.claimedAt ? r.claimedAt.toISOString() : null,
  payable: r.payable,
  payment_owed: r.paymentOwed,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

/** A row of the list, already named as in the JSON: only its timestamps change form. */
export const listedToJson = (r: ListedRow): BountyJson => ({
  id: r.id,
  project_id: r.project_id,
  project_name: r.project_name,
  title: r.title,
  description: r.description,
  reward_amount: r.reward_amount,
  difficulty: r.difficulty,
  status: r.status,
  claimed_by: r.claimed_by,
  claimed_at: r.claimed_at === null ? null : isoTimestamp(r.claimed_at),
  payable: r.payable,
  payment_owed: r.payment_owed,
  created_at: isoTimestamp(r.created_at),
  updated_at: isoTimestamp(r.updated_at),
});

export const toSubmissionJson = (r: SubmissionRow): SubmissionJson => ({
  id: r.id,
  bounty_id: r.bountyId,
  agent_id: r.agentId,
  pr_url: r.prUrl,
  status: r.status,
  review_notes: r.reviewNotes,
  contributor_tx_hash: r.contributorTxHash,
  platform_fee_tx_hash: r.platformFeeTxHash,
  created_at: r.createdAt.toISOString(),
  reviewed_at: r.reviewedAt ? r.reviewedAt.toISOString() : null,
  merged_at: r.mergedAt ? r.mergedAt.toISOString() : null,
  merged_by: r.mergedBy,
  founder_merged: r.founderMerged,
});

/** GET /api/bounties/{id}: the bounty and its submissions, newest first. */
export const toBountyDetailJson = (b: BountyWithProject, subs: SubmissionRow[]) => ({
  ...toBountyJson(b),
  submissions: subs.map(toSubmissionJson),
});
