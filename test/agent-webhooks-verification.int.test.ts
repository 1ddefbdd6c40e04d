import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentWebhooks, webhookAttempts, webhookOutbox } from '../src/infra/db/schema.ts';
import { postJson, type Sender } from '../src/modules/agent-webhooks/http-sender.ts';
import { addWebhook } from './helpers/agent-webhooks.ts';
import { buildTestApp, expectError, registerAgent, type TestAgent, type TestContext } from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { challengeOf, type Receiver, startReceiver } from './helpers/webhook-receiver.ts';

/**
 * Closed to abuse: a webhook is sent events only after its URL answered a signed challenge (on
 * registration, after a URL change, or on /verify), and requests to one host are capped per minute
 * across all agents, the excess deferred.
 */

interface Verification {
  verified: boolean;
  status_code: number | null;
  error: string | null;
}
interface HookJson {
  id: string;
  url: string;
  status: string;
  enabled: boolean;
  verified_at: string | null;
}

const receivers: Receiver[] = [];
const extraApps: TestContext[] = [];

const ctx = appForFile({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
afterEach(async () => {
  await ctx.database.db.delete(agentWebhooks);
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await Promise.all(extraApps.splice(0).map((c) => c.close()));
});

async function receiver(opts: { echo?: boolean; challengeStatus?: number } = {}) {
  const r = await startReceiver(undefined, opts);
  receivers.push(r);
  return r;
}

const hook = async (c: TestContext, agent: TestAgent, url: string, types: string[] | null = null) =>
  (await addWebhook(c, agent, url, types)) as {
    webhook: HookJson;
    secret: string;
    verification: Verification;
  };

const verifyAgain = (c: TestContext, agent: TestAgent, id: string) =>
  c.app.inject({ method: 'POST', url: `/api/agents/me/webhooks/${id}/verify`, headers: agent.headers });

const patch = (c: TestContext, agent: TestAgent, id: string, payload: unknown) =>
  c.app.inject({
    method: 'PATCH',
    url: `/api/agents/me/webhooks/${id}`,
    headers: agent.headers,
    payload: payload as object,
  });

async function listed(c: TestContext, agent: TestAgent, id: string): Promise<HookJson | undefined> {
  const res = await c.app.inject({ method: 'GET', url: '/api/agents/me/webhooks', headers: agent.headers });
  return (res.json().webhooks as HookJson[]).find((w) => w.id === id);
}

const outboxOf = (c: TestContext, webhookId: string) =>
  c.database.db.select().from(webhookOutbox).where(eq(webhookOutbox.webhookId, webhookId));

const deliver = (c: TestContext = ctx) => c.app.services.webhookDelivery.runOnce();

/** `Webhook.verify` checks the timestamp against its own now; requests are stamped by the app's clock. */
function verifySignature(c: TestContext, secret: string, rx: Receiver, r: Receiver['received'][number]) {
  vi.useFakeTimers({ toFake: ['Date'], now: c.clock.now() });
  try {
    return new Webhook(secret).verify(r.body, rx.headersOf(r));
  } finally {
    vi.useRealTimers();
  }
}

describe('webhook verification', () => {
  it('challenges the URL on creation, signed; one that does not echo stays pending and gets nothing', async () => {
    const rx = await receiver({ echo: false });
    const owner = await registerAgent(ctx.app);
    const { webhook, secret, verification } = await hook(ctx, owner, rx.url);
    expect(webhook).toMatchObject({ status: 'pending_verification', enabled: true, verified_at: null });
    expect(verification).toEqual({
      verified: false,
      status_code: 200,
      error: 'answered 200 without the challenge in its body',
    });

    expect(rx.verifications).toHaveLength(1);
    const [challenge] = rx.verifications;
    if (!challenge) throw new Error('no challenge');
    expect(challenge.method).toBe('POST');
    expect(challenge.headers['content-type']).toBe('application/json');
    expect(challenge.headers['webhook-id']).toMatch(/^vrf_[0-9a-f]{32}$/);
    const payload = verifySignature(ctx, secret, rx, challenge) as Record<string, unknown>;
    expect(Object.keys(payload).sort()).toEqual(['challenge', 'type']);
    expect(payload.type).toBe('webhook.verification');
    expect(payload.challenge).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(() =>
      verifySignature(ctx, `whsec_${Buffer.alloc(32, 7).toString('base64')}`, rx, challenge),
    ).toThrow(/signature/);

    // Public and personal events alike: nothing is queued for it, nothing is sent.
    await registerAgent(ctx.app);
    await ctx.database.db.transaction((tx) =>
      ctx.app.services.activity.record(tx, {
        type: 'payout.failed',
        agentId: owner.id,
        recipients: [owner.id],
        data: {},
      }),
    );
    expect(await outboxOf(ctx, webhook.id)).toEqual([]);
    expect(await deliver()).toBe(0);
    expect(rx.received).toEqual([]);
    expect(await listed(ctx, owner, webhook.id)).toMatchObject({ status: 'pending_verification' });
  });

  it('makes a webhook whose URL echoes the challenge active, and sends it events', async () => {
    const rx = await receiver();
    const owner = await registerAgent(ctx.app);
    const { webhook, verification } = await hook(ctx, owner, rx.url, ['agent.registered']);
    expect(verification).toEqual({ verified: true, status_code: 200, error: null });
    expect(webhook).toMatchObject({ status: 'active', verified_at: ctx.clock.now().toISOString() });
    expect(await listed(ctx, owner, webhook.id)).toMatchObject({ status: 'active' });

    await registerAgent(ctx.app);
    expect(await deliver()).toBe(1);
    expect(rx.received.map((r) => JSON.parse(r.body).type)).toEqual(['agent.registered']);
    expect(rx.received.every((r) => challengeOf(r) === null)).toBe(true);
  });

  it('refuses an answer that is not exactly 200, or none', async () => {
    // Any 2xx delivers an event; the challenge needs 200 with the challenge in the body.
    const wrong = await receiver({ challengeStatus: 201 });
    const owner = await registerAgent(ctx.app);
    const refused = await hook(ctx, owner, wrong.url);
    expect(refused.webhook.status).toBe('pending_verification');
    expect(refused.verification).toEqual({
      verified: false,
      status_code: 201,
      error: 'answered 201; the challenge needs 200',
    });
    const closed = await hook(ctx, owner, 'http://127.0.0.1:9/hook');
    expect(closed.webhook.status).toBe('pending_verification');
    expect(closed.verification).toMatchObject({ verified: false, status_code: null });
    expect(closed.verification.error).toMatch(/ECONNREFUSED/);
  });

  it('sends the challenge again on /verify, to the owner only', async () => {
    const rx = await receiver({ echo: false });
    const owner = await registerAgent(ctx.app);
    const other = await registerAgent(ctx.app);
    const { webhook } = await hook(ctx, owner, rx.url, ['agent.registered']);
    expectError(await verifyAgain(ctx, other, webhook.id), 404, 'not_found');
    expectError(await verifyAgain(ctx, owner, 'whk_00000000000000000000000000000000'), 404, 'not_found');
    expect(rx.verifications).toHaveLength(1);

    const still = await verifyAgain(ctx, owner, webhook.id);
    expect(still.statusCode, still.body).toBe(200);
    expect(still.json()).toMatchObject({
      webhook: { id: webhook.id, status: 'pending_verification' },
      verification: { verified: false, status_code: 200 },
    });
    await registerAgent(ctx.app);
    expect(await outboxOf(ctx, webhook.id)).toEqual([]);

    rx.setEcho(true);
    const ok = await verifyAgain(ctx, owner, webhook.id);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      webhook: { id: webhook.id, status: 'active' },
      verification: { verified: true, status_code: 200, error: null },
    });
    expect(rx.verifications).toHaveLength(3);
    // Events from now on; the ones before verification were never queued.
    await registerAgent(ctx.app);
    expect(await deliver()).toBe(1);
    expect(rx.received).toHaveLength(1);
  });

  it('answers 409 for a disabled webhook', async () => {
    const rx = await receiver();
    const owner = await registerAgent(ctx.app);
    const { webhook } = await hook(ctx, owner, rx.url);
    await ctx.database.db
      .update(agentWebhooks)
      .set({ enabled: false })
      .where(eq(agentWebhooks.id, webhook.id));
    expect(await listed(ctx, owner, webhook.id)).toMatchObject({ status: 'disabled' });
    expectError(await verifyAgain(ctx, owner, webhook.id), 409, 'invalid_state');
    const other = await receiver();
    expectError(await patch(ctx, owner, webhook.id, { url: other.url }), 409, 'invalid_state');
    expect(rx.verifications).toHaveLength(1);
    expect(other.verifications).toHaveLength(0);
  });
});

