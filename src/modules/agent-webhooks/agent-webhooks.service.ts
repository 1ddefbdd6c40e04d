import { randomBytes } from 'node:crypto';
import type { Db, Executor } from '../../infra/db/client.ts';
import { AppError, invalidState, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { AgentDirectory } from '../agents/agent-directory.ts';
import * as repo from './agent-webhooks.repo.ts';
import {
  type CreateWebhookBody,
  type DeliveryAttemptJson,
  MAX_WEBHOOKS_PER_AGENT,
  type UpdateWebhookBody,
  type VerificationJson,
  type WebhookJson,
} from './agent-webhooks.schemas.ts';
import { HostBudget } from './host-budget.ts';
import type { TargetDeps } from './signed-send.ts';
import { parseWebhookUrl, resolveTarget, UnsafeTargetError } from './url-guard.ts';
import { WebhookVerifier } from './webhook-verification.ts';

export interface AgentWebhooksDeps extends TargetDeps {
  db: Db;
  /**
   * The agents module's row lock on an agent (wired in compose.ts): taken before counting, it
   * keeps the per-agent webhook limit under concurrent registrations.
   */
  agents: Pick<AgentDirectory, 'lock'>;
  /** WEBHOOK_DELIVERIES_PER_HOST_PER_MINUTE; verification challenges count against it too. */
  perHostPerMinute: number;
}

const toJson = (r: repo.WebhookRow): WebhookJson => ({
  id: r.id,
  url: r.url,
  types: r.types,
  status: !r.enabled ? 'disabled' : r.verifiedAt ? 'active' : 'pending_verification',
  enabled: r.enabled,
  disabled_at: r.disabledAt ? r.disabledAt.toISOString() : null,
  verified_at: r.verifiedAt ? r.verifiedAt.toISOString() : null,
  created_at: r.createdAt.toISOString(),
});

const disabled = () =>
  invalidState('This webhook was disabled after failing deliveries; delete it and register the URL again.');

// Standard Webhooks keys: 24 to 64 random bytes, base64, behind `whsec_`.
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** An agent's outbound webhooks: registration, secrets, the delivery log, and outbox fan-out. */
export class AgentWebhooksService {
  private readonly verifier: WebhookVerifier;

  constructor(private readonly deps: AgentWebhooksDeps) {
    const budget = new HostBudget({ db: deps.db, clock: deps.clock, perMinute: deps.perHostPerMinute });
    this.verifier = new WebhookVerifier({ ...deps, budget });
  }

  /** Registers the webhook, then sends its URL the challenge (after the commit: no request waits in a transaction). */
  async create(
    agentId: string,
    body: CreateWebhookBody,
  ): Promise<{ webhook: WebhookJson; secret: string; verification: VerificationJson }> {
    const { db, clock, agents } = this.deps;
    const url = await this.checkUrl(body.url);
    const secret = newSecret();
    const row = await db.transaction(async (tx) => {
      await agents.lock(tx, agentId);
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
        verifiedAt: null,
        createdAt: now,
        updatedAt: now,
      });
    });
    const verification = await this.verifier.verify(row);
    return { webhook: await this.reread(agentId, row), secret, verification };
  }

  /**
   * Changes the URL or the types. A new URL is unverified until it answers its own challenge,
   * sent here: it receives nothing before, deliveries queued for the old URL included.
   */
  async update(
    agentId: string,
    id: string,
    body: UpdateWebhookBody,
  ): Promise<{ webhook: WebhookJson; verification: VerificationJson | null }> {
    const { db, clock } = this.deps;
    const current = await repo.findOwned(db, agentId, id);
    if (!current) throw notFound('webhook');
    const url = body.url === undefined ? null : (await this.checkUrl(body.url)).toString();
    const moved = url !== null && url !== current.url;
    if (moved && !current.enabled) throw disabled();
    const row = await repo.updateOwned(db, agentId, id, {
      ...(moved ? { url, verifiedAt: null } : {}),
      ...(body.types !== undefined ? { types: body.types } : {}),
      updatedAt: clock.now(),
    });
    if (!row) throw notFound('webhook');
    if (!moved) return { webhook: toJson(row), verification: null };
    const verification = await this.verifier.verify(row);
    return { webhook: await this.reread(agentId, row), verification };
  }

  /** Sends the challenge again, e.g. once the receiver is fixed to answer it. */
  async verify(
    agentId: string,
    id: string,
  ): Promise<{ webhook: WebhookJson; verification: VerificationJson }> {
    const row = await repo.findOwned(this.deps.db, agentId, id);
    if (!row) throw notFound('webhook');
    if (!row.enabled) throw disabled();
    const verification = await this.verifier.verify(row);
    return { webhook: await this.reread(agentId, row), verification };
  }

  /** The webhook as it is now, after a verification may have marked it (or a delete removed it). */
  private async reread(agentId: string, row: repo.WebhookRow): Promise<WebhookJson> {
    return toJson((await repo.findOwned(this.deps.db, agentId, row.id)) ?? row);
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
