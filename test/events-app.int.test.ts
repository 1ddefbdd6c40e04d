import { describe, expect, it } from 'vitest';
import { buildTestApp, registerAgent } from './helpers/app.ts';
import { activity } from './helpers/bounty-flows.ts';
import { reusableTestDatabase } from './helpers/database.ts';
import { SseClient } from './helpers/sse.ts';

/**
 * The event stream beside the rest of an app of its own: the rate limit, closing the app, and a
 * bus still starting when the first stream opens. The stream's own rules are in events.int.
 */

describe('streams and the rest of the app', () => {
  it('counts a stream as one request against the rate limit, however long it stays open', async () => {
    const limited = await buildTestApp({
      env: { RATE_LIMIT_PER_IP_PER_MINUTE: '3', EVENTS_HEARTBEAT_MS: '20' },
    });
    const url = await limited.app.listen({ port: 0, host: '127.0.0.1' });
    const c = await SseClient.open(url, '/api/events');
    await c.until((s) => s.comments >= 5, 3_000, 'heartbeats');
    expect((await fetch(`${url}/api/activity`)).status).toBe(200);
    expect((await fetch(`${url}/api/activity`)).status).toBe(200);
    expect((await fetch(`${url}/api/activity`)).status).toBe(429);
    c.close();
    await limited.close();
  });

  it('ends open streams on close, and close does not wait for them', async () => {
    const other = await buildTestApp();
    const url = await other.app.listen({ port: 0, host: '127.0.0.1' });
    const clients = [await SseClient.open(url, '/api/events'), await SseClient.open(url, '/api/events')];
    const started = Date.now();
    await other.close();
    // Waiting for them would never end (the clients never leave): the bound only has to be finite,
    // and wide enough for a machine busy with the rest of the suite (2.3 s was seen in CI).
    expect(Date.now() - started).toBeLessThan(10_000);
    await Promise.all(clients.map((c) => c.ended));
    expect(clients.map((c) => c.endedByServer)).toEqual([true, true]);
  });

  it('delivers an event caused right after the stream opened, even while its bus was still starting', async () => {
    const database = await reusableTestDatabase();
    // LISTEN answering slowly widens the window between the request and the reader's start.
    const listen = database.listen.bind(database);
    database.listen = async (...args) => {
      await new Promise((r) => setTimeout(r, 300));
      return listen(...args);
    };
    const other = await buildTestApp({ database });
    try {
      const url = await other.app.listen({ port: 0, host: '127.0.0.1' });
      const c = await SseClient.open(url, '/api/events');
      // The client saw the stream open; what it causes now must reach it.
      const agent = await registerAgent(other.app);
      const [registered] = await activity(other.app, { limit: 1 });
      expect(registered?.agent_id).toBe(agent.id);
      await c.waitForId(registered?.id as string, 2_000);
      c.close();
    } finally {
      await other.close();
      await database.close();
    }
  });
});
