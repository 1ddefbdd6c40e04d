import { and, desc, eq, isNull, lt, type SQL } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { activityEvents } from '../../infra/db/schema.ts';

export type ActivityRow = typeof activityEvents.$inferSelect;

export function insert(ex: Executor, row: typeof activityEvents.$inferInsert): Promise<unknown> {
  return ex.insert(activityEvents).values(row);
}

export interface ActivityFilter {
  limit: number;
  before?: string;
  type?: string;
  projectId?: string;
  agentId?: string;
}

/** Newest first. Ids are UUIDv7, so id order is time order and `before` is a stable cursor. */
export function list(ex: Executor, f: ActivityFilter): Promise<ActivityRow[]> {
  // The public feed: personal events (with recipients) are never listed here.
  const where: SQL[] = [isNull(activityEvents.recipients)];
  if (f.before) where.push(lt(activityEvents.id, f.before));
  if (f.type) where.push(eq(activityEvents.type, f.type));
  if (f.projectId) where.push(eq(activityEvents.projectId, f.projectId));
  if (f.agentId) where.push(eq(activityEvents.agentId, f.agentId));
  return ex
    .select()
    .from(activityEvents)
    .where(and(...where))
    .orderBy(desc(activityEvents.id))
    .limit(f.limit);
}
