import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiErrorCode,
  BountyApiError,
  createBountyClient,
  isPending,
  ok,
  parseEventStream,
  type WalletTransaction,
} from '../clients/typescript/index.ts';
import { buildTestApp, randomAddress, registerAgent, type TestContext } from './helpers/app.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { journaledWallet } from './helpers/journaled-wallet.ts';
import { newVault } from './helpers/wallets.ts';

/**
 * The typed client: generated from the current OpenAPI document, and its retry, error and event
 * rules against small local servers that misbehave on purpose, then against the real app.
 */

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
const servers: Server[] = [];

/** A throwaway HTTP server; every request is recorded with its headers and body. */
async function stub(handler: Handler) {
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, seen };
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const envelope = (code: string, message = `It is ${code}.`) => ({ error: { code, message } });
const fast = { baseDelayMs: 5, maxDelayMs: 5_000 };

describe('retries', () => {
  it('waits as long as Retry-After says after a 429, then succeeds, with one Idempotency-Key', async () => {
    let calls = 0;
    const s = await stub((_req, res) => {
      if (++calls === 1) return json(res, 429, envelope('rate_limited'), { 'retry-after': '1' });
      json(res, 200, { bounty: { id: 'bnt_1', status: 'claimed' } });
    });
    const client = createBountyClient({ baseUrl: s.baseUrl, apiKey: 'bmk_test', retryPolicy: fast });
    const started = Date.now();
    const data = await ok(client.POST('/api/bounties/{id}/claim', { params: { path: { id: 'bnt_1' } } }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(data.bounty.status).toBe('claimed');
    expect(s.seen).toHaveLength(2);
    const keys = s.seen.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(s.seen.every((r) => r.headers.authorization === 'Bearer bmk_test')).toBe(true);
  });

  it('sends a fresh key per POST, keeps a caller-given one, and none on GET', async () => {
    const s = await stub((_req, res) => json(res, 200, { ok: true }));
    const client = createBountyClient({ baseUrl: s.baseUrl });
    await client.POST('/api/bounties/{id}/unclaim', { params: { path: { id: 'a' } } });
    await client.POST('/api/bounties/{id}/unclaim', { params: { path: { id: 'a' } } });
    await client.POST('/api/bounties/{id}/unclaim', {
      params: { path: { id: 'a' } },
      headers: { 'Idempotency-Key': 'mine-1' },
    });
    await client.GET('/api/bounties');
    const keys = s.seen.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe('mine-1');
    expect(keys[3]).toBeUndefined();
  });

  it('retries 502 with the same body and key, and drops after a network error', async () => {
    let calls = 0;
    const s = await stub((req, res) => {
      calls++;
      if (calls === 1) return req.socket.destroy();
      if (calls === 2) return json(res, 502, envelope('upstream_error'));
      json(res, 201, { submission: { id: 'sub_1' } });
    });
    const client = createBountyClient({ baseUrl: s.baseUrl, retryPolicy: fast });
    const { data } = await client.POST('/api/bounties/{id}/submit', {
      params: { path: { id: 'bnt_1' } },
      body: { pr_url: 'http://host/o/r/pull/1' },
    });
    expect(data?.submission.id).toBe('sub_1');
    expect(s.seen).toHaveLength(3);
    expect(new Set(s.seen.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(s.seen.map((r) => JSON.parse(r.body))).toEqual(
      Array(3).fill({ pr_url: 'http://host/o/r/pull/1' }),
    );
  });

  it('gives up after `retries` more attempts and throws the last answer', async () => {
    const s = await stub((_req, res) => json(res, 503, envelope('shutting_down')));
    const client = createBountyClient({ baseUrl: s.baseUrl, retries: 2, retryPolicy: fast });
    const err = await client.GET('/api/bounties').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BountyApiError);
    expect((err as BountyApiError).code).toBe('shutting_down');
    expect(s.seen).toHaveLength(3);
  });

  it('does not retry what another try cannot fix, nor a keyless POST after a 502', async () => {
    const s = await stub((req, res) =>
      req.url?.includes('approve')
        ? json(res, 502, envelope('upstream_error'))
        : json(res, 503, envelope('payouts_disabled')),
    );
    const keyless = createBountyClient({
      baseUrl: s.baseUrl,
      retryPolicy: { ...fast, idempotencyKeys: false },
    });
    await expect(
      keyless.POST('/api/bounties/{id}/approve', { params: { path: { id: 'b' } }, body: {} }),
    ).rejects.toMatchObject({ status: 502, code: 'upstream_error' });
    await expect(keyless.GET('/api/bounties')).rejects.toMatchObject({ code: 'payouts_disabled' });
    expect(s.seen).toHaveLength(2);
    expect(s.seen[0]?.headers['idempotency-key']).toBeUndefined();
  });
});

describe('wallet transactions', () => {
  const tx = (
    status: WalletTransaction['status'],
    extra: Partial<WalletTransaction> = {},
  ): WalletTransaction => ({
    id: 'wtx_1',
    kind: 'sell',
    status,
    tx_hash: `0x${'a'.repeat(64)}`,
    project_id: 'proj_1',
    sponsored: false,
    result: null,
    error: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...extra,
  });

  it('takes a 202 as an answer (never retried) and tells it from the 200 with isPending', async () => {
    const pending = { transaction: tx('pending'), tx_hash: `0x${'a'.repeat(64)}` };
    const s = await stub((req, res) =>
      req.url?.endsWith('/sell')
        ? json(res, 202, pending)
        : json(res, 200, { tx_hash: pending.tx_hash, eth_units: '5', gas_eth_units: '0', sponsored: false }),
    );
    const client = createBountyClient({ baseUrl: s.baseUrl, apiKey: 'bmk_test', retryPolicy: fast });
    const { data, response } = await client.POST('/api/projects/{id}/sell', {
      params: { path: { id: 'proj_1' } },
      body: { tokens_units: '1' },
    });
    expect(response.status).toBe(202);
    expect(s.seen).toHaveLength(1);
    if (!data || !isPending(data)) throw new Error('expected the pending answer');
    expect(data.transaction.id).toBe('wtx_1');
    const bought = await ok(
      client.POST('/api/projects/{id}/buy', { params: { path: { id: 'proj_1' } }, body: { eth_units: '1' } }),
    );
    expect(isPending(bought)).toBe(false);
  });

  it('waitForTransaction reads until the transaction settles, backing off; a timeout gives the pending one', async () => {
    let reads = 0;
    const s = await stub((_req, res) => {
      reads++;
      json(res, 200, {
        transaction:
          reads < 3 ? tx('pending') : tx('confirmed', { result: { tx_hash: '0x1', eth_units: '5' } }),
      });
    });
    const client = createBountyClient({ baseUrl: s.baseUrl, apiKey: 'bmk_test', retryPolicy: fast });
    const seen: string[] = [];
    const done = await client.waitForTransaction('wtx_1', {
      intervalMs: 20,
      onPoll: (t) => seen.push(t.status),
    });
    expect(done).toMatchObject({ status: 'confirmed', result: { eth_units: '5' } });
    expect(seen).toEqual(['pending', 'pending', 'confirmed']);
    expect(s.seen.map((r) => r.url)).toEqual(Array(3).fill('/api/agents/me/wallet/transactions/wtx_1'));
    // The pauses double: 20 ms, then 40 ms.
    reads = -100;
    const started = Date.now();
    const late = await client.waitForTransaction('wtx_1', { intervalMs: 20, timeoutMs: 100 });
    expect(late.status).toBe('pending');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('throws what the read throws (a 404), and stops on abort', async () => {
    const s = await stub((req, res) =>
      req.url?.endsWith('wtx_gone')
        ? json(res, 404, envelope('not_found'))
        : json(res, 200, { transaction: tx('pending') }),
    );
    const client = createBountyClient({ baseUrl: s.baseUrl, apiKey: 'bmk_test', retryPolicy: fast });
    await expect(client.waitForTransaction('wtx_gone')).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
    const stop = new AbortController();
    const waiting = client.waitForTransaction('wtx_1', { intervalMs: 5_000, signal: stop.signal });
    setTimeout(() => stop.abort(new Error('stopped')), 50);
    await expect(waiting).rejects.toThrow('stopped');
  });
});

describe('typed errors', () => {
  it('types `code` as the closed list of the OpenAPI document (checked by `npm run typecheck`)', () => {
    const known: ApiErrorCode[] = ['claim_limit', 'rate_limited', 'idempotency_key_reused'];
    // @ts-expect-error not an error code the document declares
    const unknown: ApiErrorCode = 'no_such_code';
    expect([...known, unknown]).toHaveLength(4);
  });

  it('carries status, code, message, details and the request id from the body or the header', async () => {
    const s = await stub((req, res) => {
      if (req.url?.startsWith('/api/bounties?'))
        return json(res, 400, {
          error: {
            code: 'validation_error',
            message: 'Bad query.',
            details: [{ field: 'limit', message: 'must be <= 100' }],
          },
          request_id: 'req-body',
        });
      if (req.url === '/api/agents/me')
        return json(res, 401, envelope('unauthorized'), { 'x-request-id': 'req-hdr' });
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<h1>oops</h1>');
    });
    const client = createBountyClient({ baseUrl: s.baseUrl, retries: 0 });
    const bad = await client
      .GET('/api/bounties', { params: { query: { limit: 1000 } } })
      .catch((e: unknown) => e as BountyApiError);
    expect(bad).toBeInstanceOf(BountyApiError);
    expect(bad).toMatchObject({
      status: 400,
      code: 'validation_error',
      message: 'Bad query.',
      details: [{ field: 'limit', message: 'must be <= 100' }],
      requestId: 'req-body',
    });
    await expect(client.GET('/api/agents/me')).rejects.toMatchObject({
      code: 'unauthorized',
      requestId: 'req-hdr',
    });
    await expect(client.GET('/api/dashboard/stats')).rejects.toMatchObject({
      status: 500,
      code: 'unexpected_response',
      message: expect.stringContaining('oops'),
    });
  });
});

describe('events', () => {
  it('parses SSE: CRLF, comments, multi-line data, chunks split anywhere', async () => {
    const text =
      ': hello\r\nid: evt_1\r\nevent: a\r\ndata: {"x":\r\ndata: 1}\r\n\r\nretry: 250\n:ping\n\nid: evt_2\rdata:two\r\r';
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        // One byte at a time: the parser must not depend on where chunks end.
        for (const b of bytes) c.enqueue(new Uint8Array([b]));
        c.close();
      },
    });
    const out = [];
    for await (const m of parseEventStream(body)) out.push(m);
    expect(out).toEqual([
      { id: 'evt_1', event: 'a', data: '{"x":\n1}', retry: undefined },
      { id: 'evt_2', event: 'message', data: 'two', retry: undefined },
    ]);
  });

  it('reconnects with Last-Event-ID after the stream drops and carries on where it left', async () => {
    const ev = (n: number) => ({ id: `evt_${n}`, type: 'bounty.created', data: { n } });
    const frame = (n: number) => `id: evt_${n}\nevent: bounty.created\ndata: ${JSON.stringify(ev(n))}\n\n`;
    let connections = 0;
    const s = await stub((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (++connections === 1) {
        res.write(`: keep-alive\n\n${frame(1)}${frame(2)}`);
        // Dropped mid-message: the half message must not be delivered.
        res.write('id: evt_3\ndata: {"broken');
        setTimeout(() => req.socket.destroy(), 20);
        return;
      }
      res.write(frame(3));
    });
    const client = createBountyClient({ baseUrl: s.baseUrl, apiKey: 'bmk_k', retryPolicy: fast });
    const got: unknown[] = [];
    for await (const e of client.followEvents({
      types: ['bounty.created', 'claim.expiring'],
      projectId: 'proj_1',
    })) {
      got.push(e);
      if (got.length === 3) break;
    }
    expect(got).toEqual([ev(1), ev(2), ev(3)]);
    expect(s.seen).toHaveLength(2);
    expect(s.seen[0]?.url).toBe('/api/events?types=bounty.created%2Cclaim.expiring&project_id=proj_1');
    expect(s.seen[0]?.headers['last-event-id']).toBeUndefined();
    expect(s.seen[1]?.headers['last-event-id']).toBe('evt_2');
    expect(s.seen[1]?.headers.authorization).toBe('Bearer bmk_k');
  });

  it('throws a 400 or 401 at once instead of reconnecting, and stops quietly on abort', async () => {
    const s = await stub((req, res) => {
      if (req.headers['last-event-id'] === 'evt_bad') return json(res, 400, envelope('validation_error'));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
    });
    const client = createBountyClient({ baseUrl: s.baseUrl, retryPolicy: fast });
    const failing = client.followEvents({ lastEventId: 'evt_bad' });
    await expect(failing.next()).rejects.toMatchObject({ code: 'validation_error' });

    // Aborted once the stream is open (the stub has seen the request), not after a fixed delay:
    // on a loaded machine 100 ms once passed before the request reached the stub.
    const controller = new AbortController();
    const onOpen = () => setTimeout(() => controller.abort(), 20);
    const seen = [];
    for await (const e of client.followEvents({ signal: controller.signal, onOpen })) seen.push(e);
    expect(seen).toEqual([]);
    expect(s.seen).toHaveLength(2);
  });
});

describe('against the real app', () => {
  let ctx: TestContext;
  let baseUrl: string;
  beforeAll(async () => {
    ctx = await buildTestApp();
    baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('registers (a repeat with the same key is replayed), follows the live feed, and types errors', async () => {
    const client = createBountyClient({ baseUrl });
    const controller = new AbortController();
    let opened!: () => void;
    const open = new Promise<void>((r) => {
      opened = r;
    });
    const events = client.followEvents({
      types: ['agent.registered'],
      signal: controller.signal,
      onOpen: () => opened(),
    });
    const first = events.next();
    // From the moment the stream is open, every event committed is delivered: act only then.
    await open;

    const name = `client-${process.pid}`;
    const key = { 'Idempotency-Key': `register-${name}` };
    const reg = await client.POST('/api/agents/register', { body: { name }, headers: key });
    expect(reg.response.status).toBe(201);
    const again = await client.POST('/api/agents/register', { body: { name }, headers: key });
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data?.agent.id).toBe(reg.data?.agent.id);

    const event = await first;
    expect(event.value).toMatchObject({ type: 'agent.registered', agent_id: reg.data?.agent.id });
    controller.abort();
    await events.return();

    const me = await ok(
      createBountyClient({ baseUrl, apiKey: reg.data?.agent.api_key }).GET('/api/agents/me'),
    );
    expect(me.agent.name).toBe(name);
    const taken = await client.POST('/api/agents/register', { body: { name } }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(BountyApiError);
    expect(taken).toMatchObject({ status: 409, code: 'name_taken' });
  });
});

describe('a wallet action against the real app, its first answer lost', () => {
  let ctx: TestContext;
  let baseUrl: string;
  let wallet: ReturnType<typeof journaledWallet>;
  beforeAll(async () => {
    const chain = new FakeChain();
    ctx = await buildTestApp({ chain, vault: newVault() });
    wallet = journaledWallet(ctx, chain);
    baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('retries the 502 with the same key and gets the first request’s pending transaction, then follows it', async () => {
    const agent = await registerAgent(ctx.app, { wallet_address: null });
    wallet.state.outcome = 'pending';
    // The request reaches the service; its answer is lost on the way back (a proxy's 502).
    let lost = 0;
    const client = createBountyClient({
      baseUrl,
      apiKey: agent.apiKey,
      retryPolicy: fast,
      fetch: async (request) => {
        const response = await globalThis.fetch(request);
        if (request.method !== 'POST' || lost++ > 0) return response;
        await response.body?.cancel();
        return new Response(JSON.stringify(envelope('upstream_error')), {
          status: 502,
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    const to = randomAddress();
    const key = { 'Idempotency-Key': `withdraw-${process.pid}` };
    const body = { to, amount_units: '1000' };
    const { data, response } = await client.POST('/api/agents/me/wallet/withdraw', { body, headers: key });
    expect(response.status).toBe(202);
    // Sent once: the retry found the first request's transaction by its key.
    expect(wallet.sent).toHaveLength(1);
    if (!data || !isPending(data)) throw new Error('expected the pending answer');
    const [first] = wallet.sent;
    expect(data.transaction).toMatchObject({ id: first?.intentId, status: 'pending', kind: 'withdraw_eth' });
    expect(data.tx_hash).toBe(first?.hash);

    const following = client.waitForTransaction(data.transaction.id, { intervalMs: 50 });
    await wallet.confirm(data.transaction.id);
    expect(await following).toMatchObject({
      id: data.transaction.id,
      status: 'confirmed',
      result: { tx_hash: first?.hash, sponsored: false },
    });
    // Once settled, the same key answers 200 with the result, still without sending anything.
    const again = await client.POST('/api/agents/me/wallet/withdraw', { body, headers: key });
    expect(again.response.status).toBe(200);
    expect(again.data).toEqual({ tx_hash: first?.hash, sponsored: false });
    expect(wallet.sent).toHaveLength(1);
  });
});
