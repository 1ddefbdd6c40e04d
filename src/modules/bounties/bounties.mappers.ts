import { type UsdRate, usdOf } from '../../lib/usd.ts';
import type { ActiveClaimJson } from '../agents/agents.schemas.ts';
import type * as repo from './bounties.repo.ts';
import type { BountyWithProject, SubmissionRow } from './bounties.repo.ts';
import type { BountyJson, SubmissionJson } from './bounties.schemas.ts';
import type { ListedJsonRow, ListedRow } from './bounty-list.columns.ts';
import { isoTimestamp } from './bounty-list.columns.ts';
import { quotedReward, rewardValue } from './reward-quotes.ts';

/** `usd`: the ETH/USD price, read once per request (PricesService), or null: `reward_usd` is null. */
export const toBountyJson = (r: BountyWithProject, feeBps: number, usd: UsdRate | null): BountyJson => {
  const eth = rewardValue({ a: r.curveA, b: r.curveB, supply: r.supplyUnits }, r.rewardAmount, feeBps);
  return {
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
    reward_eth_units: eth,
    reward_usd: usdOf(eth, usd),
    revision_due_at: r.revisionDueAt ? r.revisionDueAt.toISOString() : null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
};

/** A row of the list, already named as in the JSON: only its timestamps change form. */
export const listedToJson = (r: ListedRow, feeBps: number, usd: UsdRate | null): BountyJson => {
  const eth = quotedReward(r.quote, feeBps);
  return {
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
    reward_eth_units: eth,
    // One multiplication per row: the price was read once for the whole page.
    reward_usd: usdOf(eth, usd),
    revision_due_at: r.revision_due_at === null ? null : isoTimestamp(r.revision_due_at),
    created_at: isoTimestamp(r.created_at),
    updated_at: isoTimestamp(r.updated_at),
  };
};

/** A JSON string value, or null. */
const jsonText = (s: string | null) => (s === null ? 'null' : `"${s}"`);

/**
 * `listedToJson` for a row whose fields PostgreSQL wrote as JSON (`listedJson`): the same object, as
 * text, with the two values computed here put between its head and its tail. Both are digits only
 * (wei, dollars), so they need no escaping.
 */
export const listedJsonText = (r: ListedJsonRow, feeBps: number, usd: UsdRate | null): string => {
  const eth = quotedReward(r.quote, feeBps);
  return `${r.head},"reward_eth_units":${jsonText(eth)},"reward_usd":${jsonText(usdOf(eth, usd))},${r.tail}`;
};

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
  pull_request: r.pullRequest ? withByAuthor(r.pullRequest) : null,
});

/** Reports stored before checks were split by who set them have no `by_author`: none of their own. */
function withByAuthor(
  pr: NonNullable<SubmissionRow['pullRequest']>,
): NonNullable<SubmissionJson['pull_request']> {
  const { by_author = { state: 'none', total: 0, failed: 0 }, ...counted } = pr.checks;
  // Reports stored before descriptions and reviewed heads were kept have neither.
  return {
    ...pr,
    body: pr.body ?? null,
    reviewed_head_sha: pr.reviewed_head_sha ?? null,
    checks: { ...counted, by_author },
  };
}

/** GET /api/bounties/{id}: the bounty and its submissions, newest first. */
export const toBountyDetailJson = (
  b: BountyWithProject,
  subs: SubmissionRow[],
  feeBps: number,
  usd: UsdRate | null,
) => ({
  ...toBountyJson(b, feeBps, usd),
  submissions: subs.map(toSubmissionJson),
});

/** The agent's pay in one project, as `earningsOf` lists it. */
export const earningsToJson = (r: Awaited<ReturnType<typeof repo.earningsOf>>[number]) => ({
  project_id: r.projectId,
  project_name: r.projectName,
  token_symbol: r.tokenSymbol,
  earned_units: r.earnedUnits,
  completed: Number(r.completed),
});

/** One of the agent's active claims. */
export const activeClaimToJson = (
  r: Awaited<ReturnType<typeof repo.activeClaimsOf>>[number],
): ActiveClaimJson => ({
  bounty_id: r.id,
  project_id: r.projectId,
  title: r.title,
  status: r.status,
  claimed_at: (r.claimedAt as Date).toISOString(),
});
