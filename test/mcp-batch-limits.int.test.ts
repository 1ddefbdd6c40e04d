import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/infra/db/client.ts';
import { MCP_MAX_BATCH } from '../src/mcp/mcp.routes.ts';
import { buildTestApp, expectError, registerAgent, type TestApp, type TestContext } from './helpers/app.ts';
import { reusableTestDatabase } from './helpers/database.ts';
import { buildRedisApp } from './helpers/http-suite.ts';

/** Issue 17: each call of a JSON-RPC batch on POST /mcp counts against the rate limit as one request. */

const KEY_LIMIT = 10;
const IP_LIMIT = 5;

// One database for the apps below; each app has its own in-memory rate-limit counters.
let database: Database;
beforeAll(async () => {
  database = await reusableTestDatabase();
});
afterAll(() => database.close());

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

async function start(env: Record<string, string>): Promise<TestContext> {
  ctx = await buildTestApp({ env, database });
  return ctx;
}

const toolCall = (id: number, name: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
});

const batchOf = (n: number, name: string) => Array.from({ length: n }, (_, i) => toolCall(i + 1, name));

function postMcp(app: TestApp, body: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...headers,
    },
    payload: JSON.stringify(body),
  });
}

/** The JSON-RPC answers of a streamed (SSE) MCP response, by id. */
function answers(res: LightMyRequestResponse): Map<number, { result?: { isError?: boolean } }> {
  const out = new Map<number, { result?: { isError?: boolean } }>();
  for (const line of res.body.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const msg = JSON.parse(line.slice('data: '.length));
    for (const m of Array.isArray(msg) ? msg : [msg]) out.set(m.id, m);
  }
  return out;
}

const remaining = (res: LightMyRequestResponse) => Number(res.headers['x-ratelimit-remaining']);

/** The contract's envelope and nothing else. */
function expectEnvelope(res: LightMyRequestResponse, status: number, code: string) {
  const err = expectError(res, status, code);
  expect(Object.keys(res.json())).toEqual(['error']);
  return err;
}

async function mcpCallsMetric(c: TestContext): Promise<Record<string, number>> {
  const text = (await c.app.inject({ method: 'GET', url: '/metrics' })).body;
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^mcp_calls_total\{outcome="(\w+)"\} (\d+)$/gm))
    out[m[1] as string] = Number(m[2]);
  return out;
}

