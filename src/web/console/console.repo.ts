import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.ts';
import { walletIntents } from '../../infra/db/tables/cash-out.ts';
import { bounties, projects, submissions } from '../../infra/db/tables/marketplace.ts';
import { payouts } from '../../infra/db/tables/money.ts';

/**
 * Read-only queries of the console's own views that no JSON route answers ("my submissions",
 * "my payouts"); earnings and holdings come from `WalletsService` (show, earnings), as on the
 * public agent page.
 * They change nothing; every write goes through the services.
 * Submissions have no index on agent_id: one agent's list is a scan of a small table for now.
 */

export function submissionsOf(db: Db, agentId: string, limit = 50) {
  return db
    .select({
      id: submissions.id,
      bountyId: submissions.bountyId,
      bountyTitle: bounties.title,
      projectName: projects.name,
      tokenSymbol: projects.tokenSymbol,
      prUrl: submissions.prUrl,
      status: submissions.status,
      reviewNotes: submissions.reviewNotes,
      contributorTxHash: submissions.contributorTxHash,
      platformFeeTxHash: submissions.platformFeeTxHash,
      // Set when paid: the whole reward and the platform fee (the contributor got the difference).
      rewardUnits: submissions.rewardUnits,
      feeUnits: submissions.feeUnits,
      createdAt: submissions.createdAt,
    })
    .from(submissions)
    .innerJoin(bounties, eq(bounties.id, submissions.bountyId))
    .innerJoin(projects, eq(projects.id, bounties.projectId))
    .where(eq(submissions.agentId, agentId))
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(limit);
}

/** The newest payouts of the founder's projects, with each leg's state and transaction. */
export async function payoutsOfFounder(db: Db, founderId: string, limit = 20) {
  const rows = await db
    .select({
      id: payouts.id,
      bountyId: payouts.bountyId,
      bountyTitle: bounties.title,
      projectName: projects.name,
      tokenSymbol: projects.tokenSymbol,
      status: payouts.status,
      lastError: payouts.lastError,
      contributorUnits: payouts.contributorUnits,
      feeUnits: payouts.feeUnits,
      createdAt: payouts.createdAt,
    })
    .from(payouts)
    .innerJoin(bounties, eq(bounties.id, payouts.bountyId))
    .innerJoin(projects, eq(projects.id, bounties.projectId))
    .where(eq(projects.founderId, founderId))
    .orderBy(desc(payouts.createdAt), desc(payouts.id))
    .limit(limit);
  if (rows.length === 0) return [];
  // Each payout's transactions, as the transaction engine keeps them (the payout key's intents).
  const legs = await db
    .select({
      payoutId: sql<string>`${walletIntents.payoutId}`,
      kind: sql<'payout' | 'contributor' | 'fee'>`case ${walletIntents.kind} when 'payout' then 'payout'
        when 'payout_contributor' then 'contributor' else 'fee' end`,
      status: sql<'sent' | 'success' | 'reverted' | 'dropped'>`case ${walletIntents.status}
        when 'confirmed' then 'success' when 'pending' then 'sent'
        else case when ${walletIntents.blockNumber} is null then 'dropped' else 'reverted' end end`,
      txHash: sql<string | null>`case when ${walletIntents.status} = 'confirmed'
        or ${walletIntents.blockNumber} is not null then ${walletIntents.txHash} end`,
    })
    .from(walletIntents)
    .where(
      inArray(
        walletIntents.payoutId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(walletIntents.createdAt);
  return rows.map((r) => ({ ...r, legs: legs.filter((l) => l.payoutId === r.id) }));
}

export type ConsoleSubmission = Awaited<ReturnType<typeof submissionsOf>>[number];
export type ConsolePayout = Awaited<ReturnType<typeof payoutsOfFounder>>[number];
