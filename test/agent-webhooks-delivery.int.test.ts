import { desc, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activityEvents, agentWebhooks, webhookAttempts, webhookOutbox } from '../src/infra/db/schema.ts';
import type { NewEvent } from '../src/modules/activity/activity.service.ts';
import { MAX_ATTEMPTS, RETRY_DELAYS_S } from '../src/modules/agent-webhooks/webhook-delivery.ts';
import { addWebhook } from './helpers/agent-webhooks.ts';
import {
  buildTestApp,
  createProject,
  registerAgent,
  type TestAgent,
  type TestContext,
} from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { type Receiver, startReceiver } from './helpers/webhook-receiver.ts';

const receivers: Receiver[] = [];

const ctx = appForFile({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
afterEach(async () => {
  // Each test starts without webhooks; their outbox rows and attempts go with them.
  await ctx.database.db.delete(agentWebhooks);
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(respond?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}

const hook = async (c: TestContext, agent: TestAgent, url: string, types?: string[] | null) =>
  (await addWebhook(c, agent, url, types)) as { webhook: { id: string }; secret: string };

const deliver = (c: TestContext = ctx) => c.app.services.webhookDelivery.runOnce();

/** Records an event the way services do (personal events have no HTTP trigger here). */
async function record(c: TestContext, event: NewEvent): Promise<string> {
  await c.database.db.transaction((tx) => c.app.services.activity.record(tx, event));
  const [row] = await c.database.db.select().from(activityEvents).orderBy(desc(activityEvents.id)).limit(1);
  return row?.id as string;
}

async function deliveries(c: TestContext, agent: TestAgent, webhookId: string, query = '') {
  const res = await c.app.inject({
    method: 'GET',
    url: `/api/agents/me/webhooks/${webhookId}/deliveries${query}`,
    headers: agent.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().deliveries as {
    id: string;
    delivery_id: string;
    event_id: string;
    type: string;
    attempt: number;
    status_code: number | null;
    error: string | null;
    created_at: string;
    next_attempt_at: string | null;
  }[];
}

/**
 * `Webhook.verify` also refuses timestamps more than 5 minutes from its own now; deliveries are
 * stamped by the app's clock, which these tests move, so verification happens at the clock's now.
 */
function verify(secret: string, rx: Receiver, r: Receiver['received'][number]): unknown {
  vi.useFakeTimers({ toFake: ['Date'], now: ctx.clock.now() });
  try {
    return new Webhook(secret).verify(r.body, rx.headersOf(r));
  } finally {
    vi.useRealTimers();
  }
}

const typesOf = (r: Receiver) => r.received.map((x) => JSON.parse(x.body).type as string);

describe('webhook delivery', () => {
  it('retries a failed delivery and delivers once, signed per Standard Webhooks', async () => {
    const rx = await receiver((i) => (i === 0 ? 500 : 204));
    const owner = await registerAgent(ctx.app);
    const { webhook, secret } = await hook(ctx, owner, rx.url, ['project.created']);
    const project = await createProject(ctx.app, owner);

    expect(await deliver()).toBe(1);
    expect(rx.received).toHaveLength(1);
    expect(await deliver()).toBe(0); // the retry is not due yet
    ctx.clock.advance(RETRY_DELAYS_S[0] * 1000);
    expect(await deliver()).toBe(1);
    expect(rx.received).toHaveLength(2);

    const feed = await ctx.app.inject({ method: 'GET', url: `/api/activity?project_id=${project.id}` });
    const item = feed.json().activity[0];
    expect(item.type).toBe('project.created');
    for (const r of rx.received) {
      expect(r.method).toBe('POST');
      expect(r.path).toBe('/hook');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['webhook-id']).toBe(item.id);
      expect(r.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(verify(secret, rx, r)).toEqual(item);
    }
    // Stamped when each attempt was sent (the app's clock), not when the event happened.
    const stamps = rx.received.map((r) => Number(r.headers['webhook-timestamp']));
    expect(stamps[1]).toBe(Math.floor(ctx.clock.now().getTime() / 1000));
    expect((stamps[1] ?? 0) - (stamps[0] ?? 0)).toBe(RETRY_DELAYS_S[0]);
    // A wrong secret or a changed body does not verify.
    const first = rx.received[0];
    if (!first) throw new Error('no request');
    expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, rx, first)).toThrow(/signature/);
    const altered = { ...first, body: first.body.replace('project.created', 'project.activated') };
    expect(() => verify(secret, rx, altered)).toThrow(/signature/);
    // Exactly once: no further attempt, however long one waits.
    ctx.clock.advance(48 * 3600_000);
    expect(await deliver()).toBe(0);
    expect(rx.received).toHaveLength(2);

    const log = await deliveries(ctx, owner, webhook.id);
    expect(log.map((d) => [d.attempt, d.status_code, d.error])).toEqual([
      [2, 204, null],
      [1, 500, null],
    ]);
    expect(log[0]?.next_attempt_at).toBeNull();
    expect(log[0]?.delivery_id).toBe(log[1]?.delivery_id);
    expect(log[0]?.delivery_id).toMatch(/^dlv_/);
    expect(log[0]?.id).toMatch(/^att_/);
    expect(log.every((d) => d.event_id === item.id && d.type === 'project.created')).toBe(true);
    const firstAttempt = log[1];
    expect(Date.parse(firstAttempt?.next_attempt_at ?? '') - Date.parse(firstAttempt?.created_at ?? '')).toBe(
      RETRY_DELAYS_S[0] * 1000,
    );
    expect(await deliveries(ctx, owner, webhook.id, '?limit=1')).toEqual([log[0]]);
  });

  it('signs with the new secret only, from the moment it is rotated', async () => {
    const rx = await receiver();
    const owner = await registerAgent(ctx.app);
    const { webhook, secret: old } = await hook(ctx, owner, rx.url, ['agent.registered']);
    const rotated = await ctx.app.inject({
      method: 'POST',
      url: `/api/agents/me/webhooks/${webhook.id}/rotate-secret`,
      headers: owner.headers,
    });
    const secret = rotated.json().secret as string;
    await registerAgent(ctx.app);
    expect(await deliver()).toBe(1);
    const [r] = rx.received;
    if (!r) throw new Error('nothing delivered');
    expect(() => verify(old, rx, r)).toThrow(/signature/);
    expect(verify(secret, rx, r)).toMatchObject({ type: 'agent.registered' });
  });

  it('sends public events by subscription and personal events only to their recipients', async () => {
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => registerAgent(ctx.app)));
    if (!a || !b || !c || !d) throw new Error('agents');
    const [ra, rb, rc] = await Promise.all([receiver(), receiver(), receiver()]);
    if (!ra || !rb || !rc) throw new Error('receivers');
    await hook(ctx, a, ra.url, ['project.created']);
    await hook(ctx, b, rb.url, []);
    await hook(ctx, c, rc.url, null);

    await createProject(ctx.app, a); // public: a (subscribed) and c (all types)
    await registerAgent(ctx.app); // public: c only
    await record(ctx, { type: 'payout.failed', agentId: b.id, recipients: [b.id], data: {} });
    await record(ctx, { type: 'claim.expiring', agentId: c.id, recipients: [c.id, d.id], data: {} });
    expect(await deliver()).toBe(5);
    expect(typesOf(ra)).toEqual(['project.created']);
    expect(typesOf(rb)).toEqual(['payout.failed']);
    expect(typesOf(rc).sort()).toEqual(['agent.registered', 'claim.expiring', 'project.created']);
  });

  it('stops delivering when the webhook is deleted', async () => {
    const rx = await receiver();
    const owner = await registerAgent(ctx.app);
    const { webhook } = await hook(ctx, owner, rx.url, null);
    await registerAgent(ctx.app);
    const pending = await ctx.database.db
      .select()
      .from(webhookOutbox)
      .where(eq(webhookOutbox.webhookId, webhook.id));
    expect(pending).toHaveLength(1);
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/agents/me/webhooks/${webhook.id}`,
      headers: owner.headers,
    });
    expect(del.statusCode).toBe(204);
    expect(await deliver()).toBe(0);
    expect(rx.received).toHaveLength(0);
  });

  it('does not follow redirects', async () => {
    const rx = await receiver(() => 307);
    const owner = await registerAgent(ctx.app);
    const { webhook } = await hook(ctx, owner, rx.url, ['agent.registered']);
    await registerAgent(ctx.app);
    expect(await deliver()).toBe(1);
    expect(rx.received.map((r) => r.path)).toEqual(['/hook']);
    const [attempt] = await deliveries(ctx, owner, webhook.id);
    expect(attempt).toMatchObject({ attempt: 1, status_code: 307, error: 'redirects are not followed' });
    expect(attempt?.next_attempt_at).not.toBeNull();
  });

  it('checks the target again at delivery time', async () => {
    const rx = await receiver();
    const owner = await registerAgent(ctx.app);
    // Registered where private targets were allowed; delivered by an instance where they are not.
    const { webhook } = await hook(ctx, owner, rx.url.replace('127.0.0.1', 'localhost'), [
      'agent.registered',
    ]);
    const strict = await buildTestApp({
      database: ctx.database,
      clock: ctx.clock,
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' },
    });
    try {
      await registerAgent(ctx.app);
      expect(await deliver(strict)).toBe(1);
      expect(rx.received).toHaveLength(0);
      const [attempt] = await deliveries(ctx, owner, webhook.id);
      expect(attempt?.status_code).toBeNull();
      expect(attempt?.error).toMatch(/resolves to (127\.0\.0\.1|::1), a private/);
    } finally {
      await strict.close();
    }
  });

  it('disables the webhook after the last retry and tells the owner', async () => {
    const failing = await receiver(() => 500);
    const healthy = await receiver();
    const owner = await registerAgent(ctx.app);
    const { webhook } = await hook(ctx, owner, failing.url, ['project.created']);
    const { webhook: other } = await hook(ctx, owner, healthy.url, []);
    await createProject(ctx.app, owner);

    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      expect(await deliver(), `attempt ${attempt}`).toBe(1);
      const wait = (RETRY_DELAYS_S[attempt - 1] ?? 0) * 1000;
      ctx.clock.advance(wait - 1);
      expect(await deliver()).toBe(0);
      ctx.clock.advance(1);
    }
    // One more event just before the last attempt: it is given up with the webhook.
    await createProject(ctx.app, owner);
    expect(await deliver()).toBe(2);
    expect(failing.received).toHaveLength(MAX_ATTEMPTS + 1);

    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/agents/me/webhooks',
      headers: owner.headers,
    });
    const byId = new Map(
      (listed.json().webhooks as { id: string; enabled: boolean }[]).map((w) => [w.id, w]),
    );
    expect(byId.get(webhook.id)).toMatchObject({
      enabled: false,
      disabled_at: ctx.clock.now().toISOString(),
    });
    expect(byId.get(other.id)).toMatchObject({ enabled: true, disabled_at: null });
    const outbox = await ctx.database.db
      .select()
      .from(webhookOutbox)
      .where(eq(webhookOutbox.webhookId, webhook.id));
    expect(outbox.map((o) => o.status)).toEqual(['failed', 'failed']);

    const log = await deliveries(ctx, owner, webhook.id, '?limit=100');
    const first = log.at(-1);
    const last = log.find((d) => d.attempt === MAX_ATTEMPTS);
    expect(last?.next_attempt_at).toBeNull();
    expect(Date.parse(last?.created_at ?? '') - Date.parse(first?.created_at ?? '')).toBeGreaterThanOrEqual(
      24 * 3600_000,
    );

    const events = await ctx.database.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.type, 'webhook.disabled'));
    expect(events).toHaveLength(1);
    expect(events[0]?.recipients).toEqual([owner.id]);
    expect(events[0]?.data).toMatchObject({
      webhook_id: webhook.id,
      attempts: MAX_ATTEMPTS,
      last_status_code: 500,
    });
    // The owner's other webhook gets it; the disabled one never does.
    expect(await deliver()).toBe(1);
    expect(typesOf(healthy)).toEqual(['webhook.disabled']);
    ctx.clock.advance(48 * 3600_000);
    expect(await deliver()).toBe(0);
    expect(failing.received).toHaveLength(MAX_ATTEMPTS + 1);
    const attempts = await ctx.database.db
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.webhookId, webhook.id));
    expect(attempts).toHaveLength(MAX_ATTEMPTS + 1);
  });
});
