import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { walletIntents } from '../../infra/db/schema.ts';
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
