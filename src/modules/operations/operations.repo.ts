import { and, count, eq, inArray, min } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { payoutLegs, payouts, webhookOutbox } from '../../infra/db/schema.ts';

// Read-only aggregates for the metrics scrape, kept apart from the payouts and webhooks modules
// because they serve the operator, not a workflow: no rule depends on them. Each one is served by
// a partial index on the pending rows (payouts_unfinished_idx, webhook_outbox_due_idx), so a
// scrape costs the same however much history the tables hold.

export async function pendingPayouts(ex: Executor): Promise<number> {
  const [row] = await ex.select({ n: count() }).from(payouts).where(eq(payouts.status, 'pending'));
  return row?.n ?? 0;
}

/**
 * When the oldest leg still in flight (signed or sent) of an unfinished payout was signed. Taken
 * from pending payouts first, so the join starts from the small partial index, not all legs.
 */
export async function oldestPendingLegAt(ex: Executor): Promise<Date | null> {
  const [row] = await ex
    .select({ at: min(payoutLegs.createdAt) })
    .from(payouts)
    .innerJoin(payoutLegs, eq(payoutLegs.payoutId, payouts.id))
    .where(and(eq(payouts.status, 'pending'), inArray(payoutLegs.status, ['signed', 'sent'])));
  return row?.at ?? null;
}

export async function pendingDeliveries(ex: Executor): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(webhookOutbox)
    .where(eq(webhookOutbox.status, 'pending'));
  return row?.n ?? 0;
}
