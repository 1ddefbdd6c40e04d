import { get, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/infra/config.ts';
import { registerAgent, type TestAgent } from './helpers/app.ts';
import { appForFile, listening } from './helpers/builders.ts';
import { SseClient } from './helpers/sse.ts';

/** Issue 17: at most EVENTS_MAX_STREAMS_PER_CLIENT concurrent event streams per API key, or per IP without one. */

const MAX = 3;
const UNKNOWN_EVENT = `evt_${'0'.repeat(32)}`;

const clients: SseClient[] = [];

const ctx = appForFile({ env: { EVENTS_MAX_STREAMS_PER_CLIENT: String(MAX) } });
const base = listening(ctx);
afterAll(async () => {
  for (const c of clients) c.close();
});

async function open(headers: Record<string, string> = {}, path = '/api/events'): Promise<SseClient> {
  const c = await SseClient.open(base(), path, headers);
  clients.push(c);
  return c;
}

async function openMany(n: number, headers: Record<string, string> = {}): Promise<SseClient[]> {
  const out: SseClient[] = [];
  for (let i = 0; i < n; i++) out.push(await open(headers));
  return out;
}

/** A GET of the events route that is answered, not streamed: its status, headers and JSON body. */
function refused(
  headers: Record<string, string> = {},
  path = '/api/events',
): Promise<{ status: number; headers: IncomingHttpHeaders; body: { error: Record<string, unknown> } }> {
  return new Promise((resolve, reject) => {
    const req = get(`${base()}${path}`, { headers, agent: false }, (res) => {
      if (res.statusCode === 200) {
        res.destroy();
        reject(new Error(`GET ${path}: a stream opened`));
        return;
      }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }),
      );
    });
    req.on('error', reject);
  });
}

async function expectTooMany(headers: Record<string, string> = {}) {
  const res = await refused(headers);
  expect(res.status).toBe(429);
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(res.body.error.code).toBe('too_many_streams');
  expect(res.body.error.message).toContain(String(MAX));
  expect(res.headers['content-type']).toContain('application/json');
}

/** A sample of the instance's /metrics, 0 when absent. */
async function metric(name: string): Promise<number> {
  const text = (await ctx.app.inject({ method: 'GET', url: '/metrics' })).body;
  const line = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
  return line ? Number(line[1]) : 0;
}

async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Closes streams and waits until the server has seen them close (the open-streams gauge drops). */
async function closeAll(streams: SseClient[]): Promise<void> {
  const before = await metric('event_streams_open');
  for (const s of streams) s.close();
  await until(async () => (await metric('event_streams_open')) === before - streams.length, 'the slots');
}

describe('GET /api/events: streams per client', () => {
  let alice: TestAgent;
  let bob: TestAgent;
  beforeAll(async () => {
    alice = await registerAgent(ctx.app);
    bob = await registerAgent(ctx.app);
  });

  it('refuses the stream past the limit with 429 too_many_streams; closing one frees its slot', async () => {
    const refusedBefore = await metric('event_streams_refused_total');
    const streams = await openMany(MAX, alice.headers);
    expect(await metric('event_streams_open')).toBe(MAX);

    await expectTooMany(alice.headers);
    expect(await metric('event_streams_refused_total')).toBe(refusedBefore + 1);
    // The open ones are untouched by the refusal.
    for (const s of streams) expect(s.endedByServer).toBe(false);

    await closeAll(streams.slice(0, 1));
    const next = await open(alice.headers);
    expect(next.status).toBe(200);
    await expectTooMany(alice.headers);
    expect(await metric('event_streams_refused_total')).toBe(refusedBefore + 2);

    await closeAll([...streams.slice(1), next]);
    expect(await metric('event_streams_open')).toBe(0);
  });

  it('counts per API key with a key, per client IP without one', async () => {
    const aliceStreams = await openMany(MAX, alice.headers);
    await expectTooMany(alice.headers);
    // Another key from the same address has slots of its own, and so has the address without a key.
    const bobStreams = await openMany(MAX, bob.headers);
    const anonymous = await openMany(MAX);
    await expectTooMany(bob.headers);
    await expectTooMany();
    // A slot freed by the key is the key's: the address without a key is still at its limit.
    await closeAll(aliceStreams.slice(0, 1));
    const again = await open(alice.headers);
    await expectTooMany();

    await closeAll([...aliceStreams.slice(1), again, ...bobStreams, ...anonymous]);
    expect(await metric('event_streams_open')).toBe(0);
  });

  it('holds no slot for a request answered with an error', async () => {
    // Each takes a slot while it is checked, and gives it back with its 400.
    for (let i = 0; i < MAX + 2; i++) {
      const bad = await refused(alice.headers, `/api/events?last_event_id=${UNKNOWN_EVENT}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('validation_error');
    }
    expect(await metric('event_streams_open')).toBe(0);
    const streams = await openMany(MAX, alice.headers);
    await expectTooMany(alice.headers);
    await closeAll(streams);
  });
});

describe('EVENTS_MAX_STREAMS_PER_CLIENT', () => {
  it('is stated in skill.md with its error code', async () => {
    const skill = (await ctx.app.inject({ method: 'GET', url: '/skill.md' })).body;
    expect(skill).toContain(`at most ${MAX} open at once per API key`);
    expect(skill).toMatch(/^\| `too_many_streams` \| 429 \| .+ \|$/m);
  });

  it('defaults to 20 and must be a whole number from 1', () => {
    expect(loadConfig({}).events.maxStreamsPerClient).toBe(20);
    expect(loadConfig({ EVENTS_MAX_STREAMS_PER_CLIENT: '5' }).events.maxStreamsPerClient).toBe(5);
    const problems = (value: string) => {
      try {
        loadConfig({ EVENTS_MAX_STREAMS_PER_CLIENT: value });
        return [];
      } catch (err) {
        return err instanceof ConfigError ? err.problems : [String(err)];
      }
    };
    for (const bad of ['0', '-1', '2.5', 'many'])
      expect(problems(bad), bad).toEqual([expect.stringContaining('EVENTS_MAX_STREAMS_PER_CLIENT')]);
  });
});
