import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Chain } from '../src/infra/chain/chain.ts';
import { EvmChain } from '../src/infra/chain/evm-chain.ts';
import { unavailableChain } from '../src/infra/chain/unavailable-chain.ts';
import { loadConfig } from '../src/infra/config.ts';
import { createLogger, wantsPretty } from '../src/infra/logger.ts';
import { Metrics } from '../src/infra/metrics.ts';
import { buildTestApp, createProject, registerAgent, type TestContext } from './helpers/app.ts';
import { TestClock } from './helpers/clock.ts';
import { openTestDatabase, reusableTestDatabase } from './helpers/database.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { approve, inReview, scene } from './helpers/review-flow.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function ctxWith(opts: Parameters<typeof buildTestApp>[0] = {}): Promise<TestContext> {
  const ctx = await buildTestApp(opts);
  cleanup.push(() => ctx.close());
  return ctx;
}

const get = (ctx: TestContext, url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

async function scrape(app: { inject: TestContext['app']['inject'] }): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
}

/** The value of one sample (`name{labels} value`), or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

/** A promise with its resolver, to hold a probe in flight. */
function gate() {
  let open: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('GET /livez', () => {
  it('answers 200 while the process runs, whatever the dependencies', async () => {
    // No chain at all: not ready, yet alive.
    const ctx = await ctxWith();
    const res = await get(ctx, '/livez');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect((await get(ctx, '/readyz')).statusCode).toBe(503);
  });
});

describe('GET /readyz', () => {
  it('answers 200 when the database, the chain and the repository host answer', async () => {
    const ctx = await ctxWith({ chain: new FakeChain() });
    const res = await get(ctx, '/readyz');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('names the chain when it fails, or when none is configured', async () => {
    const chain = new FakeChain();
    const ctx = await ctxWith({ chain });
    (chain.payoutSigner as { headBlock: () => Promise<bigint> }).headBlock = async () => {
      throw new Error('connect ECONNREFUSED');
    };
    const res = await get(ctx, '/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', failing: ['chain'] });

    const none = await ctxWith({ chain: unavailableChain });
    expect((await get(none, '/readyz')).json()).toEqual({ status: 'unavailable', failing: ['chain'] });
  });

  it('names the repository host when it is down', async () => {
    const repoHost = new FakeRepoHost();
    const ctx = await ctxWith({ chain: new FakeChain(), repoHost });
    repoHost.down = new Error('getaddrinfo ENOTFOUND');
    const res = await get(ctx, '/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', failing: ['repo_host'] });
    repoHost.down = null;
    expect((await get(ctx, '/readyz')).statusCode).toBe(200);
  });

  it('names the database once it is gone', async () => {
    const database = await openTestDatabase();
    const ctx = await ctxWith({ chain: new FakeChain(), database });
    expect((await get(ctx, '/readyz')).statusCode).toBe(200);
    await database.close();
    const res = await get(ctx, '/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', failing: ['database'] });
  });

  it('gives up on a dependency that hangs, within the probe timeout', async () => {
    const chain = new FakeChain();
    const repoHost = new FakeRepoHost();
    const ctx = await ctxWith({ chain, repoHost });
    repoHost.ping = () => new Promise(() => {});
    const started = Date.now();
    const res = await get(ctx, '/readyz');
    expect(res.json()).toEqual({ status: 'unavailable', failing: ['repo_host'] });
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('answers 503 once shutting down, even for a probe already in flight', async () => {
    const chain = new FakeChain();
    const ctx = await buildTestApp({ chain });
    const held = gate();
    (chain.payoutSigner as { headBlock: () => Promise<bigint> }).headBlock = async () => {
      await held.promise;
      return 1n;
    };
    const inFlight = get(ctx, '/readyz');
    const closing = ctx.app.close();
    await new Promise((r) => setTimeout(r, 20));
    held.open();
    const res = await inFlight;
    await closing;
    await ctx.database.close();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', failing: ['shutting_down'] });
  });

  it('is not rate limited, unlike the API', async () => {
    const ctx = await ctxWith({ chain: new FakeChain(), env: { RATE_LIMIT_PER_IP_PER_MINUTE: '2' } });
    for (let i = 0; i < 4; i++) {
      expect((await get(ctx, '/livez')).statusCode).toBe(200);
      expect((await get(ctx, '/readyz')).statusCode).toBe(200);
    }
    const limited = await Promise.all([1, 2, 3].map(() => get(ctx, '/api/projects')));
    expect(limited.map((r) => r.statusCode)).toContain(429);
  });

  it('stays out of the OpenAPI document', async () => {
    const ctx = await ctxWith();
    const paths = Object.keys((await get(ctx, '/openapi.json')).json().paths);
    expect(paths).toContain('/api/bounties');
    for (const p of ['/livez', '/readyz', '/metrics']) expect(paths).not.toContain(p);
  });
});

describe('GET /metrics', () => {
  it('has a duration histogram per route pattern, method and status, never the raw URL', async () => {
    const ctx = await ctxWith();
    const id = 'bty_0000000000000000000000000';
    expect((await get(ctx, `/api/bounties/${id}`)).statusCode).toBe(404);
    expect((await get(ctx, '/api/no-such-route/xyz')).statusCode).toBe(404);
    const text = await scrape(ctx.app);
    const labels = { method: 'GET', route: '/api/bounties/:id', status_code: '404' };
    expect(sample(text, 'http_request_duration_seconds_count', labels)).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { route: 'unmatched' })).toBe(1);
    expect(text).not.toContain(id);
    expect(text).not.toContain('no-such-route');
    // Default process metrics come along.
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
  });

  it('shows the payout backlog and the age of the oldest leg in flight', async () => {
    const chain = new FakeChain();
    const ctx = await ctxWith({
      chain,
      env: { PAYOUT_RECEIPT_TIMEOUT_SECONDS: '1', CHAIN_POLLING_INTERVAL_MS: '10' },
    });
    let text = await scrape(ctx.app);
    expect(sample(text, 'payouts_pending')).toBe(0);
    expect(sample(text, 'payout_oldest_pending_leg_age_seconds')).toBe(0);

    const s = await scene(ctx, chain);
    const w = await inReview(ctx.app, s);
    chain.holdReceipts = true;
    expect((await approve(ctx.app, s.founder, w.bounty.id)).statusCode).toBe(502);
    ctx.clock.advance(90_000);
    text = await scrape(ctx.app);
    expect(sample(text, 'payouts_pending')).toBe(1);
    expect(sample(text, 'payout_oldest_pending_leg_age_seconds')).toBeCloseTo(90, 0);

    chain.holdReceipts = false;
    await ctx.app.services.approvals.reconcile();
    text = await scrape(ctx.app);
    expect(sample(text, 'payouts_pending')).toBe(0);
    expect(sample(text, 'payout_oldest_pending_leg_age_seconds')).toBe(0);
  });

  it('shows the webhook outbox depth and counts failed deliveries', async () => {
    const ctx = await ctxWith({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    const agent = await registerAgent(ctx.app);
    // It answers the verification challenge, then fails every delivery.
    const rx = await startReceiver(() => 500);
    cleanup.push(() => rx.close());
    const hook = await ctx.app.inject({
      method: 'POST',
      url: '/api/agents/me/webhooks',
      headers: agent.headers,
      payload: { url: rx.url, types: null },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    let text = await scrape(ctx.app);
    expect(sample(text, 'webhook_outbox_pending')).toBe(0);
    expect(sample(text, 'webhook_delivery_failures_total')).toBe(0);

    await createProject(ctx.app, agent);
    text = await scrape(ctx.app);
    expect(sample(text, 'webhook_outbox_pending')).toBe(1);

    expect(await ctx.app.services.webhookDelivery.runOnce()).toBe(1);
    text = await scrape(ctx.app);
    expect(sample(text, 'webhook_delivery_failures_total')).toBe(1);
    // Failed once, still due for a retry.
    expect(sample(text, 'webhook_outbox_pending')).toBe(1);
  });

  it('times the background jobs, the payout reconciler among them', async () => {
    const database = await reusableTestDatabase();
    cleanup.push(() => database.close());
    const app = await buildApp({
      database,
      chain: new FakeChain(),
      clock: new TestClock(),
      config: loadConfig({}),
      repoHost: new FakeRepoHost(),
      runJobs: true,
    });
    cleanup.push(() => app.close());
    let text = '';
    for (let i = 0; i < 100; i++) {
      text = await scrape(app);
      if (sample(text, 'job_last_pass_timestamp_seconds', { job: 'payout_reconciler' }) !== undefined) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const at = sample(text, 'job_last_pass_timestamp_seconds', { job: 'payout_reconciler' });
    expect(at).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(at).toBeLessThanOrEqual(Date.now() / 1000);
    expect(
      sample(text, 'job_last_pass_duration_seconds', { job: 'payout_reconciler' }),
    ).toBeGreaterThanOrEqual(0);
  });

  it('times chain RPC calls by method and counts their errors', async () => {
    let failing = false;
    const node: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const calls = JSON.parse(body) as { id: number; method: string } | { id: number; method: string }[];
        const answer = (c: { id: number }) =>
          failing
            ? { jsonrpc: '2.0', id: c.id, error: { code: -32000, message: 'node is syncing' } }
            : { jsonrpc: '2.0', id: c.id, result: '0x10' };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(Array.isArray(calls) ? calls.map(answer) : answer(calls)));
      });
    });
    await new Promise<void>((r) => node.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise((r) => node.close(r)));
    const metrics = new Metrics();
    const chain: Chain = new EvmChain({
      rpcUrl: `http://127.0.0.1:${(node.address() as AddressInfo).port}`,
      publicRpcUrl: null,
      chainId: 31337,
      name: 'stub',
      explorerUrl: null,
      factoryAddress: '0x00000000000000000000000000000000000000F1',
      // What connectChain reads from the factory at start; this stub node has no factory to ask.
      payoutRouterAddress: '0x00000000000000000000000000000000000000D1',
      treasuryAddress: '0x00000000000000000000000000000000000000B1',
      operatorKey: `0x${'11'.repeat(32)}`,
      payoutKey: `0x${'22'.repeat(32)}`,
      devChain: false,
      pollingIntervalMs: 100,
      observeRpc: metrics.observeRpc,
    });
    const database = await reusableTestDatabase();
    cleanup.push(() => database.close());
    const app = await buildApp({
      database,
      chain,
      clock: new TestClock(),
      config: loadConfig({}),
      repoHost: new FakeRepoHost(),
      metrics,
    });
    cleanup.push(() => app.close());

    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    let text = await scrape(app);
    expect(sample(text, 'chain_rpc_duration_seconds_count', { method: 'eth_blockNumber' })).toBe(1);
    expect(sample(text, 'chain_rpc_errors_total', { method: 'eth_blockNumber' })).toBeUndefined();

    failing = true;
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.json()).toEqual({ status: 'unavailable', failing: ['chain'] });
    text = await scrape(app);
    expect(sample(text, 'chain_rpc_errors_total', { method: 'eth_blockNumber' })).toBe(1);
    expect(sample(text, 'chain_rpc_duration_seconds_count', { method: 'eth_blockNumber' })).toBe(2);
  });

  it('keeps each app to its own registry', async () => {
    const a = await ctxWith();
    const b = await ctxWith();
    await get(a, '/api/projects');
    await get(a, '/api/projects');
    const labels = { method: 'GET', route: '/api/projects', status_code: '200' };
    expect(sample(await scrape(a.app), 'http_request_duration_seconds_count', labels)).toBe(2);
    expect(sample(await scrape(b.app), 'http_request_duration_seconds_count', labels)).toBeUndefined();
  });
});

