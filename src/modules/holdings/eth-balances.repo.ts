import { asc, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { ethBalances } from '../../infra/db/schema.ts';

export type EthBalanceRow = typeof ethBalances.$inferSelect;

export async function find(ex: Executor, holder: string): Promise<EthBalanceRow | undefined> {
  const [row] = await ex.select().from(ethBalances).where(eq(ethBalances.holder, holder)).limit(1);
  return row;
}

/**
 * Stores balances read at `block`, each unless a read of a later block is stored already (two
 * refreshes racing: the older read must not win). Holders in lower case.
 */
export async function store(
  ex: Executor,
  rows: { holder: string; balanceUnits: bigint }[],
  block: bigint,
  at: Date,
): Promise<void> {
  if (rows.length === 0) return;
  const t = ethBalances;
  await ex
    .insert(t)
    .values(rows.map((r) => ({ ...r, blockNumber: block, updatedAt: at })))
    .onConflictDoUpdate({
      target: t.holder,
      set: {
        balanceUnits: sql`excluded.balance_units`,
        blockNumber: sql`excluded.block_number`,
        updatedAt: sql`excluded.updated_at`,
      },
      setWhere: sql`${t.blockNumber} <= excluded.block_number`,
    });
}

/** Up to `limit` holders whose balance was last read before `before`, the oldest first. */
export async function staleHolders(ex: Executor, before: Date, limit: number): Promise<string[]> {
  const rows = await ex
    .select({ holder: ethBalances.holder })
    .from(ethBalances)
    .where(lt(ethBalances.updatedAt, before))
    .orderBy(asc(ethBalances.updatedAt))
    .limit(limit);
  return rows.map((r) => r.holder);
}
