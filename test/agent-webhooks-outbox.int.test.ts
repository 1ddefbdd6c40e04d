import { asc, count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/infra/db/client.ts';
import { webhookAttempts, webhookOutbox } from '../src/infra/db/schema.ts';
import { claimDue } from '../src/modules/agent-webhooks/agent-webhooks.repo.ts';
import { RETRY_DELAYS_S } from '../src/modules/agent-webhooks/webhook-delivery.ts';
import { addWebhook } from './helpers/agent-webhooks.ts';
import {
  buildTestApp,
  createProject,
  registerAgent,
  type TestAgent,
  type TestContext,
} from './helpers/app.ts';
import { TestClock } from './helpers/clock.ts';
import { createScratchDatabase, reusableTestDatabase } from './helpers/database.ts';
import { type Receiver, startReceiver } from './helpers/webhook-receiver.ts';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function app(database: Database, clock: TestClock): Promise<TestContext> {
  // Every receiver here is on 127.0.0.1: the per-host cap (its own test) must not defer these.
  const env = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_DELIVERIES_PER_HOST_PER_MINUTE: '1000' };
  const c = await buildTestApp({ database, clock, env });
  cleanup.push(() => c.close());
  return c;
}

async function receiver(respond?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(respond);
  cleanup.push(() => r.close());
  return r;
}

const hook = async (c: TestContext, agent: TestAgent, url: string, types: string[] | null) =>
  (await addWebhook(c, agent, url, types)).webhook.id as string;

const ids = (rx: Receiver) => rx.received.map((r) => r.headers['webhook-id'] as string);

describe('the webhook outbox across restarts', () => {
  it('delivers an event committed before a crash, from a new instance', async () => {
    const database = await reusableTestDatabase();
    cleanup.push(() => database.close());
    const clock = new TestClock();
    const rx = await receiver();
    const first = await app(database, clock);
    const owner = await registerAgent(first.app);
    await hook(first, owner, rx.url, ['project.created']);
    await createProject(first.app, owner);
    // The instance dies after the commit, before its worker ran.
    await first.app.close();
    expect(rx.received).toHaveLength(0);

    const second = await app(database, clock);
    expect(await second.app.services.webhookDelivery.runOnce()).toBe(1);
    expect(rx.received).toHaveLength(1);
    expect(JSON.parse(rx.received[0]?.body ?? '{}').type).toBe('project.created');
  });

  it('takes over a delivery whose worker died holding the lease, once the lease expires', async () => {
    const database = await reusableTestDatabase();
    cleanup.push(() => database.close());
    const clock = new TestClock();
    const rx = await receiver();
    const first = await app(database, clock);
    const owner = await registerAgent(first.app);
    const webhookId = await hook(first, owner, rx.url, ['project.created']);
    await createProject(first.app, owner);
    // What a worker leaves behind when killed mid-delivery: a claimed row, no attempt recorded.
    const now = clock.now();
    const claimed = await claimDue(database.db, now, new Date(now.getTime() + 60_000), 50);
    expect(claimed).toHaveLength(1);
    await first.app.close();

    const second = await app(database, clock);
    const worker = second.app.services.webhookDelivery;
    expect(await worker.runOnce()).toBe(0);
    clock.advance(59_999);
    expect(await worker.runOnce()).toBe(0);
    clock.advance(1);
    expect(await worker.runOnce()).toBe(1);
    expect(rx.received).toHaveLength(1);
    const attempts = await database.db
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.webhookId, webhookId));
    expect(attempts.map((a) => [a.attempt, a.statusCode])).toEqual([[1, 200]]);
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('two instances on one PostgreSQL', () => {
  it('deliver each attempt exactly once', async () => {
    const scratch = await createScratchDatabase();
    cleanup.push(() => scratch.drop());
    // Two pools, as two processes would have.
    const dbA = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 10 });
    cleanup.push(() => dbA.close());
    const dbB = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 10 });
    cleanup.push(() => dbB.close());
    const clock = new TestClock();
    const a = await app(dbA, clock);
    const b = await app(dbB, clock);

    // Every event's first attempt fails, its second succeeds.
    const seen = new Set<string>();
    const rx = await receiver((_, r) => {
      const id = r.headers['webhook-id'] as string;
      if (seen.has(id)) return 200;
      seen.add(id);
      return 503;
    });
    const owner = await registerAgent(a.app);
    await hook(a, owner, rx.url, ['agent.registered']);
    const EVENTS = 40;
    await Promise.all(Array.from({ length: EVENTS }, (_, i) => registerAgent(i % 2 ? a.app : b.app)));

    const workers = [a, b].map((c) => c.app.services.webhookDelivery);
    const round = async () => {
      const counts = await Promise.all([...workers, ...workers, ...workers].map((w) => w.runOnce()));
      return counts.reduce((x, y) => x + y, 0);
    };
    expect(await round()).toBe(EVENTS);
    expect(await round()).toBe(0);
    clock.advance(RETRY_DELAYS_S[0] * 1000);
    expect(await round()).toBe(EVENTS);
    clock.advance(24 * 3600_000);
    expect(await round()).toBe(0);

    const perId = new Map<string, number>();
    for (const id of ids(rx)) perId.set(id, (perId.get(id) ?? 0) + 1);
    expect(perId.size).toBe(EVENTS);
    expect([...perId.values()].every((n) => n === 2)).toBe(true);
    const attempts = await dbA.db
      .select({ deliveryId: webhookAttempts.deliveryId, n: count() })
      .from(webhookAttempts)
      .groupBy(webhookAttempts.deliveryId)
      .orderBy(asc(webhookAttempts.deliveryId));
    expect(attempts).toHaveLength(EVENTS);
    expect(attempts.every((x) => x.n === 2)).toBe(true);
    const statuses = await dbA.db.select({ status: webhookOutbox.status }).from(webhookOutbox);
    expect(statuses.every((s) => s.status === 'delivered')).toBe(true);
  });
});
