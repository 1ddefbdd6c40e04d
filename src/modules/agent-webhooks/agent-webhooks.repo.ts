import { and, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';
import { activityEvents, agentWebhooks, webhookAttempts, webhookOutbox } from '../../infra/db/schema.ts';
import { compileOnFirstRun } from '../../infra/db/statement.ts';

export type WebhookRow = typeof agentWebhooks.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

export async function countOf(ex: Executor, agentId: string): Promise<number> {
  const [row] = await ex.select({ n: count() }).from(agentWebhooks).where(eq(agentWebhooks.agentId, agentId));
  return row?.n ?? 0;
}

export async function insert(ex: Executor, row: typeof agentWebhooks.$inferInsert): Promise<WebhookRow> {
  const [created] = await ex.insert(agentWebhooks).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

// An agent's webhooks: the console's account page and GET /api/agents/me/webhooks, compiled once.
const webhooksOf = compileOnFirstRun((ex) =>
  ex
    .select()
    .from(agentWebhooks)
    .where(eq(agentWebhooks.agentId, sql.placeholder('agentId')))
    .orderBy(agentWebhooks.createdAt, agentWebhooks.id),
);

export function listOf(ex: Executor, agentId: string): Promise<WebhookRow[]> {
  return webhooksOf.run(ex, { agentId });
}

export async function findOwned(ex: Executor, agentId: string, id: string): Promise<WebhookRow | null> {
  const [row] = await ex
    .select()
    .from(agentWebhooks)
    .where(and(eq(agentWebhooks.id, id), eq(agentWebhooks.agentId, agentId)));
  return row ?? null;
}

/** Deletes the webhook; its outbox rows and attempt log go with it (ON DELETE CASCADE). */
export async function deleteOwned(ex: Executor, agentId: string, id: string): Promise<boolean> {
  const rows = await ex
    .delete(agentWebhooks)
    .where(and(eq(agentWebhooks.id, id), eq(agentWebhooks.agentId, agentId)))
    .returning({ id: agentWebhooks.id });
  return rows.length > 0;
}

/** Sets the given fields of the agent's webhook; null when it has no such webhook. */
export async function updateOwned(
  ex: Executor,
  agentId: string,
  id: string,
  set: Partial<Pick<WebhookRow, 'url' | 'types' | 'verifiedAt'>> & { updatedAt: Date },
): Promise<WebhookRow | null> {
  const [row] = await ex
    .update(agentWebhooks)
    .set(set)
    .where(and(eq(agentWebhooks.id, id), eq(agentWebhooks.agentId, agentId)))
    .returning();
  return row ?? null;
}

/**
 * Records that the webhook's URL answered the challenge, only while it still has the URL the
 * challenge went to: an answer from the old URL never verifies the one it was changed to.
 */
export async function markVerified(ex: Executor, id: string, url: string, now: Date): Promise<boolean> {
  const rows = await ex
    .update(agentWebhooks)
    .set({ verifiedAt: now, updatedAt: now })
    .where(and(eq(agentWebhooks.id, id), eq(agentWebhooks.url, url)))
    .returning({ id: agentWebhooks.id });
  return rows.length > 0;
}

export async function setSecret(
  ex: Executor,
  agentId: string,
  id: string,
  secret: string,
  now: Date,
): Promise<boolean> {
  const rows = await ex
    .update(agentWebhooks)
    .set({ secret, updatedAt: now })
    .where(and(eq(agentWebhooks.id, id), eq(agentWebhooks.agentId, agentId)))
    .returning({ id: agentWebhooks.id });
  return rows.length > 0;
}

/**
 * Enabled, verified webhooks an event goes to (an unverified one is queued nothing): a public
 * event to those subscribed to its type (null = all), a personal one to its recipients' webhooks.
 * FOR KEY SHARE keeps each from being deleted before the outbox row referencing it is written (a
 * delete waits; one already committed is skipped), without blocking another event's fan-out or a
 * disable.
 */
export async function subscribersOf(
  ex: Executor,
  event: { type: string; recipients: string[] | null },
): Promise<string[]> {
  const match = event.recipients
    ? inArray(agentWebhooks.agentId, event.recipients)
    : sql`(${agentWebhooks.types} is null or ${event.type} = any(${agentWebhooks.types}))`;
  const rows = await ex
    .select({ id: agentWebhooks.id })
    .from(agentWebhooks)
    .where(and(eq(agentWebhooks.enabled, true), isNotNull(agentWebhooks.verifiedAt), match))
    .for('key share');
  return rows.map((r) => r.id);
}

export async function insertOutbox(ex: Executor, rows: (typeof webhookOutbox.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await ex.insert(webhookOutbox).values(rows).onConflictDoNothing();
}

export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  attempts: number;
}

/**
 * Leases up to `batch` due deliveries of enabled, verified webhooks (rows queued before a URL
 * change wait until the new URL is verified). SKIP LOCKED lets every instance claim
 * at once without waiting on or double-claiming each other; the lease keeps a claimed row from
 * being claimed again until it expires, which is how a crashed instance's rows are taken over.
 */
export async function claimDue(
  ex: Executor,
  now: Date,
  leaseUntil: Date,
  batch: number,
): Promise<ClaimedDelivery[]> {
  const at = now.toISOString();
  const result = await ex.execute(sql`
    with due as (
      select o.id from webhook_outbox o
        join agent_webhooks w on w.id = o.webhook_id
       where o.status = 'pending' and w.enabled and w.verified_at is not null
         and o.next_attempt_at <= ${at}::timestamptz
         and (o.lease_until is null or o.lease_until <= ${at}::timestamptz)
       order by o.next_attempt_at
       limit ${batch}
       for update of o skip locked
    )
    update webhook_outbox o
       set lease_until = ${leaseUntil.toISOString()}::timestamptz, updated_at = ${at}::timestamptz
      from due
     where o.id = due.id
    returning o.id, o.webhook_id, o.event_id, o.attempts`);
  return rowsOf<ClaimedDelivery>(result);
}

/** What a claimed delivery needs to be sent: the webhook's target and secret, and the event. */
export function targetsOf(ex: Executor, ids: string[]) {
  return ex
    .select({
      id: agentWebhooks.id,
      agentId: agentWebhooks.agentId,
      url: agentWebhooks.url,
      secret: agentWebhooks.secret,
    })
    .from(agentWebhooks)
    .where(inArray(agentWebhooks.id, ids));
}

export function eventsOf(ex: Executor, ids: string[]) {
  return ex
    .select({
      id: activityEvents.id,
      type: activityEvents.type,
      agentId: activityEvents.agentId,
      projectId: activityEvents.projectId,
      bountyId: activityEvents.bountyId,
      data: activityEvents.data,
      createdAt: activityEvents.createdAt,
    })
    .from(activityEvents)
    .where(inArray(activityEvents.id, ids));
}

/**
 * Records an attempt's outcome, only while this worker still holds the lease it claimed with
 * (same lease, attempts unchanged): a row deleted with its webhook, or taken over after the lease
 * expired, is left alone (null). The webhook row is locked first and its `enabled` read under the
 * lock, so an attempt finishing beside the one that disables the webhook either sees it disabled
 * (and ends `failed`) or commits before the disable gives up every pending row. A last attempt
 * locks exclusively: two last attempts of one webhook then queue instead of deadlocking.
 */
export async function finishAttempt(
  ex: Executor,
  d: { id: string; webhookId: string; lease: Date; attemptsBefore: number },
  outcome: { ok: boolean; last: boolean; nextAttemptAt: Date | null; now: Date },
): Promise<{ status: 'pending' | 'delivered' | 'failed' } | null> {
  const [webhook] = await ex
    .select({ enabled: agentWebhooks.enabled })
    .from(agentWebhooks)
    .where(eq(agentWebhooks.id, d.webhookId))
    .for(outcome.last ? 'no key update' : 'share');
  if (!webhook) return null;
  const status = outcome.ok ? 'delivered' : outcome.last || !webhook.enabled ? 'failed' : 'pending';
  const rows = await ex
    .update(webhookOutbox)
    .set({
      attempts: sql`${webhookOutbox.attempts} + 1`,
      leaseUntil: null,
      status,
      ...(status === 'pending' && outcome.nextAttemptAt ? { nextAttemptAt: outcome.nextAttemptAt } : {}),
      updatedAt: outcome.now,
    })
    .where(
      and(
        eq(webhookOutbox.id, d.id),
        eq(webhookOutbox.leaseUntil, d.lease),
        eq(webhookOutbox.attempts, d.attemptsBefore),
      ),
    )
    .returning({ status: webhookOutbox.status });
  return rows[0] ?? null;
}

/**
 * Puts a claimed delivery back, due at `until`, without counting an attempt: its host's budget
 * for this minute is spent. Only while this worker still holds the lease, as in finishAttempt.
 */
export async function deferDelivery(
  ex: Executor,
  d: { id: string; lease: Date; attemptsBefore: number },
  until: Date,
  now: Date,
): Promise<void> {
  await ex
    .update(webhookOutbox)
    .set({ leaseUntil: null, nextAttemptAt: until, updatedAt: now })
    .where(
      and(
        eq(webhookOutbox.id, d.id),
        eq(webhookOutbox.leaseUntil, d.lease),
        eq(webhookOutbox.attempts, d.attemptsBefore),
      ),
    );
}

export async function insertAttempt(ex: Executor, row: typeof webhookAttempts.$inferInsert): Promise<void> {
  await ex.insert(webhookAttempts).values(row);
}

/** Disables the webhook once (null when it already was) and gives up its other pending deliveries. */
export async function disable(ex: Executor, id: string, now: Date): Promise<WebhookRow | null> {
  const [row] = await ex
    .update(agentWebhooks)
    .set({ enabled: false, disabledAt: now, updatedAt: now })
    .where(and(eq(agentWebhooks.id, id), eq(agentWebhooks.enabled, true)))
    .returning();
  if (!row) return null;
  await ex
    .update(webhookOutbox)
    .set({ status: 'failed', updatedAt: now })
    .where(and(eq(webhookOutbox.webhookId, id), eq(webhookOutbox.status, 'pending')));
  return row;
}

/** The delivery log, newest first. */
export function attemptsOf(ex: Executor, webhookId: string, limit: number): Promise<AttemptRow[]> {
  return ex
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.webhookId, webhookId))
    .orderBy(desc(webhookAttempts.createdAt), desc(webhookAttempts.id))
    .limit(limit);
}