describe('POST /mcp batches and the rate limit', () => {
  it('serves a batch within the budget and spends one request per call', async () => {
    const c = await start({ RATE_LIMIT_PER_KEY_PER_MINUTE: String(KEY_LIMIT) });
    const agent = await registerAgent(c.app);

    const res = await postMcp(c.app, batchOf(4, 'my_profile'), agent.headers);
    expect(res.statusCode, res.body).toBe(200);
    const got = answers(res);
    expect([...got.keys()].sort()).toEqual([1, 2, 3, 4]);
    for (const a of got.values()) expect(a.result?.isError ?? false).toBe(false);
    expect(res.headers['x-ratelimit-limit']).toBe(String(KEY_LIMIT));
    expect(remaining(res)).toBe(KEY_LIMIT - 4);

    // The next request, of any kind, sees what the batch left.
    const me = await c.app.inject({ method: 'GET', url: '/api/agents/me', headers: agent.headers });
    expect(me.statusCode).toBe(200);
    expect(remaining(me)).toBe(KEY_LIMIT - 5);

    // A single message still counts once.
    const single = await postMcp(c.app, toolCall(9, 'my_profile'), agent.headers);
    expect(single.statusCode).toBe(200);
    expect(remaining(single)).toBe(KEY_LIMIT - 6);
    expect(await mcpCallsMetric(c)).toMatchObject({ served: 5 });
  });

  it('refuses a batch larger than the budget left with 429 rate_limited, counting only its own request', async () => {
    const c = await start({ RATE_LIMIT_PER_KEY_PER_MINUTE: String(KEY_LIMIT) });
    const agent = await registerAgent(c.app);

    // More calls than the whole budget: never fits.
    const huge = await postMcp(c.app, batchOf(KEY_LIMIT + 1, 'my_profile'), agent.headers);
    const err = expectEnvelope(huge, 429, 'rate_limited');
    expect(err.message).toMatch(/smaller batches/);
    expect(Number(huge.headers['retry-after'])).toBeGreaterThan(0);
    expect(huge.headers['x-ratelimit-limit']).toBe(String(KEY_LIMIT));
    expect(remaining(huge)).toBe(KEY_LIMIT - 1);

    // Spend down to 3 left, then a batch of 4 does not fit (its request leaves 2 for 3 more calls).
    const six = await postMcp(c.app, batchOf(6, 'my_profile'), agent.headers);
    expect(six.statusCode, six.body).toBe(200);
    expect(remaining(six)).toBe(3);
    const four = await postMcp(c.app, batchOf(4, 'my_profile'), agent.headers);
    expect(expectEnvelope(four, 429, 'rate_limited').message).toMatch(/retry in \d+ seconds/);
    expect(remaining(four)).toBe(2);
    expect(Number(four.headers['retry-after'])).toBeGreaterThan(0);

    // What is left still serves a batch that fits it exactly, then the budget is spent.
    const two = await postMcp(c.app, batchOf(2, 'my_profile'), agent.headers);
    expect(two.statusCode, two.body).toBe(200);
    expect(answers(two).size).toBe(2);
    expect(remaining(two)).toBe(0);
    expectEnvelope(await postMcp(c.app, toolCall(1, 'my_profile'), agent.headers), 429, 'rate_limited');
    expect(await mcpCallsMetric(c)).toEqual({ served: 8, rate_limited: KEY_LIMIT + 1 + 4 });
  });

  it('counts a batch without a key against the client IP', async () => {
    const c = await start({ RATE_LIMIT_PER_IP_PER_MINUTE: String(IP_LIMIT) });
    const ok = await postMcp(c.app, batchOf(3, 'search_bounties'));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(answers(ok).size).toBe(3);
    expect(remaining(ok)).toBe(IP_LIMIT - 3);
    expectEnvelope(await postMcp(c.app, batchOf(3, 'search_bounties')), 429, 'rate_limited');
  });

  it('is stated in skill.md', async () => {
    const c = await start({ RATE_LIMIT_PER_KEY_PER_MINUTE: String(KEY_LIMIT) });
    const skill = (await c.app.inject({ method: 'GET', url: '/skill.md' })).body;
    expect(skill).toContain(
      `each message of a JSON-RPC batch on \`/mcp\` counts as one request, at most ${MCP_MAX_BATCH} per batch`,
    );
  });

  it(`refuses a batch of more than ${MCP_MAX_BATCH} messages with 400 validation_error`, async () => {
    const c = await start({ RATE_LIMIT_PER_KEY_PER_MINUTE: '1000' });
    const agent = await registerAgent(c.app);
    const res = await postMcp(c.app, batchOf(MCP_MAX_BATCH + 1, 'my_profile'), agent.headers);
    const err = expectEnvelope(res, 400, 'validation_error');
    expect(err.details).toEqual([{ field: 'body', message: expect.stringContaining(String(MCP_MAX_BATCH)) }]);
    // Refused before any call ran or was counted beyond the request itself.
    expect(remaining(res)).toBe(999);
    const max = await postMcp(c.app, batchOf(MCP_MAX_BATCH, 'my_profile'), agent.headers);
    expect(max.statusCode, max.body).toBe(200);
    expect(answers(max).size).toBe(MCP_MAX_BATCH);
    expect(remaining(max)).toBe(999 - MCP_MAX_BATCH);
  });
});

describe('POST /mcp batches with the counters in Redis (TEST_REDIS_URL)', () => {
  const redisUrl = process.env.TEST_REDIS_URL;

  it.skipIf(!redisUrl)('spends, on the shared counter, a budget every instance sees', async () => {
    // Counters of their own in the shared Redis: the same test on the other database, running in the
    // same minute from the same address, would otherwise spend this network's budget too.
    const keyPrefix = `test-${randomUUID()}:`;
    const clients = [0, 1].map(() => new Redis(redisUrl as string, { maxRetriesPerRequest: 1, keyPrefix }));
    const env = { RATE_LIMIT_PER_KEY_PER_MINUTE: String(KEY_LIMIT) };
    const apps = await Promise.all(clients.map((redis) => buildRedisApp({ database, redis, env })));
    const [one, two] = apps as [TestApp, TestApp];
    try {
      const agent = await registerAgent(one);
      const batch = await postMcp(one, batchOf(4, 'my_profile'), agent.headers);
      expect(batch.statusCode, batch.body).toBe(200);
      expect(remaining(batch)).toBe(KEY_LIMIT - 4);
      const me = await two.inject({
        method: 'GET',
        url: '/api/agents/me',
        headers: agent.headers,
      });
      expect(remaining(me)).toBe(KEY_LIMIT - 5);
      // 5 left: a batch of 6 is refused on either instance (only its own request counted)...
      const big = await postMcp(two, batchOf(6, 'my_profile'), agent.headers);
      expectEnvelope(big, 429, 'rate_limited');
      expect(remaining(big)).toBe(KEY_LIMIT - 6);
      // ...and a batch of what is left is served.
      const rest = await postMcp(one, batchOf(KEY_LIMIT - 6, 'my_profile'), agent.headers);
      expect(rest.statusCode, rest.body).toBe(200);
      expect(remaining(rest)).toBe(0);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await Promise.all(clients.map((c) => c.quit()));
    }
  });
});
