import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { walletKeys } from '../../infra/db/schema.ts';
import { compileOnFirstRun } from '../../infra/db/statement.ts';

export type WalletKeyRow = typeof walletKeys.$inferSelect;

export async function insert(ex: Executor, row: WalletKeyRow): Promise<void> {
  await ex.insert(walletKeys).values(row);
}

// Behind every wallet read: compiled once (statement.ts).
const byAgent = compileOnFirstRun((ex) =>
  ex
    .select()
    .from(walletKeys)
    .where(eq(walletKeys.agentId, sql.placeholder('agentId')))
    .limit(1),
);

export async function findByAgent(ex: Executor, agentId: string): Promise<WalletKeyRow | undefined> {
  const [row] = await byAgent.run(ex, { agentId });
  return row;
}

/** By address, ignoring case (the unique index on lower(address)). */
export async function findByAddress(ex: Executor, address: string): Promise<WalletKeyRow | undefined> {
  const [row] = await ex
    .select()
    .from(walletKeys)
    .where(sql`lower(${walletKeys.address}) = ${address.toLowerCase()}`)
    .limit(1);
  return row;
}
