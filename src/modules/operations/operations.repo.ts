import { and, count, eq, min } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { payouts, walletIntents, webhookOutbox } from '../../infra/db/schema.ts';

// Read-only aggregates for the metrics scrape, kept apart from the payouts and webhooks modules
// because they serve the operator, not a workflow: no rule depends on them. Each one is served by
// a partial index on the pending rows (payouts_unfinished_idx, webhook_outbox_due_idx), so a
// scrape costs the same however much history the tables hold.

export async function pendingPayouts(ex: Executor): Promise<number> {
  const [row] = await ex.select({ n: count() }).from(payouts).where(eq(payouts.status, 'pending'));
  return row?.n ?? 0;
}

/**
 * When the oldest payout transaction still in flight (the payout key's pending intents of an
 * unfinished payout) was signed. Taken from pending payouts first, so the join starts from the
 * small partial index, not every transaction.
 */
export async function oldestPendingLegAt(ex: Executor): Promise<Date | null> {
  const [row] = await ex
    .select({ at: min(walletIntents.createdAt) })
    .from(payouts)
    .innerJoin(walletIntents, eq(walletIntents.payoutId, payouts.id))
    .where(and(eq(payouts.status, 'pending'), eq(walletIntents.status, 'pending')));
  return row?.at ?? null;
}

export async function pendingDeliveries(ex: Executor): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(webhookOutbox)
    .where(eq(webhookOutbox.status, 'pending'));
  return row?.n ?? 0;
}