describe('changing a webhook', () => {
  it('verifies a new URL again; until then nothing is sent, queued deliveries included', async () => {
    const first = await receiver();
    const second = await receiver({ echo: false });
    const owner = await registerAgent(ctx.app);
    const { webhook } = await hook(ctx, owner, first.url, ['agent.registered']);
    await registerAgent(ctx.app); // queued for the verified first URL, not yet sent

    const moved = await patch(ctx, owner, webhook.id, { url: second.url });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({
      webhook: { url: second.url, status: 'pending_verification', verified_at: null },
      verification: { verified: false, status_code: 200 },
    });
    expect(second.verifications).toHaveLength(1);
    expect(await deliver()).toBe(0);
    await registerAgent(ctx.app); // not queued: the webhook is unverified
    expect(await outboxOf(ctx, webhook.id)).toHaveLength(1);
    expect(first.received).toEqual([]);
    expect(second.received).toEqual([]);

    second.setEcho(true);
    expect((await verifyAgain(ctx, owner, webhook.id)).json().webhook.status).toBe('active');
    expect(await deliver()).toBe(1);
    expect(second.received).toHaveLength(1);
    expect(first.received).toEqual([]);
  });

  it('changes types without a challenge; the same URL is not challenged again', async () => {
    const rx = await receiver();
    const owner = await registerAgent(ctx.app);
    const other = await registerAgent(ctx.app);
    const { webhook } = await hook(ctx, owner, rx.url);
    const res = await patch(ctx, owner, webhook.id, { types: ['project.created'], url: rx.url });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      webhook: { types: ['project.created'], status: 'active' },
      verification: null,
    });
    expect(rx.verifications).toHaveLength(1);
    expectError(await patch(ctx, owner, webhook.id, {}), 400, 'validation_error');
    expectError(await patch(ctx, owner, webhook.id, { url: 'ftp://x/y' }), 400, 'validation_error');
    expectError(await patch(ctx, other, webhook.id, { types: null }), 404, 'not_found');
  });

  it('does not let an answer from the old URL verify the new one', async () => {
    // The challenge to the first URL is held until the URL has been changed.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let changed: () => void = () => {};
    const sent = new Promise<void>((resolve) => {
      changed = resolve;
    });
    const first = await receiver();
    const second = await receiver({ echo: false });
    const gated: Sender = async (req) => {
      if (req.url.port === String(first.port)) {
        changed();
        await held;
      }
      return postJson(req);
    };
    const c = await buildTestApp({
      database: ctx.database,
      clock: ctx.clock,
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
      webhookSender: gated,
    });
    extraApps.push(c);
    const owner = await registerAgent(c.app);
    const creating = hook(c, owner, first.url);
    await sent;
    const [row] = await c.database.db.select().from(agentWebhooks).where(eq(agentWebhooks.agentId, owner.id));
    const moved = await patch(c, owner, row?.id ?? '', { url: second.url });
    expect(moved.json().webhook.status).toBe('pending_verification');
    release();
    const created = await creating;
    expect(first.verifications).toHaveLength(1);
    expect(created.verification.verified).toBe(false);
    expect(created.webhook).toMatchObject({ url: second.url, status: 'pending_verification' });
  });
});

