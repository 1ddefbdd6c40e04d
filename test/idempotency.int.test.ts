import { createHash, randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/infra/db/client.ts';
import { idempotencyKeys, payouts } from '../src/infra/db/schema.ts';
import * as idempotencyRepo from '../src/infra/http/idempotency.repo.ts';
import { IDEMPOTENCY_TTL_MS, requestHash } from '../src/infra/http/idempotency.ts';
import {
  buildTestApp,
  createBounty,
  expectError,
  registerAgent,
  type TestAgent,
  type TestApp,
} from './helpers/app.ts';
import { activity } from './helpers/bounty-flows.ts';
import { appForFile } from './helpers/builders.ts';
import { createScratchDatabase } from './helpers/database.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { expectOnePayout, inReview, nextPrUrl, type Scene, scene, UNIT } from './helpers/review-flow.ts';

// Idempotency-Key on every POST: replays, refusals, what is kept, and across instances.
const chain = new FakeChain();
const ENV = { PAYOUT_RECEIPT_TIMEOUT_SECONDS: '1', CHAIN_POLLING_INTERVAL_MS: '10' };
const onPostgres = process.env.TEST_DB === 'postgres';

const ctx = appForFile({ chain, env: ENV });
afterEach(() => {
  chain.failNextBroadcast = null;
  chain.onReadFunds = null;
  chain.onBroadcast = null;
});

const newKey = () => `key-${randomUUID()}`;

function post(app: TestApp, url: string, agent: TestAgent | null, key?: string, payload?: unknown) {
  return app.inject({
    method: 'POST',
    url,
    headers: { ...(agent?.headers ?? {}), ...(key !== undefined ? { 'idempotency-key': key } : {}) },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

/** `again` is `first` replayed: same status, body and content type, marked as a replay. */
function expectReplay(first: LightMyRequestResponse, again: LightMyRequestResponse) {
  expect(first.headers['idempotent-replayed']).toBeUndefined();
  expect(again.statusCode, again.body).toBe(first.statusCode);
  expect(again.body).toBe(first.body);
  expect(again.headers['content-type']).toBe(first.headers['content-type']);
  expect(again.headers['idempotent-replayed']).toBe('true');
}

const events = (type: string, query: Record<string, string>) => activity(ctx.app, { type, ...query });

const records = async () => (await ctx.database.db.select({ n: count() }).from(idempotencyKeys))[0]?.n ?? 0;

/** A gate for the next funds read (approve's funds check): resolves `entered`, waits for `open()`. */
/**
 * Holds the next approval while it runs, after its signing transaction committed (a hold inside
 * it would hold every other request's database work on PGlite, which runs one at a time).
 */
function holdNextBroadcast() {
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const entered = new Promise<void>((resolve) => {
    chain.onBroadcast = async () => {
      resolve();
      await gate;
    };
  });
  return { entered, open };
}

async function paymentScene(): Promise<Scene & { bountyId: string; submissionId: string }> {
  const s = await scene(ctx, chain);
  const { bounty, submission } = await inReview(ctx.app, s);
  return { ...s, bountyId: bounty.id, submissionId: submission.id };
}

const payoutCount = async (submissionId: string) =>
  (
    await ctx.database.db.select({ n: count() }).from(payouts).where(eq(payouts.submissionId, submissionId))
  )[0]?.n;

describe('a retry with the same key gets the first answer, and nothing happens twice', () => {
  it('register', async () => {
    const key = newKey();
    const payload = { name: `idem-${randomUUID().slice(0, 8)}` };
    const first = await post(ctx.app, '/api/agents/register', null, key, payload);
    expect(first.statusCode, first.body).toBe(201);
    const again = await post(ctx.app, '/api/agents/register', null, key, { ...payload });
    expectReplay(first, again);
    const agent = first.json().agent;
    expect(await events('agent.registered', { agent_id: agent.id })).toHaveLength(1);
    // The replayed key is the live one.
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/agents/me',
      headers: { authorization: `Bearer ${again.json().agent.api_key}` },
    });
    expect(me.statusCode).toBe(200);
    // Without the key the same body is a new registration, refused as a duplicate name.
    expectError(await post(ctx.app, '/api/agents/register', null, undefined, payload), 409, 'name_taken');
    // The stored answer holds the API key, sealed: neither it nor the client's key is readable there.
    const stored = await ctx.database.db.select().from(idempotencyKeys);
    const text = JSON.stringify(stored);
    expect(stored.length).toBeGreaterThan(0);
    expect(text).not.toContain(agent.api_key);
    expect(text).not.toContain(key);
  });

  it('project create and bounty create, whatever the key order and spacing of the body', async () => {
    const founder = await registerAgent(ctx.app);
    const key = newKey();
    const symbol = `ID${randomUUID()
      .slice(0, 4)
      .toUpperCase()
      .replace(/[^A-Z]/g, 'X')}`;
    const first = await post(ctx.app, '/api/projects', founder, key, {
      name: 'Idem project',
      token_symbol: symbol,
    });
    expect(first.statusCode, first.body).toBe(201);
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: { ...founder.headers, 'idempotency-key': key, 'content-type': 'application/json' },
      payload: `{ "token_symbol": "${symbol}",\n  "name": "Idem project" }`,
    });
    expectReplay(first, again);
    const projectId = first.json().project.id;
    expect(await events('project.created', { project_id: projectId })).toHaveLength(1);

    const s = await scene(ctx, chain);
    const bountyKey = newKey();
    const body = { title: 'Idem bounty', description: 'Once only.', reward_amount: 10 };
    const url = `/api/projects/${s.project.id}/bounties`;
    const created = await post(ctx.app, url, s.founder, bountyKey, body);
    expect(created.statusCode, created.body).toBe(201);
    expectReplay(created, await post(ctx.app, url, s.founder, bountyKey, body));
    expect(await events('bounty.created', { project_id: s.project.id })).toHaveLength(1);
  });

  it('claim and submit', async () => {
    const s = await scene(ctx, chain);
    const bounty = await createBounty(ctx.app, s.founder, s.project.id);
    const claimKey = newKey();
    const claimUrl = `/api/bounties/${bounty.id}/claim`;
    const claimed = await post(ctx.app, claimUrl, s.dev, claimKey);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expectReplay(claimed, await post(ctx.app, claimUrl, s.dev, claimKey));
    // The same request without the key runs and meets the claim the first one made.
    expect((await post(ctx.app, claimUrl, s.dev)).statusCode).toBe(409);

    const submitKey = newKey();
    const submitUrl = `/api/bounties/${bounty.id}/submit`;
    const pr = { pr_url: nextPrUrl(s.repoUrl) };
    const submitted = await post(ctx.app, submitUrl, s.dev, submitKey, pr);
    expect(submitted.statusCode, submitted.body).toBe(201);
    expectReplay(submitted, await post(ctx.app, submitUrl, s.dev, submitKey, pr));
    expect(await events('bounty.claimed', { project_id: s.project.id })).toHaveLength(1);
    expect(await events('submission.created', { project_id: s.project.id })).toHaveLength(1);
  });

  it('approve: one payout, one transfer pair', async () => {
    const s = await paymentScene();
    const key = newKey();
    const url = `/api/bounties/${s.bountyId}/approve`;
    const first = await post(ctx.app, url, s.founder, key);
    expect(first.statusCode, first.body).toBe(200);
    const again = await post(ctx.app, url, s.founder, key);
    expectReplay(first, again);
    expectOnePayout(
      chain,
      s,
      s.dev.walletAddress as string,
      { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT },
      first.json(),
    );
    expect(await payoutCount(s.submissionId)).toBe(1);
    expect(await events('submission.approved', { project_id: s.project.id })).toHaveLength(1);
  });

  it('a 4xx answer is kept too: the retry gets it although the state has changed since', async () => {
    const s = await scene(ctx, chain);
    const bounty = await createBounty(ctx.app, s.founder, s.project.id);
    const other = await registerAgent(ctx.app);
    expect((await post(ctx.app, `/api/bounties/${bounty.id}/claim`, other)).statusCode).toBe(200);
    const key = newKey();
    const url = `/api/bounties/${bounty.id}/claim`;
    const refused = await post(ctx.app, url, s.dev, key);
    expect(refused.statusCode).toBe(409);
    expect((await post(ctx.app, `/api/bounties/${bounty.id}/unclaim`, other)).statusCode).toBe(200);
    expectReplay(refused, await post(ctx.app, url, s.dev, key));
    expect((await post(ctx.app, url, s.dev, newKey())).statusCode).toBe(200);
  });
});

