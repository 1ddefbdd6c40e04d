import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../infra/db/client.ts';
import { newId } from '../../lib/ids.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import * as repo from './agent-webhooks.repo.ts';
import { HostBudget } from './host-budget.ts';
import type { SendResult } from './http-sender.ts';
import { hostOf, sendSigned, type TargetDeps } from './signed-send.ts';

/**
 * Wait before each retry, in seconds: the first within 10 s, then growing; 12 attempts spread
 * over about 31.7 h, so a receiver that is down for a day still gets everything.
 */
export const RETRY_DELAYS_S = [5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800, 28_800, 28_800] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_S.length + 1;
export const DELIVERY_TIMEOUT_MS = 10_000;
// Longer than a delivery can take, so a live worker never loses its lease mid-attempt; a crashed
// worker's rows are taken over once it expires.
const LEASE_MS = 60_000;
const BATCH = 50;

export interface WebhookDeliveryDeps extends TargetDeps {
  db: Db;
  log: FastifyBaseLogger;
  activity: ActivityService;
  /** WEBHOOK_DELIVERIES_PER_HOST_PER_MINUTE: past it a delivery waits for the next minute. */
  perHostPerMinute: number;
  /** Told of each failed attempt (the metrics' failure counter). */
  onFailure?: () => void;
}

type Claimed = repo.ClaimedDelivery;

/**
 * The outbox worker: every instance runs it; SKIP LOCKED and the lease make each attempt happen
 * on one instance only. Delivery is at least once (a crash after the POST but before recording it
 * sends it again after the lease), so receivers deduplicate on `webhook-id`, the event id.
 */
export class WebhookDelivery {
  private readonly budget: HostBudget;

  constructor(private readonly deps: WebhookDeliveryDeps) {
    this.budget = new HostBudget({ db: deps.db, clock: deps.clock, perMinute: deps.perHostPerMinute });
  }

  /**
   * One pass: claims due deliveries and attempts each whose host has budget left this minute;
   * the others are put back for the next minute, not counted as attempts. Returns how many were
   * attempted.
   */
  async runOnce(): Promise<number> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const lease = new Date(now.getTime() + LEASE_MS);
    await this.budget.prune();
    const claimed = await repo.claimDue(db, now, lease, BATCH);
    if (claimed.length === 0) return 0;
    const [targets, events] = await Promise.all([
      repo.targetsOf(db, [...new Set(claimed.map((c) => c.webhook_id))]),
      repo.eventsOf(db, [...new Set(claimed.map((c) => c.event_id))]),
    ]);
    const targetById = new Map(targets.map((t) => [t.id, t]));
    const eventById = new Map(events.map((e) => [e.id, e]));
    const attempted = await Promise.all(
      claimed.map(async (c) => {
        const target = targetById.get(c.webhook_id);
        const event = eventById.get(c.event_id);
        // Deleted with its webhook since the claim: nothing to send.
        if (!target || !event) return true;
        const retryAt = await this.budget.take(hostOf(target.url));
        if (retryAt) {
          await repo.deferDelivery(db, { id: c.id, lease, attemptsBefore: c.attempts }, retryAt, clock.now());
          return false;
        }
        const result = await this.send(target, event);
        await this.record(c, lease, target, event.type, result);
        return true;
      }),
    );
    return attempted.filter(Boolean).length;
  }

  private async send(
    target: { url: string; secret: string },
    event: Awaited<ReturnType<typeof repo.eventsOf>>[number],
  ): Promise<SendResult> {
    // The same shape as the items of GET /api/activity.
    const body = JSON.stringify({
      id: event.id,
      type: event.type,
      agent_id: event.agentId,
      project_id: event.projectId,
      bounty_id: event.bountyId,
      data: event.data,
      created_at: event.createdAt.toISOString(),
    });
    // The event id is the message id: the same on every retry, so receivers deduplicate on it.
    return sendSigned(this.deps, target, { id: event.id, body }, DELIVERY_TIMEOUT_MS);
  }

  private async record(
    c: Claimed,
    lease: Date,
    target: { id: string; agentId: string; url: string },
    type: string,
    result: SendResult,
  ): Promise<void> {
    const { db, clock, activity, log } = this.deps;
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    if (!ok) this.deps.onFailure?.();
    const attempt = c.attempts + 1;
    const last = !ok && attempt >= MAX_ATTEMPTS;
    const now = clock.now();
    const delay = RETRY_DELAYS_S[attempt - 1];
    const nextAttemptAt = ok || last || delay === undefined ? null : new Date(now.getTime() + delay * 1000);
    await db.transaction(async (tx) => {
      const row = await repo.finishAttempt(
        tx,
        { id: c.id, webhookId: c.webhook_id, lease, attemptsBefore: c.attempts },
        { ok, last, nextAttemptAt, now },
      );
      // Deleted with its webhook, or taken over after the lease ran out: not ours to log.
      if (!row) return;
      await repo.insertAttempt(tx, {
        id: newId('attempt'),
        deliveryId: c.id,
        webhookId: c.webhook_id,
        eventId: c.event_id,
        type,
        attempt,
        statusCode: result.statusCode,
        error: result.error,
        nextAttemptAt: row.status === 'pending' ? nextAttemptAt : null,
        createdAt: now,
      });
      if (!last) return;
      // Disabled before the event is recorded, so this webhook gets no delivery of its own
      // disabling; the owner's other webhooks and streams do.
      const disabled = await repo.disable(tx, c.webhook_id, now);
      if (!disabled) return;
      await activity.record(tx, {
        type: 'webhook.disabled',
        agentId: target.agentId,
        recipients: [target.agentId],
        data: {
          webhook_id: target.id,
          url: target.url,
          attempts: attempt,
          last_status_code: result.statusCode,
          last_error: result.error,
        },
      });
      log.warn({ webhookId: target.id }, 'webhook disabled after failed deliveries');
    });
  }
}
