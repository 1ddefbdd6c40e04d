import { randomInt } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectError, registerAgent, type TestApp, type TestContext } from './helpers/app.ts';
import { buildRedisApp, randomIp } from './helpers/http-suite.ts';
import { csrfOf, errorsOf } from './helpers/web-forms.ts';

/**
 * Issue 26: one registration budget per client (an IPv4 address, or an IPv6 /64) across the API,
 * web sign-up and MCP `register_agent`, and one ceiling per client across all its API keys.
 */

const BUDGET = 3;
type Outcome = 'created' | 'rate_limited';

let seq = 0;
const freshName = () => `rb ${process.pid} ${Date.now().toString(36)} ${++seq}`;
/** A /64 no other test uses: `${prefix}::1` and `${prefix}:a:b:c:d` are two addresses in it. */
const randomPrefix = () => `2001:db8:${randomInt(0x10000).toString(16)}:${randomInt(0x10000).toString(16)}`;

function refused(res: LightMyRequestResponse): Outcome {
  expectError(res, 429, 'rate_limited');
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  return 'rate_limited';
}

async function viaApi(app: TestApp, remoteAddress: string): Promise<Outcome> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/agents/register',
    remoteAddress,
    payload: { name: freshName() },
  });
  if (res.statusCode === 201) return 'created';
  return refused(res);
}

async function viaWeb(app: TestApp, remoteAddress: string): Promise<Outcome> {
  const form = await app.inject({ method: 'GET', url: '/sign-up', remoteAddress });
  const cookie = form.cookies.find((c) => c.name === 'bm_signup')?.value as string;
  const res = await app.inject({
    method: 'POST',
    url: '/sign-up',
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `bm_signup=${cookie}` },
    payload: new URLSearchParams({ name: freshName(), _csrf: csrfOf(form.body) }).toString(),
  });
  if (res.statusCode === 201) return 'created';
  expect(res.statusCode, res.body).toBe(429);
  expect(errorsOf(res.body).join(' ')).toMatch(/Too many agents/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  return 'rate_limited';
}

/** `calls` register_agent calls in one JSON-RPC batch; the outcome of each, in order. */
async function viaMcp(
  app: TestApp,
  remoteAddress: string,
  calls = 1,
  headers: Record<string, string> = {},
): Promise<Outcome[]> {
  const batch = Array.from({ length: calls }, (_, i) => ({
    jsonrpc: '2.0',
    id: i + 1,
    method: 'tools/call',
    params: { name: 'register_agent', arguments: { name: freshName() } },
  }));
  const res = await app.inject({
    method: 'POST',
    url: '/mcp',
    remoteAddress,
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...headers,
    },
    payload: JSON.stringify(calls === 1 ? batch[0] : batch),
  });
  expect(res.statusCode, res.body).toBe(200);
  const byId = new Map<number, Outcome>();
  for (const line of res.body.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const msg = JSON.parse(line.slice('data: '.length));
    for (const m of Array.isArray(msg) ? msg : [msg]) {
      const result = m.result as {
        isError?: boolean;
        structuredContent?: { code?: string; message?: string };
      };
      if (!result.isError) byId.set(m.id, 'created');
      else {
        expect(result.structuredContent?.code, result.structuredContent?.message).toBe('rate_limited');
        expect(result.structuredContent?.message).toMatch(/retry in \d+ seconds/);
        byId.set(m.id, 'rate_limited');
      }
    }
  }
  return batch.map((b) => byId.get(b.id) as Outcome);
}

describe('one registration budget per client', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp({ env: { RATE_LIMIT_REGISTER_PER_IP_PER_HOUR: String(BUDGET) } });
  });
  afterAll(() => ctx?.close());

  it('one IPv4 address (mapped into IPv6 or not) meets one budget across the API, the web and MCP', async () => {
    const ip = randomIp();
    expect(await viaApi(ctx.app, ip)).toBe('created');
    expect(await viaWeb(ctx.app, `::ffff:${ip}`)).toBe('created');
    expect(await viaMcp(ctx.app, ip)).toEqual(['created']);
    // Spent, whichever path comes next.
    expect(await viaApi(ctx.app, `::ffff:${ip}`)).toBe('rate_limited');
    expect(await viaWeb(ctx.app, ip)).toBe('rate_limited');
    expect(await viaMcp(ctx.app, ip)).toEqual(['rate_limited']);
    expect(await viaApi(ctx.app, ip)).toBe('rate_limited');
    // Another address has its own.
    expect(await viaApi(ctx.app, randomIp())).toBe('created');
  });

  it('every address of one IPv6 /64 spends the same budget; another /64 has its own', async () => {
    const p = randomPrefix();
    expect(await viaApi(ctx.app, `${p}::1`)).toBe('created');
    expect(await viaWeb(ctx.app, `${p}:1234:5678:9abc:def0`)).toBe('created');
    expect(await viaMcp(ctx.app, `${p}:ffff:ffff:ffff:ffff`)).toEqual(['created']);
    expect(await viaApi(ctx.app, `${p}::2`)).toBe('rate_limited');
    expect(await viaWeb(ctx.app, `${p}::3`)).toBe('rate_limited');
    expect(await viaMcp(ctx.app, `${p}:0:0:0:4`)).toEqual(['rate_limited']);

    const [a, b, c, d] = p.split(':').map((h) => Number.parseInt(h, 16)) as [number, number, number, number];
    const neighbour = [a, b, c, (d + 1) % 0x10000].map((h) => h.toString(16)).join(':');
    expect(await viaApi(ctx.app, `${neighbour}::1`)).toBe('created');
    expect(await viaMcp(ctx.app, `${neighbour}::2`)).toEqual(['created']);
  });

  it('a batch of register_agent calls gets exactly what is left of the budget, the rest refused', async () => {
    const ip = randomIp();
    expect(await viaApi(ctx.app, ip)).toBe('created');
    const outcomes = await viaMcp(ctx.app, ip, BUDGET + 2);
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(BUDGET - 1);
    expect(outcomes.filter((o) => o === 'rate_limited')).toHaveLength(3);
    expect(await viaWeb(ctx.app, ip)).toBe('rate_limited');
  });
});

