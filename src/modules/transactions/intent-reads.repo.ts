import { and, asc, desc, eq, gt, gte, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { walletIntents, walletTxs } from '../../infra/db/schema.ts';
import { compileOnFirstRun, numberPlaceholder } from '../../infra/db/statement.ts';

type IntentRow = typeof walletIntents.$inferSelect;

// The wallet's reads (GET /api/agents/me/wallet/transactions and one transaction), compiled once
// (statement.ts): drizzle would build the SQL and map the rows on every request.
const intentById = compileOnFirstRun((ex) =>
  ex
    .select()
    .from(walletIntents)
    .where(eq(walletIntents.id, sql.placeholder('id'))),
);

export async function findIntent(ex: Executor, id: string): Promise<IntentRow | undefined> {
  const [row] = await intentById.run(ex, { id });
  return row;
}

const intentsByAgent = compileOnFirstRun((ex) =>
  ex
    .select()
    .from(walletIntents)
    .where(eq(walletIntents.agentId, sql.placeholder('agentId')))
    .orderBy(desc(walletIntents.createdAt), desc(walletIntents.id))
    .limit(numberPlaceholder('limit')),
);

export function intentsOf(ex: Executor, agentId: string, limit: number): Promise<IntentRow[]> {
  return intentsByAgent.run(ex, { agentId, limit });
}

/**
 * Attempts a receipt settled (mined or reverted) since `since`, `limit` of them in order of hash
 * after `after` (null: from the first): what a reorg deeper than PAYOUT_CONFIRMATIONS may have
 * taken back (`EngineReorgs.recheckSettled`), a page at a time. Ordered by hash, not by time, so
 * that pages neither skip nor repeat an attempt while the recheck itself updates some of them.
 */
export function settledSince(ex: Executor, since: Date, after: string | null, limit: number) {
  return ex
    .select({
      hash: walletTxs.hash,
      kind: walletTxs.kind,
      blockNumber: walletTxs.blockNumber,
      gasPaidUnits: walletTxs.gasPaidUnits,
    })
    .from(walletTxs)
    .where(
      and(
        inArray(walletTxs.status, ['mined', 'reverted']),
        gte(walletTxs.updatedAt, since),
        after === null ? undefined : gt(walletTxs.hash, after),
      ),
    )
    .orderBy(asc(walletTxs.hash))
    .limit(limit);
}