describe('refusals', () => {
  it('the same key for another body or path is 422 idempotency_key_reused', async () => {
    const founder = await registerAgent(ctx.app);
    const key = newKey();
    const sym = () =>
      `RU${randomUUID()
        .replace(/[^a-f]/g, '')
        .slice(0, 4)
        .toUpperCase()}`;
    const body = { name: 'Reuse one', token_symbol: sym() };
    const first = await post(ctx.app, '/api/projects', founder, key, body);
    expect(first.statusCode, first.body).toBe(201);
    const other = { name: 'Reuse two', token_symbol: sym() };
    expectError(await post(ctx.app, '/api/projects', founder, key, other), 422, 'idempotency_key_reused');
    expectError(
      await post(ctx.app, '/api/agents/me/generate-wallet', founder, key),
      422,
      'idempotency_key_reused',
    );
    // The first answer is still there for a real retry.
    expectReplay(first, await post(ctx.app, '/api/projects', founder, key, body));
  });

  it('a duplicate while the first still runs is 409 idempotency_in_progress, and is not kept', async () => {
    const s = await paymentScene();
    const key = newKey();
    const url = `/api/bounties/${s.bountyId}/approve`;
    const held = holdNextBroadcast();
    const first = post(ctx.app, url, s.founder, key);
    await held.entered;
    expectError(await post(ctx.app, url, s.founder, key), 409, 'idempotency_in_progress');
    // Another request under the running key is still told apart.
    expectError(
      await post(ctx.app, url, s.founder, key, { review_notes: 'x' }),
      422,
      'idempotency_key_reused',
    );
    held.open();
    const answer = await first;
    expect(answer.statusCode, answer.body).toBe(200);
    expectReplay(answer, await post(ctx.app, url, s.founder, key));
    expect(await payoutCount(s.submissionId)).toBe(1);
  });

  it('an in-progress record left by a crashed process is taken over once its lock lapses', async () => {
    const s = await scene(ctx, chain);
    const bounty = await createBounty(ctx.app, s.founder, s.project.id);
    const key = newKey();
    const url = `/api/bounties/${bounty.id}/claim`;
    const now = ctx.clock.now();
    const identity = {
      scope: s.dev.id,
      key: createHash('sha256').update(key).digest('hex'),
      method: 'POST',
      path: url,
      requestHash: requestHash(undefined),
    };
    const at = { now, lockSeconds: 60, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) };
    expect(await idempotencyRepo.claim(ctx.database.db, identity, at)).toBeInstanceOf(Date);
    expectError(await post(ctx.app, url, s.dev, key), 409, 'idempotency_in_progress');
    // The instance's own clock says nothing about the lock: an hour on it, and the lock still holds.
    ctx.clock.advance(3_600_000);
    expectError(await post(ctx.app, url, s.dev, key), 409, 'idempotency_in_progress');
    // The lock's minute passes by the database's clock (moved back here rather than waited for).
    await ctx.database.db
      .update(idempotencyKeys)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(idempotencyKeys.key, identity.key));
    const taken = await post(ctx.app, url, s.dev, key);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.headers['idempotent-replayed']).toBeUndefined();
    expectReplay(taken, await post(ctx.app, url, s.dev, key));
  });

  it('an invalid key is 400 naming the header; without a valid agent it is 401 and nothing is kept', async () => {
    const agent = await registerAgent(ctx.app);
    const bad = ['', ' ', 'has space', 'x'.repeat(256), 'tab\there', 'del\x7f', 'caf\u00e9'];
    for (const key of bad) {
      const res = await post(ctx.app, '/api/agents/me/generate-wallet', agent, key);
      const error = expectError(res, 400, 'validation_error');
      expect(error.details?.[0]?.field, JSON.stringify(key)).toBe('Idempotency-Key');
    }
    for (const key of ['k', '!~', 'x'.repeat(255)]) {
      const res = await post(ctx.app, '/api/agents/register', null, key, {
        name: `ok-${randomUUID().slice(0, 8)}`,
      });
      expect(res.statusCode, `${key.length}: ${res.body}`).toBe(201);
    }
    // GET ignores the header.
    const get = await ctx.app.inject({
      method: 'GET',
      url: '/api/bounties',
      headers: { 'idempotency-key': ' ' },
    });
    expect(get.statusCode).toBe(200);

    const before = await records();
    const key = newKey();
    const res = await post(ctx.app, '/api/agents/me/generate-wallet', null, key);
    expectError(res, 401, 'unauthorized');
    expect(await records()).toBe(before);
  });

  it('every POST route checks the key, whatever plugin registered it, but GitHub’s webhook, which has no agent', async () => {
    const agent = await registerAgent(ctx.app);
    // Routes of several plugins (API modules, the pages' forms), each sent a body it accepts. (MCP
    // drops the header: its answer streams over a hijacked reply, and JSON-RPC ids name requests.)
    const posts: [string, unknown][] = [
      ['/api/agents/me/generate-wallet', undefined],
      [`/api/bounties/bnt_${'0'.repeat(32)}/claim`, undefined],
      ['/api/agents/me/rotate-key', undefined],
      ['/sign-in', {}],
      ['/sign-out', {}],
    ];
    for (const [url, payload] of posts) {
      const res = await post(ctx.app, url, agent, 'not valid', payload);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().error.details?.[0]?.field, url).toBe('Idempotency-Key');
    }
    const hook = await ctx.app.inject({
      method: 'POST',
      url: '/api/webhooks/github',
      headers: { 'idempotency-key': 'not valid', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(hook.body).not.toContain('Idempotency-Key');
    expect(hook.statusCode).not.toBe(400);
  });

  it('different agents may use the same key', async () => {
    const [a, b] = [await registerAgent(ctx.app), await registerAgent(ctx.app)];
    const key = newKey();
    const projectA = await post(ctx.app, '/api/projects', a, key, {
      name: 'Same key A',
      token_symbol: 'SKA',
    });
    const projectB = await post(ctx.app, '/api/projects', b, key, {
      name: 'Same key B',
      token_symbol: 'SKB',
    });
    for (const res of [projectA, projectB]) {
      expect(res.statusCode, res.body).toBe(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(projectA.json().project.founder_id).toBe(a.id);
    expect(projectB.json().project.founder_id).toBe(b.id);
  });
});

describe('answers that are not kept', () => {
  it('a 5xx: the retry runs again', async () => {
    const s = await paymentScene();
    const key = newKey();
    const url = `/api/bounties/${s.bountyId}/approve`;
    chain.failNextBroadcast = new Error('ECONNRESET rpc-node-7.internal:8545');
    expectError(await post(ctx.app, url, s.founder, key), 502, 'upstream_error');
    const retry = await post(ctx.app, url, s.founder, key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expectOnePayout(chain, s, s.dev.walletAddress as string, {
      contributorUnits: 95n * UNIT,
      feeUnits: 5n * UNIT,
    });
  });

  it('409 operation_in_progress (another approval running): the retry runs again', async () => {
    const s = await paymentScene();
    const key = newKey();
    const url = `/api/bounties/${s.bountyId}/approve`;
    const held = holdNextBroadcast();
    const other = post(ctx.app, url, s.founder);
    await held.entered;
    expectError(await post(ctx.app, url, s.founder, key), 409, 'operation_in_progress');
    held.open();
    expect((await other).statusCode).toBe(200);
    const retry = await post(ctx.app, url, s.founder, key);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.statusCode, retry.body).not.toBe(409);
  });
});

describe('expiry', () => {
  it('after 24 h the key runs again, and the purge removes expired records', async () => {
    const key = newKey();
    const first = await post(ctx.app, '/api/agents/register', null, key, {
      name: `exp-${randomUUID().slice(0, 8)}`,
    });
    expect(first.statusCode).toBe(201);
    const other = { name: `exp-${randomUUID().slice(0, 8)}` };
    expectError(await post(ctx.app, '/api/agents/register', null, key, other), 422, 'idempotency_key_reused');
    ctx.clock.advance(IDEMPOTENCY_TTL_MS - 1);
    expectError(await post(ctx.app, '/api/agents/register', null, key, other), 422, 'idempotency_key_reused');
    ctx.clock.advance(1);
    const later = await post(ctx.app, '/api/agents/register', null, key, other);
    expect(later.statusCode, later.body).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();

    ctx.clock.advance(IDEMPOTENCY_TTL_MS);
    expect(await records()).toBeGreaterThan(0);
    const purged = await idempotencyRepo.purgeExpired(ctx.database.db, ctx.clock.now(), 1000);
    expect(purged).toBeGreaterThan(0);
    expect(await records()).toBe(0);
  });
});

describe.skipIf(!onPostgres)('several instances', () => {
  it('two app instances on one PostgreSQL share the records', async () => {
    const scratch = await createScratchDatabase();
    const dbA = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 5 });
    const dbB = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 5 });
    const a = await buildTestApp({ chain, database: dbA, env: ENV });
    const b = await buildTestApp({ chain, database: dbB, env: ENV, clock: a.clock });
    try {
      const key = newKey();
      const payload = { name: `multi-${randomUUID().slice(0, 8)}` };
      const first = await post(a.app, '/api/agents/register', null, key, payload);
      expect(first.statusCode, first.body).toBe(201);
      expectReplay(first, await post(b.app, '/api/agents/register', null, key, payload));
      expectError(
        await post(b.app, '/api/agents/register', null, key, { name: 'other-name' }),
        422,
        'idempotency_key_reused',
      );
    } finally {
      await a.close();
      await b.close();
      await dbA.close();
      await dbB.close();
      await scratch.drop();
    }
  });
});