describe('the per-host cap', () => {
  it('defers deliveries to one host past N a minute, across agents and instances', async () => {
    const c = await buildTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_DELIVERIES_PER_HOST_PER_MINUTE: '3' },
    });
    extraApps.push(c);
    const [a, b] = await Promise.all([receiver(), receiver()]);
    if (!a || !b) throw new Error('receivers');
    const alice = await registerAgent(c.app);
    const bob = await registerAgent(c.app);
    const carol = await registerAgent(c.app);
    // Two receivers on two ports of one host, for two agents: one budget.
    const ha = await hook(c, alice, a.url, ['agent.registered']);
    const hb = await hook(c, bob, b.url, ['agent.registered']);
    expect([ha.webhook.status, hb.webhook.status]).toEqual(['active', 'active']);
    const toNextMinute = () => c.clock.advance(60_000 - (c.clock.now().getTime() % 60_000));
    toNextMinute();
    const windowStart = c.clock.now().getTime();

    for (let i = 0; i < 3; i++) await registerAgent(c.app);
    expect(await deliver(c)).toBe(3);
    expect(a.received.length + b.received.length).toBe(3);
    // The rest wait for the next minute: still pending, no attempt counted or logged.
    const outbox = [...(await outboxOf(c, ha.webhook.id)), ...(await outboxOf(c, hb.webhook.id))];
    const waiting = outbox.filter((o) => o.status === 'pending');
    expect(waiting).toHaveLength(3);
    for (const o of waiting) {
      expect(o.attempts).toBe(0);
      expect(o.leaseUntil).toBeNull();
      expect(o.nextAttemptAt.getTime()).toBe(windowStart + 60_000);
    }
    expect(await c.database.db.select().from(webhookAttempts)).toHaveLength(3);
    c.clock.advance(30_000);
    expect(await deliver(c)).toBe(0);

    // A second instance draws from the same budget: its challenge to the host is not sent.
    const other = await buildTestApp({
      database: c.database,
      clock: c.clock,
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_DELIVERIES_PER_HOST_PER_MINUTE: '3' },
    });
    extraApps.push(other);
    const third = await receiver();
    const late = await hook(other, carol, third.url);
    expect(late.webhook.status).toBe('pending_verification');
    expect(late.verification).toMatchObject({ verified: false, status_code: null });
    expect(late.verification.error).toMatch(/^127\.0\.0\.1 has had its 3 webhook requests this minute/);
    expect(third.verifications).toHaveLength(0);

    toNextMinute();
    expect(await deliver(other)).toBe(3);
    expect(a.received).toHaveLength(3);
    expect(b.received).toHaveLength(3);
    const after = [...(await outboxOf(c, ha.webhook.id)), ...(await outboxOf(c, hb.webhook.id))];
    expect(after.map((o) => [o.status, o.attempts])).toEqual(Array(6).fill(['delivered', 1]));
  });
});
