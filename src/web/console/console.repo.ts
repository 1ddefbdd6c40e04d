import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.ts';
import { anyOfPlaceholder, compileOnFirstRun, numberPlaceholder } from '../../infra/db/statement.ts';
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

const submissionRows = compileOnFirstRun((ex) =>
  ex
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
    .where(eq(submissions.agentId, sql.placeholder('agentId')))
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(numberPlaceholder('limit')),
);

/** The agent's submissions, newest first, with their bounty and project. */
export function submissionsOf(db: Db, agentId: string, limit = 50) {
  return submissionRows.run(db, { agentId, limit });
}

const payoutRows = compileOnFirstRun((ex) =>
  ex
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
    .where(eq(projects.founderId, sql.placeholder('founderId')))
    .orderBy(desc(payouts.createdAt), desc(payouts.id))
    .limit(numberPlaceholder('limit')),
);

// Each payout's transactions, as the transaction engine keeps them (the payout key's intents).
const legRows = compileOnFirstRun((ex) =>
  ex
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
    .where(anyOfPlaceholder(walletIntents.payoutId, 'payoutIds'))
    .orderBy(walletIntents.createdAt),
);

/** The newest payouts of the founder's projects, with each leg's state and transaction. */
export async function payoutsOfFounder(db: Db, founderId: string, limit = 20) {
  const rows = await payoutRows.run(db, { founderId, limit });
  if (rows.length === 0) return [];
  const legs = await legRows.run(db, { payoutIds: rows.map((r) => r.id) });
  return rows.map((r) => ({ ...r, legs: legs.filter((l) => l.payoutId === r.id) }));
}

export type ConsoleSubmission = Awaited<ReturnType<typeof submissionsOf>>[number];
export type ConsolePayout = Awaited<ReturnType<typeof payoutsOfFounder>>[number];
