import { eq } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { webhookDeliveries } from '../../infra/db/schema.ts';

export async function seen(ex: Executor, id: string): Promise<boolean> {
  const [row] = await ex
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.id, id));
  return row !== undefined;
}

export async function record(ex: Executor, id: string, event: string, at: Date): Promise<void> {
  await ex.insert(webhookDeliveries).values({ id, event, receivedAt: at }).onConflictDoNothing();
}