describe('X-Request-Id', () => {
  it('keeps a valid incoming id and makes a new one for a missing or invalid one', async () => {
    const ctx = await ctxWith();
    const kept = await get(ctx, '/api/projects', { 'x-request-id': 'lb-7f3a.9_c-1' });
    expect(kept.headers['x-request-id']).toBe('lb-7f3a.9_c-1');

    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const fresh = await get(ctx, '/api/projects');
    expect(fresh.headers['x-request-id']).toMatch(uuid);
    for (const bad of ['has space', 'quote"d', 'x'.repeat(129), 'new\\line', '']) {
      const res = await get(ctx, '/api/projects', { 'x-request-id': bad });
      expect(res.headers['x-request-id'], bad).toMatch(uuid);
    }
    const twice = [await get(ctx, '/livez'), await get(ctx, '/livez')].map((r) => r.headers['x-request-id']);
    expect(twice[0]).not.toBe(twice[1]);
  });

  it('is on every error, and in the error body as request_id', async () => {
    const ctx = await ctxWith();
    const cases = [
      { url: '/api/no-such-route', status: 404, code: 'not_found' },
      { url: '/api/agents/me', status: 401, code: 'unauthorized' },
      { url: '/api/bounties?limit=1000', status: 400, code: 'validation_error' },
      { url: `/api/bounties/${'x'.repeat(500)}`, status: 404, code: 'not_found' },
    ];
    for (const c of cases) {
      const id = `err-${c.status}-${c.url.length}`;
      const res = await get(ctx, c.url, { 'x-request-id': id });
      expect(res.statusCode, c.url).toBe(c.status);
      expect(res.headers['x-request-id'], c.url).toBe(id);
      expect(res.json().error, c.url).toMatchObject({ code: c.code, request_id: id });
    }
    // Without an incoming id, the body carries the one the header tells.
    const res = await get(ctx, '/api/agents/me');
    expect(res.json().error.request_id).toBe(res.headers['x-request-id']);
  });

  /** An app logging at `logLevel` into `lines`, closed after the test. */
  const loggedApp = async (logLevel: 'info' | 'debug') => {
    const lines: string[] = [];
    const database = await reusableTestDatabase();
    cleanup.push(() => database.close());
    const app = await buildApp({
      database,
      chain: unavailableChain,
      clock: new TestClock(),
      config: loadConfig({}),
      logger: createLogger({ logLevel }, { write: (line: string) => void lines.push(line) }),
    });
    cleanup.push(() => app.close());
    return { app, lines };
  };

  it('is on every log line of the request, as request_id', async () => {
    const { app, lines } = await loggedApp('info');
    await app.inject({ method: 'GET', url: '/api/agents/me', headers: { 'x-request-id': 'trace-me-42' } });
    const mine = lines.map((l) => JSON.parse(l)).filter((l) => l.request_id === 'trace-me-42');
    expect(mine.map((l) => l.msg)).toContain('request completed');
    expect(lines.filter((l) => l.includes('trace-me-42'))).toHaveLength(mine.length);
  });

  it('is logged once per request, when it is answered: the request, its status and its time', async () => {
    const at = async (logLevel: 'info' | 'debug') => {
      const { app, lines } = await loggedApp(logLevel);
      const headers = { 'x-request-id': `access-${logLevel}` };
      await app.inject({ method: 'GET', url: '/api/bounties?status=open', headers });
      await app.inject({ method: 'GET', url: '/api/agents/me', headers });
      return lines.map((l) => JSON.parse(l)).filter((l) => l.request_id === `access-${logLevel}`);
    };
    const info = await at('info');
    expect(info.map((l) => l.msg)).toEqual(['request completed', 'request completed']);
    expect(info[0]).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/api/bounties?status=open', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(info[1]).toMatchObject({ req: { url: '/api/agents/me' }, res: { statusCode: 401 } });
    // At debug level the start of each request is logged too, as Fastify does by default.
    const debug = await at('debug');
    expect(debug.map((l) => l.msg)).toEqual([
      'incoming request',
      'request completed',
      'incoming request',
      'request completed',
    ]);
  });
});

describe('log format', () => {
  it('is pretty on a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
    expect(wantsPretty(undefined, true)).toBe(true);
    expect(wantsPretty(undefined, false)).toBe(false);
    expect(wantsPretty(loadConfig({ LOG_FORMAT: 'json' }).logFormat, true)).toBe(false);
    expect(wantsPretty(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat, false)).toBe(true);
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT must be one of json, pretty/);
  });
});
