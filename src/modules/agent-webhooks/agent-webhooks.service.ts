import { randomBytes } from 'node:crypto';
import type { Db, Executor } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './agent-webhooks.repo.ts';
import {
  type CreateWebhookBody,
  type DeliveryAttemptJson,
  MAX_WEBHOOKS_PER_AGENT,
  type WebhookJson,
} from './agent-webhooks.schemas.ts';
import { parseWebhookUrl, type Resolver, resolveTarget, UnsafeTargetError } from './url-guard.ts';

export interface AgentWebhooksDeps {
  db: Db;
  clock: Clock;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: private and loopback targets are allowed (development). */
  allowPrivate: boolean;
  resolve: Resolver;
}

const toJson = (r: repo.WebhookRow): WebhookJson => ({
  id: r.id,
  url: r.url,
  types: r.types,
  enabled: r.enabled,
  disabled_at: r.disabledAt ? r.disabledAt.toISOString() : null,
  created_at: r.createdAt.toISOString(),
});

// Standard Webhooks keys: 24 to 64 random bytes, base64, behind `whsec_`.
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** An agent's outbound webhooks: registration, secrets, the delivery log, and outbox fan-out. */
export class AgentWebhooksService {
  constructor(private readonly deps: AgentWebhooksDeps) {}

  async create(agentId: string, body: CreateWebhookBody): Promise<{ webhook: WebhookJson; secret: string }> {
    const { db, clock } = this.deps;
    const url = await this.checkUrl(body.url);
    const secret = newSecret();
    const row = await db.transaction(async (tx) => {
      await repo.lockAgent(tx, agentId);
      if ((await repo.countOf(tx, agentId)) >= MAX_WEBHOOKS_PER_AGENT) {
        throw new AppError(
          'webhook_limit',
          `An agent has at most ${MAX_WEBHOOKS_PER_AGENT} webhooks; delete one first.`,
        );
      }
      const now = clock.now();
      return repo.insert(tx, {
        id: newId('webhook'),
        agentId,
        url: url.toString(),
        types: body.types ?? null,
        secret,
        enabled: true,
        createdAt: now,
        updatedAt: now,
      });
    });
    return { webhook: toJson(row), secret };
  }

  async list(agentId: string): Promise<WebhookJson[]> {
    return (await repo.listOf(this.deps.db, agentId)).map(toJson);
  }

  async remove(agentId: string, id: string): Promise<void> {
    if (!(await repo.deleteOwned(this.deps.db, agentId, id))) throw notFound('webhook');
  }

  /** A new secret; deliveries are signed with it from now on (the old one is forgotten). */
  async rotateSecret(agentId: string, id: string): Promise<string> {
    const secret = newSecret();
    if (!(await repo.setSecret(this.deps.db, agentId, id, secret, this.deps.clock.now()))) {
      throw notFound('webhook');
    }
    return secret;
  }

  async deliveries(agentId: string, id: string, limit: number): Promise<DeliveryAttemptJson[]> {
    const { db } = this.deps;
    if (!(await repo.findOwned(db, agentId, id))) throw notFound('webhook');
    const rows = await repo.attemptsOf(db, id, limit);
    return rows.map((r) => ({
      id: r.id,
      delivery_id: r.deliveryId,
      event_id: r.eventId,
      type: r.type,
      attempt: r.attempt,
      status_code: r.statusCode,
      error: r.error,
      created_at: r.createdAt.toISOString(),
      next_attempt_at: r.nextAttemptAt ? r.nextAttemptAt.toISOString() : null,
    }));
  }

  /**
   * Writes one outbox row per webhook the event goes to, in the event's own transaction, so an
   * event and its deliveries commit (or vanish) together. A single small query when no webhook
   * matches; a webhook disabled earlier in the transaction gets nothing.
   */
  async enqueue(
    tx: Executor,
    event: { id: string; type: string; recipients: string[] | null },
  ): Promise<void> {
    const webhookIds = await repo.subscribersOf(tx, event);
    if (webhookIds.length === 0) return;
    const now = this.deps.clock.now();
    await repo.insertOutbox(
      tx,
      webhookIds.map((webhookId) => ({
        id: newId('delivery'),
        webhookId,
        eventId: event.id,
        attempts: 0,
        status: 'pending' as const,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      })),
    );
  }

  private async checkUrl(raw: string): Promise<URL> {
    try {
      const url = parseWebhookUrl(raw);
      await resolveTarget(url, this.deps);
      return url;
    } catch (err) {
      if (!(err instanceof UnsafeTargetError)) throw err;
      throw new AppError('validation_error', err.message, [{ field: 'url', message: err.message }]);
    }
  }
}
