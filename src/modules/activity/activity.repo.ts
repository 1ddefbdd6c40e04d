import { and, desc, eq, inArray, isNull, lt, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { activityEvents } from '../../infra/db/schema.ts';
import { compileOnFirstRun, numberPlaceholder } from '../../infra/db/statement.ts';

export type ActivityRow = typeof activityEvents.$inferSelect;

/**
 * Inserts an event and wakes every instance's event bus in one statement. PostgreSQL delivers the
 * notification only when the transaction commits (and drops it on rollback); several events in one
 * transaction make one.
 */
export async function insert(ex: Executor, row: typeof activityEvents.$inferInsert): Promise<void> {
  const inserted = ex
    .$with('inserted')
    .as(ex.insert(activityEvents).values(row).returning({ id: activityEvents.id }));
  await ex
    .with(inserted)
    .select({ notified: sql`pg_notify(${ACTIVITY_CHANNEL}, '')` })
    .from(inserted);
}

export interface ActivityFilter {
  limit: number;
  before?: string;
  type?: string;
  projectId?: string;
  agentId?: string;
}

/** The feed's optional conditions; a filter's shape has one bit per condition present. */
const CONDITIONS = [
  ['before', (v: Placeholder) => lt(activityEvents.id, v)],
  ['type', (v: Placeholder) => eq(activityEvents.type, v)],
  ['projectId', (v: Placeholder) => eq(activityEvents.projectId, v)],
  ['agentId', (v: Placeholder) => eq(activityEvents.agentId, v)],
] as const;

// The public feed, one statement per shape compiled once (statement.ts): personal events (with
// recipients) are never listed here.
const feeds = Array.from({ length: 1 << CONDITIONS.length }, (_, shape) =>
  compileOnFirstRun((ex) =>
    ex
      .select()
      .from(activityEvents)
      .where(
        and(
          isNull(activityEvents.recipients),
          ...CONDITIONS.filter((_, i) => shape & (1 << i)).map(([name, condition]) =>
            condition(sql.placeholder(name)),
          ),
        ),
      )
      .orderBy(desc(activityEvents.id))
      .limit(numberPlaceholder('limit')),
  ),
);

/** Newest first. Ids are UUIDv7, so id order is time order and `before` is a stable cursor. */
export function list(ex: Executor, f: ActivityFilter): Promise<ActivityRow[]> {
  const shape = CONDITIONS.reduce((bits, [name], i) => (f[name] ? bits | (1 << i) : bits), 0);
  return (feeds[shape] as (typeof feeds)[number]).run(ex, f as unknown as Record<string, unknown>);
}

/**
 * A place in the commit-ordered stream: (inserting transaction id, event id). Ordering by the
 * transaction first means an event committed late still sorts after everything already delivered.
 */
export interface StreamPosition {
  txid: string;
  id: string;
}

/** Before every event: xid8 0 is never assigned to a transaction. */
export const STREAM_START: StreamPosition = { txid: '0', id: '' };

export type StreamRow = Pick<ActivityRow, 'id' | 'type' | 'agentId' | 'projectId' | 'bountyId' | 'data'> & {
  recipients: string[] | null;
  createdAt: Date;
  txid: string;
};

const streamColumns = {
  id: activityEvents.id,
  type: activityEvents.type,
  agentId: activityEvents.agentId,
  projectId: activityEvents.projectId,
  bountyId: activityEvents.bountyId,
  data: activityEvents.data,
  recipients: activityEvents.recipients,
  createdAt: activityEvents.createdAt,
  txid: sql<string>`${activityEvents.txid}::text`,
};

const after = (p: StreamPosition) =>
  sql`(${activityEvents.txid}, ${activityEvents.id}) > (${p.txid}::xid8, ${p.id})`;
const atMost = (p: StreamPosition) =>
  sql`(${activityEvents.txid}, ${activityEvents.id}) <= (${p.txid}::xid8, ${p.id})`;

/** The stream position of one event, or undefined when no event has that id. */
export async function positionOf(ex: Executor, id: string): Promise<StreamPosition | undefined> {
  const [row] = await ex
    .select({ txid: streamColumns.txid, id: activityEvents.id })
    .from(activityEvents)
    .where(eq(activityEvents.id, id))
    .limit(1);
  return row;
}

/**
 * The oldest transaction that may still commit an event, as of this statement's snapshot: the
 * oldest one still running (pg_snapshot_xmin), except that a transaction seen running in another
 * database of the cluster is passed over, since it can never write this database's events. Without
 * that, a long transaction anywhere on a shared server (a report, a dump, another service) would
 * hold every live stream back. A transaction whose database cannot be seen (another role's
 * session, when this one may not read its statistics) still counts, so nothing is ever skipped.
 */
const finalBound = sql`coalesce(
  (select min(s.x) from pg_snapshot_xip(pg_current_snapshot()) as s(x)
    where not exists (
      select 1 from pg_stat_activity a
      where a.backend_xid = s.x::xid
        and a.datid <> (select oid from pg_database where datname = current_database()))),
  pg_snapshot_xmax(pg_current_snapshot()))`;

/**
 * Events after `from` in stream order, each flagged `ready` when its transaction is older than
 * every transaction that may still commit one (finalBound): none can still commit an event before
 * it. Ready rows always come first, since order is by txid.
 */
export function readAfter(
  ex: Executor,
  from: StreamPosition,
  limit: number,
): Promise<(StreamRow & { ready: boolean })[]> {
  return ex
    .select({
      ...streamColumns,
      ready: sql<boolean>`${activityEvents.txid} < ${finalBound}`,
    })
    .from(activityEvents)
    .where(after(from))
    .orderBy(activityEvents.txid, activityEvents.id)
    .limit(limit);
}

export interface StreamFilter {
  /** Personal events of this agent are included; public events always are. */
  agentId: string | null;
  types: string[] | null;
  projectId: string | null;
}

/** Matching events in (from, upTo], in stream order: a reconnecting stream's replay. */
export function replay(
  ex: Executor,
  from: StreamPosition,
  upTo: StreamPosition,
  f: StreamFilter,
  limit: number,
): Promise<StreamRow[]> {
  const where: SQL[] = [after(from), atMost(upTo)];
  where.push(
    f.agentId
      ? sql`(${activityEvents.recipients} is null or ${activityEvents.recipients} @> array[${f.agentId}]::text[])`
      : isNull(activityEvents.recipients),
  );
  if (f.types) where.push(inArray(activityEvents.type, f.types));
  if (f.projectId) where.push(eq(activityEvents.projectId, f.projectId));
  return ex
    .select(streamColumns)
    .from(activityEvents)
    .where(and(...where))
    .orderBy(activityEvents.txid, activityEvents.id)
    .limit(limit);
}

// Every public page reads it (what changed last, for its live updates): compiled once.
const ready = compileOnFirstRun((ex) =>
  ex
    .select({ txid: streamColumns.txid, id: activityEvents.id })
    .from(activityEvents)
    .where(sql`${activityEvents.txid} < ${finalBound}`)
    .orderBy(desc(activityEvents.txid), desc(activityEvents.id))
    .limit(1),
);

/** The last event no running transaction can precede: where a new reader starts "from now". */
export async function latestReady(ex: Executor): Promise<StreamPosition> {
  const [row] = await ready.run(ex, {});
  return row ?? STREAM_START;
}

/** The NOTIFY channel every instance's event bus listens on. */
export const ACTIVITY_CHANNEL = 'activity';

/** The newest event's id (ids are UUIDv7: time order), or null: what changed last, in one index probe. */
const latest = compileOnFirstRun((ex) =>
  ex.select({ id: activityEvents.id }).from(activityEvents).orderBy(desc(activityEvents.id)).limit(1),
);

export async function latestId(ex: Executor): Promise<string | null> {
  const [row] = await latest.run(ex, {});
  return row?.id ?? null;
}
