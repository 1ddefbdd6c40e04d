import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type AppDeps, buildApp } from '../../src/app.ts';
import type { Chain } from '../../src/infra/chain/chain.ts';
import { unavailableChain } from '../../src/infra/chain/unavailable-chain.ts';
import type { WalletVault } from '../../src/infra/chain/wallet-vault.ts';
import { type Config, loadConfig } from '../../src/infra/config.ts';
import type { Database } from '../../src/infra/db/client.ts';
import { projects } from '../../src/infra/db/schema.ts';
import type { RepoHost } from '../../src/infra/repo-host/repo-host.ts';
import type { Sender } from '../../src/modules/agent-webhooks/http-sender.ts';
import { TestClock } from './clock.ts';
import { leaseTestDatabase } from './database.ts';
import { FakeRepoHost } from './fake-repo-host.ts';

export type TestApp = Awaited<ReturnType<typeof buildApp>>;

export interface TestContext {
  app: TestApp;
  database: Database;
  clock: TestClock;
  config: Config;
  close(): Promise<void>;
}

/**
 * An app on a fresh database. Rate limits are high unless a test sets them, so that suites
 * making many requests test their own rules, not the limiter.
 */
export async function buildTestApp(
  opts: {
    chain?: Chain;
    env?: Record<string, string>;
    clock?: TestClock;
    database?: Database;
    vault?: WalletVault | null;
    repoHost?: RepoHost;
    /** Stands in for the webhook transport, for suites whose URLs must never be contacted. */
    webhookSender?: Sender;
    /**
     * Sets what an environment variable cannot say, after the config is read: a receipt wait
     * of a fraction of a second (the variable counts whole seconds) for suites that wait on
     * held receipts many times.
     */
    tune?: (config: ReturnType<typeof loadConfig>) => void;
    /** The built-in host's sign-in hand-off, as main.ts passes it (`/repo-host/sign-in`). */
    localRepoHost?: AppDeps['localRepoHost'];
    /** Every route's schemas compiled while building, not on first use (src/app-schemas.ts). */
    eagerSchemas?: boolean;
  } = {},
): Promise<TestContext> {
  const leased = opts.database ? null : await leaseTestDatabase();
  const database = opts.database ?? (leased?.database as Database);
  const clock = opts.clock ?? new TestClock();
  const config = loadConfig({
    RATE_LIMIT_PER_IP_PER_MINUTE: '100000',
    RATE_LIMIT_PER_KEY_PER_MINUTE: '100000',
    RATE_LIMIT_REGISTER_PER_IP_PER_HOUR: '100000',
    ...opts.env,
  });
  opts.tune?.(config);
  const repoHost = opts.repoHost ?? new FakeRepoHost();
  const app = await buildApp({
    database,
    chain: opts.chain ?? unavailableChain,
    clock,
    config,
    vault: opts.vault ?? null,
    repoHost,
    ...(opts.webhookSender ? { webhookSender: opts.webhookSender } : {}),
    ...(opts.localRepoHost ? { localRepoHost: opts.localRepoHost } : {}),
    ...(opts.eagerSchemas ? { eagerSchemas: true } : {}),
  });
  if (repoHost instanceof FakeRepoHost) submittersOpenTheirPullRequests(app, repoHost);
  await app.ready();
  return {
    app,
    database,
    clock,
    config,
    async close() {
      await app.close();
      await leased?.giveBack();
    },
  };
}

const SUBMIT = /^\/api\/bounties\/[^/]+\/submit$/;

/**
 * Suites about other rules submit pull requests no test described; on a real host the submitter
 * would have opened them. So a submit through `app.inject` first makes an undescribed pull request
 * the caller's own on the fake host (`FakeRepoHost.adoptAuthor`). Tests of the author rule describe
 * their pull requests with `setPullRequest`, which this never overrides.
 */
function submittersOpenTheirPullRequests(app: TestApp, host: FakeRepoHost): void {
  const inject = app.inject.bind(app);
  const wrapped = async (opts: InjectOptions) => {
    const payload = opts.payload as { pr_url?: unknown } | undefined;
    const auth = (opts.headers as Record<string, string> | undefined)?.authorization;
    const path = typeof opts.url === 'string' ? opts.url.split('?')[0] : '';
    const key = auth ? /^Bearer\s+(\S+)$/i.exec(auth)?.[1] : undefined;
    if (opts.method === 'POST' && SUBMIT.test(path ?? '') && typeof payload?.pr_url === 'string' && key) {
      // Read only: the caller's login as it is (assigning one here would hide a missing one).
      const agent = await app.services.agents.authenticate(key);
      const login = agent ? (await app.services.directory.require(agent.id)).repoLogin : null;
      if (login) host.adoptAuthor(payload.pr_url, login);
    }
    return inject(opts);
  };
  app.inject = wrapped as unknown as TestApp['inject'];
}

