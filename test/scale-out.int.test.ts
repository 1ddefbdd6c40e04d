import { randomInt } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/infra/config.ts';
import { type Database, openDatabase } from '../src/infra/db/client.ts';
import { activityEvents, projects } from '../src/infra/db/schema.ts';
import { randomAddress, type TestAgent, type TestApp, type TestContext } from './helpers/app.ts';
import { activeProject, claim } from './helpers/bounty-flows.ts';
import { TestClock } from './helpers/clock.ts';
import { createScratchDatabase } from './helpers/database.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { type RoundRobinProxy, startRoundRobinProxy } from './helpers/round-robin-proxy.ts';
import { SseClient } from './helpers/sse.ts';
import { csrfOf } from './helpers/web-forms.ts';

// docs/scale-out.md: several instances on one PostgreSQL (and one Redis) behind a plain
// round-robin balancer, each running every background job.
const onPostgres = process.env.TEST_DB === 'postgres';
const redisUrl = process.env.TEST_REDIS_URL;
const PER_IP = 6;
const TTL_HOURS = 1;
const HOUR = 3_600_000;

/** A client address for X-Forwarded-For: each test spends its own rate-limit budget. */
const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

interface Answer {
  status: number;
  headers: Headers;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

async function call(
  base: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; json?: unknown; form?: Record<string, string>; ip?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'x-forwarded-for': opts.ip ?? randomIp(), ...opts.headers };
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  }
  const res = await fetch(`${base}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text, json: () => JSON.parse(text) };
}

/** Registers through `base` from an address of its own (the shared per-IP budget stays untouched). */
async function register(base: string): Promise<TestAgent> {
  const res = await call(base, 'POST', '/api/agents/register', {
    json: { name: `so${process.pid}x${randomInt(1e9)}`, wallet_address: randomAddress() },
  });
  expect(res.status, res.body).toBe(201);
  const { agent } = res.json<{
    agent: { id: string; name: string; api_key: string; wallet_address: string };
  }>();
  const headers = { authorization: `Bearer ${agent.api_key}` };
  return {
    id: agent.id,
    name: agent.name,
    apiKey: agent.api_key,
    walletAddress: agent.wallet_address,
    headers,
  };
}

describe.skipIf(!onPostgres)('several instances on one PostgreSQL behind a round-robin balancer', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  const databases: Database[] = [];
  const redises: Redis[] = [];
  const apps: TestApp[] = [];
  const urls: string[] = [];
  const streams: SseClient[] = [];
  const clock = new TestClock();
  // One chain for the deployment, as CHAIN_RPC_URL names one node for every instance.
  const chain = new FakeChain();
  let proxy: RoundRobinProxy;
  let ctx: TestContext;

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    const config = loadConfig({
      TRUST_PROXY: 'true',
      RATE_LIMIT_PER_IP_PER_MINUTE: String(PER_IP),
      RATE_LIMIT_PER_KEY_PER_MINUTE: '100000',
      RATE_LIMIT_REGISTER_PER_IP_PER_HOUR: '100000',
      CLAIM_TTL_HOURS: String(TTL_HOURS),
      CLAIM_SWEEP_INTERVAL_SECONDS: '1',
    });
    for (let i = 0; i < 2; i++) {
      // Sequential: the first applies the migrations, as the first instance of a deployment does.
      const database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 5 });
      databases.push(database);
      const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
      if (redis) redises.push(redis);
      const app = await buildApp({
        database,
        chain,
        clock,
        config,
        repoHost: new FakeRepoHost(),
        vault: null,
        redis,
        runJobs: true,
      });
      apps.push(app);
      urls.push(await app.listen({ port: 0, host: '127.0.0.1' }));
    }
    proxy = await startRoundRobinProxy(urls);
    ctx = {
      app: apps[0] as TestApp,
      database: databases[0] as Database,
      clock,
      config,
      close: async () => {},
    };
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await proxy?.close();
    for (const app of apps) await app.close();
    for (const r of redises) r.disconnect();
    for (const d of databases) await d.close();
    await scratch?.drop();
  });

  const [A, B] = [0, 1] as const;

  it('spreads requests over both instances; a key registered on one works on the other', async () => {
    const agent = await register(urls[A] as string);
    const onB = await call(urls[B] as string, 'GET', '/api/agents/me', { headers: agent.headers });
    expect(onB.status, onB.body).toBe(200);
    const from = proxy.served.length;
    for (let i = 0; i < 4; i++) {
      const res = await call(proxy.url, 'GET', '/api/agents/me', { headers: agent.headers });
      expect(res.json<{ agent: { id: string } }>().agent.id).toBe(agent.id);
    }
    expect(proxy.served.slice(from).sort()).toEqual([0, 0, 1, 1]);
  });

  it.skipIf(!redisUrl)('holds requests through both instances to one rate-limit budget (Redis)', async () => {
    const ip = randomIp();
    const from = proxy.served.length;
    for (let i = 0; i < PER_IP; i++) {
      const res = await call(proxy.url, 'GET', '/api/projects', { ip });
      expect(res.status, res.body).toBe(200);
    }
    expect(new Set(proxy.served.slice(from))).toEqual(new Set([0, 1]));
    // Each instance alone has seen only half the budget, yet both refuse the next one.
    for (const url of urls) {
      const res = await call(url, 'GET', '/api/projects', { ip });
      expect(res.status, res.body).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('keeps a web session and its CSRF token valid on the other instance', async () => {
    const agent = await register(urls[A] as string);
    const signIn = await call(urls[A] as string, 'POST', '/sign-in', { form: { api_key: agent.apiKey } });
    expect(signIn.status, signIn.body).toBe(303);
    const cookie = /bm_session=[^;]+/.exec(signIn.headers.get('set-cookie') ?? '')?.[0] as string;
    expect(cookie).toBeTruthy();
    const browser = { cookie, 'sec-fetch-site': 'same-origin' };

    const page = await call(urls[B] as string, 'GET', '/console/account', { headers: browser });
    expect(page.status, page.body.slice(0, 300)).toBe(200);
    const csrf = csrfOf(page.body);
    const symbol = `SO${randomInt(1000, 9999)}`;
    const form = { name: `Scale ${symbol}`, token_symbol: symbol };
    const forged = await call(urls[A] as string, 'POST', '/console/projects', {
      headers: browser,
      form: { ...form, _csrf: 'x'.repeat(csrf.length) },
    });
    expect(forged.status).toBe(403);
    // The token B's page carried is accepted by A: both read the one session row.
    const made = await call(urls[A] as string, 'POST', '/console/projects', {
      headers: browser,
      form: { ...form, _csrf: csrf },
    });
    expect(made.status, made.body.slice(0, 300)).toBe(303);
    const mine = await (databases[B] as Database).db
      .select({ symbol: projects.tokenSymbol })
      .from(projects)
      .where(eq(projects.founderId, agent.id));
    expect(mine).toEqual([{ symbol }]);
  });

  it("signs a browser out of the other instance's public pages too (its kept session is dropped)", async () => {
    const agent = await register(urls[A] as string);
    const signIn = await call(urls[A] as string, 'POST', '/sign-in', { form: { api_key: agent.apiKey } });
    const cookie = /bm_session=[^;]+/.exec(signIn.headers.get('set-cookie') ?? '')?.[0] as string;
    const browser = { cookie, 'sec-fetch-site': 'same-origin' };
    const boardOnB = async () => (await call(urls[B] as string, 'GET', '/', { headers: browser })).body;
    // B keeps the session for its public pages (recent-sessions.ts) from this page on.
    expect(await boardOnB()).toContain('Signed in as');
    const csrf = csrfOf(await boardOnB());
    const out = await call(urls[A] as string, 'POST', '/sign-out', {
      headers: browser,
      form: { _csrf: csrf },
    });
    expect(out.status, out.body).toBe(303);
    // The clock stands still: only A's NOTIFY can end B's copy before its 2 s bound.
    await expect
      .poll(async () => (await boardOnB()).includes('Signed in as'), { timeout: 1_500 })
      .toBe(false);
  });

  it('delivers an event caused through one instance to a stream the balancer gave the other', async () => {
    const stream = await SseClient.open(proxy.url, '/api/events', { 'x-forwarded-for': randomIp() });
    streams.push(stream);
    const servedBy = proxy.served[proxy.served.length - 1] as number;
    const other = urls[1 - servedBy] as string;
    const { id } = await register(other);
    await stream.until((c) => c.messages.some((m) => m.data.agent_id === id), 3_000, 'the registration');
  });

  it('lets exactly one of many concurrent claims through both instances win', async () => {
    const p = await activeProject(ctx, chain, 1_000_000n, await register(proxy.url));
    const made = await call(proxy.url, 'POST', `/api/projects/${p.project.id}/bounties`, {
      headers: p.founder.headers,
      json: { title: 'One winner', description: 'Raced through two instances.', reward_amount: 10 },
    });
    expect(made.status, made.body).toBe(201);
    const bountyId = made.json<{ bounty: { id: string } }>().bounty.id;
    const devs = await Promise.all(Array.from({ length: 12 }, () => register(urls[B] as string)));
    const from = proxy.served.length;
    const answers = await Promise.all(
      devs.map((d) => call(proxy.url, 'POST', `/api/bounties/${bountyId}/claim`, { headers: d.headers })),
    );
    expect(new Set(proxy.served.slice(from))).toEqual(new Set([0, 1]));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(devs.length - 1);
  });

  it('expires each lapsed claim once while both instances sweep', async () => {
    const p = await activeProject(ctx, chain, 1_000_000n, await register(proxy.url));
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const dev = await register(urls[A] as string);
      const made = await call(urls[i % 2] as string, 'POST', `/api/projects/${p.project.id}/bounties`, {
        headers: p.founder.headers,
        json: { title: `Lapses ${i}`, description: 'Nobody submits.', reward_amount: 5 },
      });
      const id = made.json<{ bounty: { id: string } }>().bounty.id;
      expect((await claim(apps[i % 2] as TestApp, dev, id)).statusCode).toBe(200);
      ids.push(id);
    }
    clock.advance((TTL_HOURS + 1) * HOUR);
    // Both instances' sweep jobs (every second) race the passes made here by hand on both.
    await Promise.all([...apps, ...apps].map((app) => app.services.bounties.expireClaims()));
    const deadline = Date.now() + 5_000;
    const open = async () => {
      const rows = await Promise.all(ids.map((id) => call(proxy.url, 'GET', `/api/bounties/${id}`)));
      return rows.every((r) => r.json<{ bounty: { status: string } }>().bounty.status === 'open');
    };
    while (!(await open())) {
      if (Date.now() > deadline) throw new Error('claims were not reopened within 5 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    // Two more sweep periods: a double expiry would have shown by now.
    await new Promise((r) => setTimeout(r, 2_100));
    const events = await (databases[B] as Database).db
      .select({ bountyId: activityEvents.bountyId })
      .from(activityEvents)
      .where(and(eq(activityEvents.type, 'bounty.claim_expired'), inArray(activityEvents.bountyId, ids)));
    expect(events.map((e) => e.bountyId).sort()).toEqual([...ids].sort());
  });
});
