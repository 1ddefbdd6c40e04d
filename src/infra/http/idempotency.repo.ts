import { and, eq, getTableColumns, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

/** What identifies a request under one key: a later request must match it to be a retry. */
export interface RequestIdentity {
  scope: string;
  /** SHA-256 of the client's key (the key itself is never stored: it also seals the answer). */
  key: string;
  method: string;
  path: string;
  requestHash: string;
}

const byId = (r: { scope: string; key: string }) =>
  and(eq(idempotencyKeys.scope, r.scope), eq(idempotencyKeys.key, r.key));

/**
 * When a lock taken now for `seconds` lapses, by the database's clock (one clock for every
 * instance: one whose clock runs ahead never takes over a live lock). Whole milliseconds, so the
 * value read back into a Date is the exact fencing token stored.
 */
const lockFor = (seconds: number) =>
  sql<Date>`date_trunc('milliseconds', now() + make_interval(secs => ${seconds}))`;
const NOW_MS = sql<Date>`date_trunc('milliseconds', now())`;

/** When a record was taken: the instance's clock for its expiry (24 h), the database's for its lock. */
export interface TakenAt {
  now: Date;
  expiresAt: Date;
  lockSeconds: number;
}

/**
 * Inserts an `in_progress` record and returns its lock (the fencing token); null when one exists
 * already (uniqueness is the primary key).
 */
export async function claim(ex: Executor, r: RequestIdentity, at: TakenAt): Promise<Date | null> {
  const [row] = await ex
    .insert(idempotencyKeys)
    .values({
      ...r,
      status: 'in_progress',
      lockedUntil: lockFor(at.lockSeconds),
      createdAt: at.now,
      expiresAt: at.expiresAt,
    })
    .onConflictDoNothing()
    .returning({ lockedUntil: idempotencyKeys.lockedUntil });
  return row?.lockedUntil ?? null;
}

/** The record, and whether its lock still holds by the database's clock. */
export async function find(
  ex: Executor,
  r: { scope: string; key: string },
): Promise<(IdempotencyRow & { locked: boolean }) | null> {
  const t = idempotencyKeys;
  const [row] = await ex
    .select({
      ...getTableColumns(t),
      locked: sql<boolean>`coalesce(${t.lockedUntil} > now(), false)`,
    })
    .from(t)
    .where(byId(r))
    .limit(1);
  return row ?? null;
}

/**
 * Starts the record over for this request, when it has expired (any request may then use the key)
 * or is the same request's `in_progress` record whose lock lapsed (its process died). A
 * conditional update, so of several racing takers exactly one wins.
 */
export async function takeOver(ex: Executor, r: RequestIdentity, at: TakenAt): Promise<Date | null> {
  const t = idempotencyKeys;
  const [row] = await ex
    .update(t)
    .set({
      method: r.method,
      path: r.path,
      requestHash: r.requestHash,
      status: 'in_progress',
      responseStatus: null,
      responseBody: null,
      lockedUntil: lockFor(at.lockSeconds),
      createdAt: at.now,
      expiresAt: at.expiresAt,
    })
    .where(
      and(
        byId(r),
        or(
          lte(t.expiresAt, at.now),
          and(
            eq(t.status, 'in_progress'),
            sql`${t.lockedUntil} <= now()`,
            eq(t.method, r.method),
            eq(t.path, r.path),
            eq(t.requestHash, r.requestHash),
          ),
        ),
      ),
    )
    .returning({ lockedUntil: t.lockedUntil });
  return row?.lockedUntil ?? null;
}

/**
 * Stores the answer. `lockedUntil` is the holder's own lock, a fencing token: a request whose
 * record was taken over after its lock lapsed writes nothing.
 */
export async function complete(
  ex: Executor,
  r: { scope: string; key: string; lockedUntil: Date },
  response: { status: number; body: string },
): Promise<boolean> {
  const rows = await ex
    .update(idempotencyKeys)
    .set({
      status: 'done',
      responseStatus: response.status,
      responseBody: response.body,
      lockedUntil: null,
    })
    .where(
      and(byId(r), eq(idempotencyKeys.status, 'in_progress'), eq(idempotencyKeys.lockedUntil, r.lockedUntil)),
    )
    .returning({ scope: idempotencyKeys.scope });
  return rows.length === 1;
}

/**
 * Keeps the record as a request that ended without a final answer (its lock lapses now): a
 * retry of the same request takes it over and runs again (the handler finds what it did), while a
 * different request under this key is still refused. Same fencing as `complete`.
 */
export async function lapse(
  ex: Executor,
  r: { scope: string; key: string; lockedUntil: Date },
): Promise<void> {
  await ex
    .update(idempotencyKeys)
    .set({ lockedUntil: NOW_MS })
    .where(
      and(byId(r), eq(idempotencyKeys.status, 'in_progress'), eq(idempotencyKeys.lockedUntil, r.lockedUntil)),
    );
}

/** Forgets an `in_progress` record (an answer that is not kept), with the same fencing as `complete`. */
export async function release(
  ex: Executor,
  r: { scope: string; key: string; lockedUntil: Date },
): Promise<void> {
  await ex
    .delete(idempotencyKeys)
    .where(
      and(byId(r), eq(idempotencyKeys.status, 'in_progress'), eq(idempotencyKeys.lockedUntil, r.lockedUntil)),
    );
}

/** Deletes up to `limit` expired records, oldest first (the expiry index); returns how many. */
export async function purgeExpired(ex: Executor, now: Date, limit: number): Promise<number> {
  const t = idempotencyKeys;
  const rows = await ex
    .delete(t)
    .where(
      sql`(${t.scope}, ${t.key}) in (select ${t.scope}, ${t.key} from ${t} where ${t.expiresAt} <= ${now.toISOString()}::timestamptz order by ${t.expiresAt} limit ${limit})`,
    )
    .returning({ scope: t.scope });
  return rows.length;
}
