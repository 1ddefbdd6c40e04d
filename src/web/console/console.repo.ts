import { desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.ts';
import { bounties, projects, submissions } from '../../infra/db/tables/marketplace.ts';
import { payoutLegs, payouts } from '../../infra/db/tables/money.ts';

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
  const legs = await db
    .select({
      payoutId: payoutLegs.payoutId,
      kind: payoutLegs.kind,
      status: payoutLegs.status,
      txHash: payoutLegs.txHash,
    })
    .from(payoutLegs)
    .where(
      inArray(
        payoutLegs.payoutId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(payoutLegs.createdAt);
  return rows.map((r) => ({ ...r, legs: legs.filter((l) => l.payoutId === r.id) }));
}

export type ConsoleSubmission = Awaited<ReturnType<typeof submissionsOf>>[number];
export type ConsolePayout = Awaited<ReturnType<typeof payoutsOfFounder>>[number];