export interface TestAgent {
  id: string;
  name: string;
  apiKey: string;
  walletAddress: string | null;
  headers: { authorization: string };
}

let seq = 0;
const unique = (prefix: string) => `${prefix}${process.pid}x${++seq}`;

/** A random, valid, checksum-free wallet address (lowercase hex). */
export function randomAddress(): string {
  let hex = '';
  for (let i = 0; i < 40; i++) hex += Math.floor(Math.random() * 16).toString(16);
  return `0x${hex}`;
}

export async function registerAgent(
  app: TestApp,
  body: { name?: string; wallet_address?: string | null; description?: string } = {},
): Promise<TestAgent> {
  const payload: Record<string, unknown> = { name: body.name ?? unique('agent') };
  if (body.wallet_address !== null) payload.wallet_address = body.wallet_address ?? randomAddress();
  if (body.description !== undefined) payload.description = body.description;
  const res = await app.inject({ method: 'POST', url: '/api/agents/register', payload });
  expect(res.statusCode, res.body).toBe(201);
  const agent = res.json().agent;
  return {
    id: agent.id,
    name: agent.name,
    apiKey: agent.api_key,
    walletAddress: agent.wallet_address,
    headers: { authorization: `Bearer ${agent.api_key}` },
  };
}

export async function createProject(
  app: TestApp,
  founder: TestAgent,
  body: { name?: string; token_symbol?: string; description?: string } = {},
) {
  const symbol =
    body.token_symbol ?? `T${(++seq).toString(36).toUpperCase()}${process.pid % 1000}`.slice(0, 11);
  const res = await app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: founder.headers,
    payload: {
      name: body.name ?? unique('Project '),
      token_symbol: symbol,
      ...(body.description ? { description: body.description } : {}),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().project as { id: string; name: string; token_symbol: string; founder_id: string };
}

/**
 * Puts a project in `active` with a repository and token address, as activation will. Activation
 * itself (repository host and contract deployment) is not part of these suites.
 */
export async function markProjectActive(ctx: TestContext, projectId: string) {
  const repoUrl = `http://127.0.0.1:9/bounty-org/${projectId}`;
  const tokenAddress = randomAddress();
  await ctx.database.db
    .update(projects)
    .set({
      status: 'active',
      repoUrl,
      tokenAddress,
      curveAddress: randomAddress(),
      activatedAt: ctx.clock.now(),
    })
    .where(eq(projects.id, projectId));
  return { repoUrl, tokenAddress };
}

export async function createBounty(
  app: TestApp,
  founder: TestAgent,
  projectId: string,
  body: Partial<{ title: string; description: string; reward_amount: number; difficulty: string }> = {},
) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/projects/${projectId}/bounties`,
    headers: founder.headers,
    payload: {
      title: body.title ?? unique('Bounty '),
      description: body.description ?? 'Do the thing well.',
      reward_amount: body.reward_amount ?? 100,
      ...(body.difficulty ? { difficulty: body.difficulty } : {}),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().bounty as { id: string; project_id: string; status: string; reward_amount: number };
}

/** Asserts the contract's error envelope and status, and returns the error body. */
export function expectError(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error as { code: string; message: string; details?: { field: string; message: string }[] };
}

/**
 * The shared 401 cases of an authenticated endpoint: no header, a non-Bearer header, a malformed
 * key and a well-formed key that belongs to nobody.
 */
export async function expectAuthRequired(
  app: TestApp,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: unknown,
) {
  const wellFormedUnknown = await unknownButValidKey();
  const variants: Record<string, string>[] = [
    {},
    { authorization: 'Basic dXNlcjpwYXNz' },
    { authorization: 'Bearer not-a-key' },
    { authorization: `Bearer ${wellFormedUnknown}` },
  ];
  for (const headers of variants) {
    const res = await app.inject({
      method,
      url,
      headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    expectError(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  }
}

async function unknownButValidKey(): Promise<string> {
  const { generateApiKey } = await import('../../src/lib/api-key.ts');
  return generateApiKey();
}
