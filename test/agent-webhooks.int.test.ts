import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sender } from '../src/modules/agent-webhooks/http-sender.ts';
import {
  buildTestApp,
  expectError,
  registerAgent,
  type TestAgent,
  type TestApp,
  type TestContext,
} from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';

// Documentation addresses would be refused too; this one is plain public unicast, never contacted:
// the verification challenge each registration sends goes to `offline` instead.
const PUBLIC_URL = 'https://93.184.215.14/hooks/bounties';
const challenged: string[] = [];
const offline: Sender = async ({ url }) => {
  challenged.push(url.toString());
  return { statusCode: null, error: 'ECONNREFUSED' };
};

let strict: TestContext;

const ctx = appForFile({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, webhookSender: offline });
beforeAll(async () => {
  // A second app on the same database with the production default for private targets.
  strict = await buildTestApp({
    database: ctx.database,
    env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' },
    webhookSender: offline,
  });
});
afterAll(async () => {
  await strict.close();
});

function create(app: TestApp, agent: TestAgent | null, payload: unknown) {
  return app.inject({
    method: 'POST',
    url: '/api/agents/me/webhooks',
    headers: agent ? agent.headers : {},
    payload: payload as object,
  });
}

async function created(app: TestApp, agent: TestAgent, payload: unknown) {
  const res = await create(app, agent, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as {
    webhook: {
      id: string;
      url: string;
      types: string[] | null;
      status: string;
      enabled: boolean;
      created_at: string;
    };
    secret: string;
    verification: { verified: boolean; status_code: number | null; error: string | null };
  };
}

const list = async (agent: TestAgent) => {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/agents/me/webhooks', headers: agent.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().webhooks as { id: string; url: string; types: string[] | null; enabled: boolean }[];
};

describe('POST /api/agents/me/webhooks', () => {
  it('registers a webhook and shows its secret once', async () => {
    const agent = await registerAgent(ctx.app);
    const body = await created(ctx.app, agent, {
      url: PUBLIC_URL,
      types: ['bounty.created', 'project.created'],
    });
    expect(body.webhook.id).toMatch(/^whk_[0-9a-f]{32}$/);
    expect(body.webhook).toMatchObject({
      url: PUBLIC_URL,
      types: ['bounty.created', 'project.created'],
      enabled: true,
      // Its URL was challenged and did not answer: nothing goes to it until it does.
      status: 'pending_verification',
      verified_at: null,
    });
    expect(body.verification).toEqual({ verified: false, status_code: null, error: 'ECONNREFUSED' });
    expect(challenged.at(-1)).toBe(PUBLIC_URL);
    expect(Number.isNaN(Date.parse(body.webhook.created_at))).toBe(false);
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await list(agent);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(body.secret.slice(6));
  });

  it('subscribes to every public type without types, and to personal events only with []', async () => {
    const agent = await registerAgent(ctx.app);
    expect((await created(ctx.app, agent, { url: PUBLIC_URL })).webhook.types).toBeNull();
    expect((await created(ctx.app, agent, { url: PUBLIC_URL, types: null })).webhook.types).toBeNull();
    expect((await created(ctx.app, agent, { url: PUBLIC_URL, types: [] })).webhook.types).toEqual([]);
  });

  it('refuses malformed URLs and unknown types', async () => {
    const agent = await registerAgent(ctx.app);
    for (const url of [
      'not a url',
      '/relative/path',
      'ftp://93.184.215.14/x',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'https://user:pass@93.184.215.14/x',
      'https://token@93.184.215.14/x',
      `https://93.184.215.14/${'a'.repeat(2048)}`,
    ]) {
      const err = expectError(await create(ctx.app, agent, { url }), 400, 'validation_error');
      expect(err.message.length, url).toBeGreaterThan(0);
    }
    for (const payload of [
      {},
      { url: PUBLIC_URL, types: ['no.such.type'] },
      // Personal events always come; they are not subscribed to.
      { url: PUBLIC_URL, types: ['payout.failed'] },
      { url: PUBLIC_URL, types: ['bounty.created', 'bounty.created'] },
      { url: PUBLIC_URL, types: 'bounty.created' },
      { url: PUBLIC_URL, secret: 'whsec_mine' },
    ]) {
      expectError(await create(ctx.app, agent, payload), 400, 'validation_error');
    }
    expect(await list(agent)).toHaveLength(0);
  });

  it('refuses private, loopback and reserved targets unless allowed, resolving host names', async () => {
    const agent = await registerAgent(strict.app);
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://localhost:8080/x',
      'http://2130706433/x', // 127.0.0.1 in decimal
      'http://0x7f.1/x',
      'http://0.0.0.0/x',
      'http://10.1.2.3/x',
      'http://172.20.0.1/x',
      'http://192.168.1.1/x',
      'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1/x',
      'http://224.0.0.1/x',
      'http://255.255.255.255/x',
      'http://[::1]/x',
      'http://[::]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://[::ffff:a9fe:a9fe]/x',
      'http://[fc00::1]/x',
      'http://[fd12:3456::1]/x',
      'http://[fe80::1]/x',
      'http://[ff02::1]/x',
      'http://[2002:7f00:1::]/x', // 6to4 around 127.0.0.1
      'http://name.that.does.not.resolve.invalid/x',
    ]) {
      const err = expectError(await create(strict.app, agent, { url }), 400, 'validation_error');
      expect(err.details?.[0]?.field, url).toBe('url');
    }
    expect(await list(agent)).toHaveLength(0);
    await created(strict.app, agent, { url: PUBLIC_URL });
    await created(strict.app, agent, { url: 'https://[2606:4700:4700::1111]/x' });
    // The same targets are fine where private URLs are allowed (the embedded dev chain's default).
    await created(ctx.app, agent, { url: 'http://localhost:8080/x' });
    await created(ctx.app, agent, { url: 'http://[::1]:8080/x' });
    expect(await list(agent)).toHaveLength(4);
  });

  it('allows at most 10 webhooks per agent, also under concurrent requests', async () => {
    const agent = await registerAgent(ctx.app);
    const before = challenged.length;
    const results = await Promise.all(
      Array.from({ length: 15 }, () => create(ctx.app, agent, { url: PUBLIC_URL })),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(10);
    // A refused registration sends no challenge.
    expect(challenged.length - before).toBe(10);
    for (const r of results.filter((x) => x.statusCode !== 201)) expectError(r, 409, 'webhook_limit');
    const hooks = await list(agent);
    expect(hooks).toHaveLength(10);
    expectError(await create(ctx.app, agent, { url: PUBLIC_URL }), 409, 'webhook_limit');
    // Another agent's count is its own.
    await created(ctx.app, await registerAgent(ctx.app), { url: PUBLIC_URL });
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/agents/me/webhooks/${hooks[0]?.id}`,
      headers: agent.headers,
    });
    expect(del.statusCode).toBe(204);
    await created(ctx.app, agent, { url: PUBLIC_URL });
  });
});

describe('the other webhook endpoints', () => {
  let owner: TestAgent;
  let other: TestAgent;
  let hookId: string;
  let secret: string;

  beforeAll(async () => {
    owner = await registerAgent(ctx.app);
    other = await registerAgent(ctx.app);
    ({
      webhook: { id: hookId },
      secret,
    } = await created(ctx.app, owner, { url: PUBLIC_URL }));
    await created(ctx.app, other, { url: `${PUBLIC_URL}/other` });
  });

  it('lists only the caller’s own webhooks', async () => {
    const mine = await list(owner);
    expect(mine.map((w) => w.id)).toEqual([hookId]);
    expect(mine[0]).toMatchObject({ url: PUBLIC_URL, types: null, enabled: true, disabled_at: null });
    expect((await list(other)).map((w) => w.url)).toEqual([`${PUBLIC_URL}/other`]);
  });

  it('rotates the secret; another agent’s webhook is not found', async () => {
    const url = `/api/agents/me/webhooks/${hookId}/rotate-secret`;
    expectError(await ctx.app.inject({ method: 'POST', url, headers: other.headers }), 404, 'not_found');
    const res = await ctx.app.inject({ method: 'POST', url, headers: owner.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().secret).toMatch(/^whsec_/);
    expect(res.json().secret).not.toBe(secret);
    const missing = '/api/agents/me/webhooks/whk_00000000000000000000000000000000/rotate-secret';
    expectError(
      await ctx.app.inject({ method: 'POST', url: missing, headers: owner.headers }),
      404,
      'not_found',
    );
  });

  it('shows the delivery log only to the owner', async () => {
    const url = `/api/agents/me/webhooks/${hookId}/deliveries`;
    const res = await ctx.app.inject({ method: 'GET', url, headers: owner.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ deliveries: [] });
    expectError(await ctx.app.inject({ method: 'GET', url, headers: other.headers }), 404, 'not_found');
    for (const q of ['limit=0', 'limit=101', 'limit=x', 'foo=1']) {
      expectError(
        await ctx.app.inject({ method: 'GET', url: `${url}?${q}`, headers: owner.headers }),
        400,
        'validation_error',
      );
    }
  });

  it('deletes only the caller’s own webhook', async () => {
    const url = `/api/agents/me/webhooks/${hookId}`;
    expect((await ctx.app.inject({ method: 'DELETE', url })).statusCode).toBe(401);
    expectError(await ctx.app.inject({ method: 'DELETE', url, headers: other.headers }), 404, 'not_found');
    expect(await list(owner)).toHaveLength(1);
    const res = await ctx.app.inject({ method: 'DELETE', url, headers: owner.headers });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect(await list(owner)).toHaveLength(0);
    expectError(await ctx.app.inject({ method: 'DELETE', url, headers: owner.headers }), 404, 'not_found');
    expect(await list(other)).toHaveLength(1);
  });
});
