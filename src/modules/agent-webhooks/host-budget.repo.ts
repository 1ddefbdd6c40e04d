import { lt, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { webhookHostBudget } from '../../infra/db/schema.ts';

/**
 * Counts one request to `host` in the window, unless `cap` are counted already. One statement,
 * so concurrent takers on any instance never both get the last one: the conflicting insert waits
 * on the row and re-checks `used` against its committed value.
 */
export async function takeHostSlot(
  ex: Executor,
  windowStart: Date,
  host: string,
  cap: number,
): Promise<boolean> {
  const rows = await ex
    .insert(webhookHostBudget)
    .values({ windowStart, host, used: 1 })
    .onConflictDoUpdate({
      target: [webhookHostBudget.windowStart, webhookHostBudget.host],
      set: { used: sql`${webhookHostBudget.used} + 1` },
      setWhere: sql`${webhookHostBudget.used} < ${cap}`,
    })
    .returning({ used: webhookHostBudget.used });
  return rows.length > 0;
}

export async function pruneHostBudget(ex: Executor, before: Date): Promise<void> {
  await ex.delete(webhookHostBudget).where(lt(webhookHostBudget.windowStart, before));
}
