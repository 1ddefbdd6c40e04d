import { desc, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityEvents } from '../src/infra/db/schema.ts';
import type { NewEvent } from '../src/modules/activity/activity.service.ts';
import { createProject, expectError, registerAgent, type TestAgent } from './helpers/app.ts';
import { activity } from './helpers/bounty-flows.ts';
import { appForFile, listening } from './helpers/builders.ts';
import { SseClient } from './helpers/sse.ts';

const HEARTBEAT_MS = 150;
const UNKNOWN_EVENT = `evt_${'0'.repeat(32)}`;

const open: SseClient[] = [];

const ctx = appForFile({ env: { EVENTS_HEARTBEAT_MS: String(HEARTBEAT_MS) } });
const base = listening(ctx);
afterAll(async () => {
  for (const c of open) c.close();
});

async function stream(path = '/api/events', headers: Record<string, string> = {}): Promise<SseClient> {
  const c = await SseClient.open(base(), path, headers);
  open.push(c);
  return c;
}

/** Records an event in its own transaction, as a service would, and returns its id. */
async function record(event: NewEvent): Promise<string> {
  const { db } = ctx.database;
  await db.transaction((tx) => ctx.app.services.activity.record(tx, event));
  const [row] = await db
    .select({ id: activityEvents.id })
    .from(activityEvents)
    .orderBy(desc(activityEvents.id))
    .limit(1);
  return (row as { id: string }).id;
}

const publicEvent = (projectId: string | null = null) => record({ type: 'project.created', projectId });
const personal = (to: TestAgent, type: NewEvent['type'] = 'claim.expiring') =>
  record({ type, recipients: [to.id], agentId: to.id } as NewEvent);