describe('the probe: 31 register_agent calls in one batch on a budget of 30', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp({ env: { RATE_LIMIT_REGISTER_PER_IP_PER_HOUR: '30' } });
  });
  afterAll(() => ctx?.close());

  it('accepts 30 and refuses one', async () => {
    const outcomes = await viaMcp(ctx.app, randomIp(), 31);
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(30);
    expect(outcomes.filter((o) => o === 'rate_limited')).toHaveLength(1);
  });
});

describe('one ceiling per client across all its API keys', () => {
  const PER_KEY = 10;
  const CEILING = 6;
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp({
      env: {
        RATE_LIMIT_PER_KEY_PER_MINUTE: String(PER_KEY),
        RATE_LIMIT_KEYS_PER_IP_PER_MINUTE: String(CEILING),
      },
    });
  });
  afterAll(() => ctx?.close());

  const me = (headers: Record<string, string>, remoteAddress: string) =>
    ctx.app.inject({ method: 'GET', url: '/api/agents/me', headers, remoteAddress });

  it('counts a request with a key against the key and against its client (/64)', async () => {
    const agents = await Promise.all([0, 1, 2, 3].map(() => registerAgent(ctx.app)));
    const p = randomPrefix();
    // Three keys, two requests each, from three addresses of one /64: the ceiling is spent.
    for (const [i, agent] of agents.slice(0, 3).entries())
      for (const n of [1, 2]) expect((await me(agent.headers, `${p}::${i}:${n}`)).statusCode).toBe(200);
    const [first, , , fresh] = agents as [(typeof agents)[0], unknown, unknown, (typeof agents)[0]];
    // A fourth key, unused so far, from yet another address of the /64: refused all the same.
    const res = await me(fresh.headers, `${p}::99`);
    refused(res);
    expect(res.json().error.message).toMatch(/with API keys/);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    refused(await me(first.headers, `${p}::1`));
    // The keys themselves are not spent: from another client they still work.
    expect((await me(fresh.headers, `${randomPrefix()}::1`)).statusCode).toBe(200);
    expect((await me(first.headers, randomIp())).statusCode).toBe(200);
    // Without a key the client spends its own per-IP budget, apart from the ceiling.
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/projects', remoteAddress: `${p}::1` })).statusCode,
    ).toBe(200);
  });

  it('counts each call of an MCP batch against the ceiling too', async () => {
    const [a, b] = await Promise.all([registerAgent(ctx.app), registerAgent(ctx.app)]);
    const ip = randomIp();
    const mcp = (agent: typeof a, calls: number) =>
      ctx.app.inject({
        method: 'POST',
        url: '/mcp',
        remoteAddress: ip,
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...agent.headers,
        },
        payload: JSON.stringify(
          Array.from({ length: calls }, (_, i) => ({
            jsonrpc: '2.0',
            id: i + 1,
            method: 'tools/call',
            params: { name: 'my_profile', arguments: {} },
          })),
        ),
      });
    expect(refused(await mcp(a, CEILING + 1))).toBe('rate_limited');
    // That refusal counted its own request: CEILING - 1 left, which a batch of 4 and one request spend.
    expect((await mcp(a, 4)).statusCode).toBe(200);
    expect((await me(b.headers, ip)).statusCode).toBe(200);
    refused(await me(b.headers, ip));
  });
});

describe('with the counters in Redis (TEST_REDIS_URL), one budget on every instance', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  let ctx: TestContext;
  const clients: Redis[] = [];
  let apps: TestApp[] = [];
  beforeAll(async () => {
    if (!redisUrl) return;
    ctx = await buildTestApp();
    const env = {
      RATE_LIMIT_REGISTER_PER_IP_PER_HOUR: String(BUDGET),
      RATE_LIMIT_KEYS_PER_IP_PER_MINUTE: '2',
    };
    apps = await Promise.all(
      [0, 1].map(() => {
        const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
        clients.push(redis);
        return buildRedisApp({ database: ctx.database, redis, env });
      }),
    );
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await Promise.all(clients.map((c) => c.quit()));
    await ctx?.close();
  });

  it.skipIf(!redisUrl)('shares the registration budget of a /64 across paths and instances', async () => {
    const [one, two] = apps as [TestApp, TestApp];
    const p = randomPrefix();
    expect(await viaApi(one, `${p}::1`)).toBe('created');
    expect(await viaWeb(two, `${p}::2`)).toBe('created');
    expect(await viaMcp(one, `${p}::3`, 2)).toEqual(['created', 'rate_limited']);
    expect(await viaApi(two, `${p}::4`)).toBe('rate_limited');
    expect(await viaMcp(two, `${p}::5`)).toEqual(['rate_limited']);
  });

  it.skipIf(!redisUrl)('shares the ceiling across keys between instances', async () => {
    const [one, two] = apps as [TestApp, TestApp];
    const [a, b] = await Promise.all([registerAgent(ctx.app), registerAgent(ctx.app)]);
    const ip = randomIp();
    const get = (app: TestApp, headers: Record<string, string>) =>
      app.inject({ method: 'GET', url: '/api/agents/me', headers, remoteAddress: ip });
    expect((await get(one, a.headers)).statusCode).toBe(200);
    expect((await get(two, b.headers)).statusCode).toBe(200);
    refused(await get(one, b.headers));
    refused(await get(two, a.headers));
  });
});