describe('GET /api/events', () => {
  let alice: TestAgent;
  let bob: TestAgent;
  beforeAll(async () => {
    alice = await registerAgent(ctx.app);
    bob = await registerAgent(ctx.app);
  });

  it('streams public events, shaped as /api/activity items, with and without a key', async () => {
    const anon = await stream();
    const keyed = await stream('/api/events', alice.headers);
    expect(anon.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(anon.headers['cache-control']).toContain('no-cache');

    const founder = await registerAgent(ctx.app);
    const project = await createProject(ctx.app, founder);
    const [created, registered] = await activity(ctx.app, { limit: 2 });
    expect(created?.type).toBe('project.created');
    expect(registered?.type).toBe('agent.registered');
    for (const c of [anon, keyed]) {
      await c.waitForId(created?.id as string);
      const mine = c.messages.filter((m) => m.id === registered?.id || m.id === created?.id);
      expect(mine.map((m) => m.event)).toEqual(['agent.registered', 'project.created']);
      expect(mine.map((m) => m.data)).toEqual([registered, created]);
      expect(mine[1]?.data.project_id).toBe(project.id);
    }
    expect(anon.retry).toBe(1000);
  });

  it('sends a personal event only to its agent, never without a key', async () => {
    const anon = await stream();
    const aliceStream = await stream('/api/events', alice.headers);
    const bobStream = await stream('/api/events', bob.headers);
    const forAlice = await personal(alice);
    // Streams deliver in one order: whoever had the personal event would have it before this one.
    const sentinel = await publicEvent();
    for (const c of [anon, aliceStream, bobStream]) await c.waitForId(sentinel);
    expect(aliceStream.ids).toEqual([forAlice, sentinel]);
    expect(aliceStream.messages[0]?.data).toMatchObject({
      id: forAlice,
      type: 'claim.expiring',
      agent_id: alice.id,
    });
    expect(bobStream.ids).toEqual([sentinel]);
    expect(anon.ids).toEqual([sentinel]);
    // The public feed does not list it either.
    expect((await activity(ctx.app, { limit: 5 })).map((e) => e.id)).not.toContain(forAlice);
  });

  // A transaction running in the service's database keeps later commits from being final (the bus
  // reads only final events); one in another database of the same server never does. On PGlite
  // there is no other connection to hold one.
  const onPostgres = it.runIf(process.env.TEST_DB === 'postgres');

  /** A connection to `database` on the test server that has begun a transaction with an id. */
  async function openTransactionIn(database: string) {
    const url = new URL(process.env.TEST_DATABASE_URL as string);
    url.pathname = `/${database}`;
    const admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
    const blocker = await admin.reserve();
    await blocker`begin`;
    await blocker`select txid_current()`;
    return {
      async end() {
        await blocker`commit`;
        blocker.release();
        await admin.end();
      },
    };
  }

  const serviceDatabase = async () => {
    const rows = (await ctx.database.db.execute(sql`select current_database() as name`)) as unknown as
      | { name: string }[]
      | { rows: { name: string }[] };
    return (Array.isArray(rows) ? rows[0] : rows.rows[0])?.name as string;
  };

  onPostgres(
    'never sends an event committed before the stream opened, even while a transaction in its database keeps it from being final',
    async () => {
      const blocker = await openTransactionIn(await serviceDatabase());
      let s: SseClient;
      let before: string;
      let held: string;
      try {
        before = await publicEvent();
        s = await stream('/api/events?types=project.created');
        held = await publicEvent();
        // Not final while the older transaction runs: the stream holds it back.
        await new Promise((r) => setTimeout(r, 500));
        expect(s.ids).toEqual([]);
      } finally {
        await blocker.end();
      }
      const after = await publicEvent();
      await s.waitForId(after);
      expect(s.ids).toEqual([held, after]);
      expect(s.ids).not.toContain(before);
    },
  );

  onPostgres('is never held back by a transaction running in another database of the server', async () => {
    const other = new URL(process.env.TEST_DATABASE_URL as string).pathname.slice(1);
    expect(other).not.toBe(await serviceDatabase());
    const blocker = await openTransactionIn(other);
    try {
      const s = await stream('/api/events?types=project.created');
      const id = await publicEvent();
      await s.waitForId(id, 10_000);
      expect(s.ids).toEqual([id]);
    } finally {
      await blocker.end();
    }
  });

  it('filters by types and project_id', async () => {
    const founder = await registerAgent(ctx.app);
    const p1 = await createProject(ctx.app, founder);
    const p2 = await createProject(ctx.app, founder);
    const byType = await stream('/api/events?types=claim.expiring,%20agent.registered', alice.headers);
    const byProject = await stream(`/api/events?project_id=${p1.id}`);
    const both = await stream(`/api/events?types=project.created&project_id=${p2.id}`);

    const other = await publicEvent(p2.id);
    const inP1 = await publicEvent(p1.id);
    const expiring = await personal(alice);
    const notAlices = await personal(bob);
    const newcomer = (await registerAgent(ctx.app)).id;
    const [registered] = await activity(ctx.app, { type: 'agent.registered', limit: 1 });
    expect(registered?.agent_id).toBe(newcomer);
    const lastInP1 = await publicEvent(p1.id);
    const lastInP2 = await record({ type: 'bounty.created', projectId: p2.id });
    const finalP2 = await publicEvent(p2.id);

    await byType.waitForId(registered?.id as string);
    await byProject.waitForId(lastInP1);
    await both.waitForId(finalP2);
    expect(byType.ids).toEqual([expiring, registered?.id]);
    expect(byProject.ids).toEqual([inP1, lastInP1]);
    expect(both.ids).toEqual([other, finalP2]);
    expect([notAlices, lastInP2].some((id) => byType.ids.includes(id) || both.ids.includes(id))).toBe(false);
  });

  it('answers bad requests before the stream starts: unknown types 400, bad key 401, bad Last-Event-ID 400', async () => {
    const get = (url: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'GET', url, headers });
    const unknownType = expectError(
      await get('/api/events?types=bounty.created,bounty.exploded'),
      400,
      'validation_error',
    );
    expect(unknownType.message).toContain('bounty.exploded');
    expect(unknownType.details?.[0]?.field).toBe('types');
    expectError(await get('/api/events?types=,'), 400, 'validation_error');
    expectError(await get('/api/events?since=1'), 400, 'validation_error');
    const badKey = await get('/api/events', { authorization: 'Bearer not-a-key' });
    expectError(badKey, 401, 'unauthorized');
    expect(badKey.headers['www-authenticate']).toBe('Bearer');
    expectError(await get('/api/events', { 'last-event-id': 'evt_123' }), 400, 'validation_error');
    expectError(await get(`/api/events?last_event_id=${UNKNOWN_EVENT}`), 400, 'validation_error');
    const unknown = expectError(
      await get('/api/events', { 'last-event-id': UNKNOWN_EVENT }),
      400,
      'validation_error',
    );
    expect(unknown.message).toContain('Last-Event-ID');
  });

  it('replays exactly the missed events after a dropped stream, then goes live without duplicates', async () => {
    const first = await stream('/api/events', alice.headers);
    const seen = await publicEvent();
    await first.waitForId(seen);
    first.close();
    await first.ended;

    // While disconnected: public and personal events, someone else's, and a burst larger than
    // one replay page and one bus batch, all in a single transaction.
    const missed = [await publicEvent(), await personal(alice, 'payout.failed')];
    await personal(bob);
    await ctx.database.db.transaction(async (tx) => {
      for (let i = 0; i < 1_200; i++) await ctx.app.services.activity.record(tx, { type: 'bounty.created' });
    });
    // Newest first; the filter test made one bounty.created before.
    const burst = (await activity(ctx.app, { type: 'bounty.created' })).map((e) => e.id).slice(0, 1_200);
    missed.push(await publicEvent());

    const resumed = await stream('/api/events', { ...alice.headers, 'last-event-id': seen });
    await resumed.waitForId(missed[2] as string, 15_000);
    expect(resumed.ids.length).toBe(1_203);
    expect(resumed.ids.slice(0, 2)).toEqual(missed.slice(0, 2));
    expect(resumed.ids.at(-1)).toBe(missed[2]);
    expect(resumed.ids.slice(2, 1_202)).toEqual([...burst].reverse());
    expect(new Set(resumed.ids).size).toBe(1_203);

    const live = await publicEvent();
    await resumed.waitForId(live);
    expect(resumed.ids.length).toBe(1_204);

    // The query parameter works the same, for clients that cannot set the header.
    const byQuery = await stream(`/api/events?last_event_id=${missed[2]}`);
    const next = await publicEvent();
    await byQuery.waitForId(next);
    expect(byQuery.ids).toEqual([live, next]);
    // The header wins over the query: EventSource resends the header, the URL keeps the first id.
    const both = await stream(`/api/events?last_event_id=${seen}`, { 'last-event-id': live });
    await both.waitForId(next);
    expect(both.ids).toEqual([next]);
  });

  it('sends a comment line as a heartbeat while nothing happens', async () => {
    const c = await stream();
    const before = c.comments;
    const start = Date.now();
    await c.until((s) => s.comments >= before + 3, 3_000, 'three heartbeats');
    await new Promise((r) => setTimeout(r, HEARTBEAT_MS * 2));
    // One heartbeat every HEARTBEAT_MS, never faster. The stream shares one timer with every other
    // stream, so its first heartbeat may come at once; a slow machine may read a comment sent just
    // before the window late: two comments of slack, where a timer running at twice the interval
    // would send as many comments again as the window holds.
    const seen = c.comments - before;
    expect(seen).toBeLessThanOrEqual(Math.floor((Date.now() - start) / HEARTBEAT_MS) + 2);
    expect(c.messages).toEqual([]);
  });
});
