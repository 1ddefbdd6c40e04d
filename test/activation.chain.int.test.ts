import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { getAddress, zeroAddress } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRepoHost, startLocalRepoHost } from '../src/dev/local-repo-host/server.ts';
import { bondingCurveAbi } from '../src/infra/chain/contracts/BondingCurve.ts';
import { projectFactoryAbi } from '../src/infra/chain/contracts/ProjectFactory.ts';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';
import { EvmChain, projectSalt } from '../src/infra/chain/evm-chain.ts';
import { projects } from '../src/infra/db/schema.ts';
import { GithubHost } from '../src/infra/repo-host/github-host.ts';
import { repositoryName } from '../src/modules/projects/activation.service.ts';
import {
  buildTestApp,
  createProject,
  expectAuthRequired,
  expectError,
  registerAgent,
  type TestAgent,
  type TestContext,
} from './helpers/app.ts';
import { activity, ok } from './helpers/bounty-flows.ts';
import { startTestChain, type TestChain } from './helpers/chain.ts';
import { type RpcProxy, startRpcProxy } from './helpers/rpc-proxy.ts';

/**
 * Activation on a real anvil (factory deployed as `npm start` does) and the real local repository
 * host, reached through the same Octokit adapter that talks to GitHub. Between the service and
 * each upstream sits a proxy that can fail on demand, so every failure the contract names is a
 * real one: a host that is down, a host that created the repository but whose answer was lost, a
 * node that refuses the deployment, a node that mined it but whose answer was lost. After each,
 * the project is `proposed` again and a retry finishes with one repository and one contract.
 */

const SECRET = 'activation-test-secret';
const PLATFORM = 'activation-platform-token';

type HostFault = 'none' | 'down' | 'lose-answer';

interface HostProxy {
  url: string;
  set(fault: HostFault): void;
  close(): Promise<void>;
}

/** An HTTP proxy in front of the local host's REST API that can refuse or lose answers. */
async function startHostProxy(upstream: string): Promise<HostProxy> {
  let fault: HostFault = 'none';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (fault === 'down') {
        req.socket.destroy();
        return;
      }
      const method = req.method ?? 'GET';
      const headers: Record<string, string> = {};
      for (const h of ['content-type', 'accept', 'user-agent', 'authorization']) {
        const v = req.headers[h];
        if (typeof v === 'string') headers[h] = v;
      }
      fetch(`${upstream}${req.url}`, {
        method,
        headers,
        ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
      })
        .then(async (up) => {
          const body = Buffer.from(await up.arrayBuffer());
          if (fault === 'lose-answer') {
            res.writeHead(502, { 'content-type': 'application/json' }).end('{"message":"Bad Gateway"}');
            return;
          }
          res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
          res.end(body);
        })
        .catch(() => req.socket.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set: (f) => {
      fault = f;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

interface ProjectBody {
  id: string;
  name: string;
  status: string;
  founder_id: string;
  token_symbol: string;
  repo_url: string | null;
  token_address: string | null;
  curve_address: string | null;
  activated_at: string | null;
}

let tc: TestChain;
let rpc: RpcProxy;
let tmp: string;
let local: LocalRepoHost;
let hostProxy: HostProxy;
let ctx: TestContext;
let founder: TestAgent;
let factory: `0x${string}`;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'activation-'));
  [tc, local] = await Promise.all([
    startTestChain(),
    startLocalRepoHost({
      dataDir: tmp,
      port: 0,
      org: 'bounty-org',
      webhook: { url: null, secret: SECRET },
      platformToken: PLATFORM,
    }),
  ]);
  rpc = await startRpcProxy(tc.rpcUrl);
  hostProxy = await startHostProxy(local.baseUrl);
  const chain = new EvmChain({ ...tc.options, rpcUrl: rpc.url });
  const repoHost = new GithubHost({
    kind: 'local',
    apiUrl: `${hostProxy.url}/api/v3`,
    org: local.org,
    token: PLATFORM,
    webhookSecret: SECRET,
    requestTimeoutMs: 5_000,
  });
  factory = getAddress(tc.options.factoryAddress);
  ctx = await buildTestApp({ chain, repoHost });
  local.setAuthenticator((key) => ctx.app.services.agents.repoLoginForKey(key));
  founder = await registerAgent(ctx.app, { wallet_address: tc.account(3).address });
});

afterAll(async () => {
  await ctx?.close();
  await hostProxy?.close();
  await rpc?.close();
  await local?.stop();
  await tc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

afterEach(() => {
  rpc.set({});
  hostProxy.set('none');
});

const activate = (who: TestAgent | null, id: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/projects/${id}/activate`,
    headers: who ? who.headers : {},
  });

const getProject = async (id: string) =>
  ok<{ project: ProjectBody }>(await ctx.app.inject({ method: 'GET', url: `/api/projects/${id}` })).project;

/** The repositories of the org, as the host's own org page lists them. */
async function repoNames(): Promise<string[]> {
  const res = await fetch(`${local.baseUrl}/${local.org}`);
  expect(res.status).toBe(200);
  const page = await res.text();
  const prefix = `${local.baseUrl}/${local.org}/`;
  return [...page.matchAll(/href="([^"]+)"/g)]
    .map((m) => (m[1] as string).replaceAll('&amp;', '&'))
    .filter((href) => href.startsWith(prefix))
    .map((href) => href.slice(prefix.length))
    .sort();
}

/** What the factory holds for the project's salt: zero address until it is deployed. */
const curveOf = (projectId: string) =>
  tc.pub.readContract({
    address: factory,
    abi: projectFactoryAbi,
    functionName: 'curveOf',
    args: [projectSalt(projectId)],
  });

/** How many times the factory deployed a pair for this project. */
async function deployments(projectId: string): Promise<number> {
  const logs = await tc.pub.getContractEvents({
    address: factory,
    abi: projectFactoryAbi,
    eventName: 'ProjectDeployed',
    args: { salt: projectSalt(projectId) },
    fromBlock: 0n,
    toBlock: 'latest',
  });
  return logs.length;
}

async function leaseOf(projectId: string): Promise<Date | null> {
  const [row] = await ctx.database.db
    .select({ lease: projects.activationLeaseUntil })
    .from(projects)
    .where(eq(projects.id, projectId));
  return row?.lease ?? null;
}

/** The project is proposed again, with nothing recorded and no lease held. */
async function expectProposed(projectId: string) {
  expect(await getProject(projectId)).toMatchObject({
    status: 'proposed',
    repo_url: null,
    token_address: null,
    curve_address: null,
    activated_at: null,
  });
  expect(await leaseOf(projectId)).toBeNull();
  expect(await activity(ctx.app, { type: 'project.activated', project_id: projectId })).toEqual([]);
}

/**
 * A successful activation: the project is active with the host's repository and a token/curve
 * pair that exists on chain and points at each other, deployed exactly once, recorded once.
 */
async function expectActivated(p: { id: string }, body: ProjectBody, reposBefore: string[]) {
  expect(body.status).toBe('active');
  const prefix = `${local.baseUrl}/${local.org}/`;
  expect(body.repo_url?.startsWith(prefix), body.repo_url ?? 'null').toBe(true);
  const name = (body.repo_url as string).slice(prefix.length);
  expect(name).toMatch(/^[a-z0-9._-]+$/);
  // Exactly one repository more than before, and it is the project's.
  expect(await repoNames()).toEqual([...reposBefore.filter((n) => n !== name), name].sort());
  const rest = await fetch(`${local.apiUrl}/repos/${local.org}/${name}`);
  expect(rest.status).toBe(200);
  expect(((await rest.json()) as { html_url: string }).html_url).toBe(body.repo_url);

  const token = getAddress(body.token_address as string);
  const curve = getAddress(body.curve_address as string);
  expect(body.token_address).toBe(token);
  expect(body.curve_address).toBe(curve);
  expect(token).not.toBe(curve);
  for (const a of [token, curve])
    expect((await tc.pub.getCode({ address: a }))?.length ?? 0).toBeGreaterThan(2);
  expect(await tc.pub.readContract({ address: token, abi: projectTokenAbi, functionName: 'curve' })).toBe(
    curve,
  );
  expect(await tc.pub.readContract({ address: curve, abi: bondingCurveAbi, functionName: 'token' })).toBe(
    token,
  );
  expect(await curveOf(p.id)).toBe(curve);
  expect(await deployments(p.id)).toBe(1);

  expect(body.activated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  expect(await getProject(p.id)).toEqual(body);
  expect(await leaseOf(p.id)).toBeNull();
  const events = await activity(ctx.app, { type: 'project.activated', project_id: p.id });
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({
    agent_id: founder.id,
    project_id: p.id,
    data: { repo_url: body.repo_url, token_address: token, curve_address: curve },
  });
  return { name, token, curve };
}

describe('POST /api/projects/{id}/activate', () => {
  let activeId: string;

  it('creates the repository on the host and deploys token and curve on chain (200)', async () => {
    const before = await repoNames();
    const p = await createProject(ctx.app, founder, { description: 'A project that activates.' });
    expect(await curveOf(p.id)).toBe(zeroAddress);
    const res = await activate(founder, p.id);
    const body = ok<{ project: ProjectBody }>(res).project;
    expect(body).toMatchObject({
      id: p.id,
      name: p.name,
      founder_id: founder.id,
      token_symbol: p.token_symbol,
    });
    const { token } = await expectActivated(p, body, before);
    // The token carries the project's symbol.
    expect(await tc.pub.readContract({ address: token, abi: projectTokenAbi, functionName: 'symbol' })).toBe(
      p.token_symbol,
    );
    activeId = p.id;
  });

  it('gives the repository a description GitHub accepts, even from a 5000-character project description', async () => {
    // GitHub refuses repository descriptions over 350 characters (422); a project's may run to 5000.
    const before = await repoNames();
    const long = `First line of a long story.\n\n${'Every detail matters. '.repeat(250)}`.slice(0, 5000);
    const p = await createProject(ctx.app, founder, { description: long });
    const body = ok<{ project: ProjectBody }>(await activate(founder, p.id)).project;
    const { name } = await expectActivated(p, body, before);
    const repo = (await (await fetch(`${local.apiUrl}/repos/${local.org}/${name}`)).json()) as {
      description: string | null;
    };
    const description = repo.description ?? '';
    expect(Array.from(description).length).toBeGreaterThan(0);
    expect(Array.from(description).length).toBeLessThanOrEqual(350);
    expect(description).not.toMatch(/[\r\n]/);
    expect(description.startsWith('First line of a long story. Every detail matters.')).toBe(true);
  });

  it('refuses a second activation of an active project with 409 invalid_state, creating nothing', async () => {
    const before = await repoNames();
    const sendsBefore = rpc.seen('eth_sendRawTransaction');
    const snapshot = await getProject(activeId);
    expectError(await activate(founder, activeId), 409, 'invalid_state');
    expect(await getProject(activeId)).toEqual(snapshot);
    expect(await repoNames()).toEqual(before);
    expect(rpc.seen('eth_sendRawTransaction')).toBe(sendsBefore);
    expect(await deployments(activeId)).toBe(1);
  });

  it('answers 403 to anyone but the founder, 404 to an unknown id and 401 without a valid key', async () => {
    const p = await createProject(ctx.app, founder);
    const stranger = await registerAgent(ctx.app, { wallet_address: tc.account(5).address });
    expectError(await activate(stranger, p.id), 403, 'forbidden');
    for (const id of ['proj_01900000000000000000000000', 'not-an-id', `${p.id}x`]) {
      expectError(await activate(founder, id), 404, 'not_found');
    }
    await expectAuthRequired(ctx.app, 'POST', `/api/projects/${p.id}/activate`);
    await expectProposed(p.id);
    expect(await curveOf(p.id)).toBe(zeroAddress);
  });

  it('answers 400 founder_without_wallet when the founder has no wallet, creating nothing', async () => {
    const walletless = await registerAgent(ctx.app, { wallet_address: null });
    expect(walletless.walletAddress).toBeNull();
    const p = await createProject(ctx.app, walletless);
    const before = await repoNames();
    expectError(await activate(walletless, p.id), 400, 'founder_without_wallet');
    await expectProposed(p.id);
    expect(await repoNames()).toEqual(before);
    expect(await curveOf(p.id)).toBe(zeroAddress);
  });
});

describe('activation failures leave the project proposed; a retry creates nothing twice', () => {
  it('repository host down: 502, nothing created, then the retry succeeds once', async () => {
    const before = await repoNames();
    const p = await createProject(ctx.app, founder);
    hostProxy.set('down');
    const sends = rpc.seen('eth_sendRawTransaction');
    expectError(await activate(founder, p.id), 502, 'upstream_error');
    await expectProposed(p.id);
    expect(await repoNames()).toEqual(before);
    // The contract is deployed only after the repository exists.
    expect(rpc.seen('eth_sendRawTransaction')).toBe(sends);
    expect(await curveOf(p.id)).toBe(zeroAddress);

    // Still down: the same 502 again, lease released again.
    expectError(await activate(founder, p.id), 502, 'upstream_error');
    await expectProposed(p.id);

    hostProxy.set('none');
    await expectActivated(p, ok<{ project: ProjectBody }>(await activate(founder, p.id)).project, before);
  });

  it('repository created but the answer lost: 502, then the retry reuses that repository', async () => {
    const before = await repoNames();
    const p = await createProject(ctx.app, founder);
    hostProxy.set('lose-answer');
    expectError(await activate(founder, p.id), 502, 'upstream_error');
    await expectProposed(p.id);
    const afterFailure = await repoNames();
    expect(afterFailure).toHaveLength(before.length + 1);
    expect(await curveOf(p.id)).toBe(zeroAddress);

    hostProxy.set('none');
    const { name } = await expectActivated(
      p,
      ok<{ project: ProjectBody }>(await activate(founder, p.id)).project,
      before,
    );
    expect(await repoNames()).toEqual(afterFailure);
    expect(afterFailure).toContain(name);
  });

  it('node refuses the deployment: 502, then the retry deploys once on the healthy chain', async () => {
    const before = await repoNames();
    const p = await createProject(ctx.app, founder);
    rpc.set({ fail: { methods: ['eth_sendRawTransaction'], mode: 'http500' } });
    const forwarded = rpc.forwarded('eth_sendRawTransaction');
    expectError(await activate(founder, p.id), 502, 'upstream_error');
    expect(rpc.forwarded('eth_sendRawTransaction')).toBe(forwarded);
    await expectProposed(p.id);
    expect(await curveOf(p.id)).toBe(zeroAddress);
    expect(await deployments(p.id)).toBe(0);
    // The repository was created before the deployment failed; the retry must reuse it.
    const afterFailure = await repoNames();
    expect(afterFailure).toHaveLength(before.length + 1);

    rpc.set({});
    const { name } = await expectActivated(
      p,
      ok<{ project: ProjectBody }>(await activate(founder, p.id)).project,
      before,
    );
    expect(await repoNames()).toEqual(afterFailure);
    expect(afterFailure).toContain(name);
  });

  it('node mined the deployment but the answer was lost: 502, then the retry finds it, no second deploy', async () => {
    const before = await repoNames();
    const p = await createProject(ctx.app, founder);
    rpc.set({ fail: { methods: ['eth_sendRawTransaction'], mode: 'reset', afterForwarding: true } });
    expectError(await activate(founder, p.id), 502, 'upstream_error');
    await expectProposed(p.id);
    // The deployment reached the node and mined: the factory already holds the pair.
    const curve = await curveOf(p.id);
    expect(curve).not.toBe(zeroAddress);
    expect(await deployments(p.id)).toBe(1);

    rpc.set({});
    const sends = rpc.seen('eth_sendRawTransaction');
    const body = ok<{ project: ProjectBody }>(await activate(founder, p.id)).project;
    expect(rpc.seen('eth_sendRawTransaction')).toBe(sends);
    const done = await expectActivated(p, body, before);
    expect(done.curve).toBe(curve);
    expect(await curveOf(p.id)).toBe(curve);
  });

  it('node unreachable: 502 before anything is sent, then the retry succeeds once', async () => {
    const before = await repoNames();
    const p = await createProject(ctx.app, founder);
    rpc.set({ fail: { methods: ['eth_call', 'eth_chainId', 'eth_getTransactionCount'], mode: 'reset' } });
    const forwarded = rpc.forwarded('eth_sendRawTransaction');
    expectError(await activate(founder, p.id), 502, 'upstream_error');
    expect(rpc.forwarded('eth_sendRawTransaction')).toBe(forwarded);
    await expectProposed(p.id);
    expect(await curveOf(p.id)).toBe(zeroAddress);

    rpc.set({});
    await expectActivated(p, ok<{ project: ProjectBody }>(await activate(founder, p.id)).project, before);
  });

  it('crashed mid-activation: the stale lease answers 409 until it expires, then the retry finishes the job', async () => {
    const before = await repoNames();
    const p = await createProject(ctx.app, founder);
    // A process took the lease, created the repository and deployed the contracts, then died
    // before recording anything. It used the same deterministic repository name and salt.
    const now = ctx.clock.now();
    await ctx.database.db
      .update(projects)
      .set({ activationLeaseUntil: new Date(now.getTime() + 5 * 60_000) })
      .where(eq(projects.id, p.id));
    const direct = directHost();
    const name = repositoryName({ id: p.id, tokenSymbol: p.token_symbol });
    const left = {
      description: `left by the crashed attempt · ${p.id}`,
      projectId: p.id,
      founderLogin: null,
    };
    expect((await direct.ensureRepository(name, left)).created).toBe(true);
    const deployed = await tc.chain.deployProject(p.id, p.name, p.token_symbol);

    // While its lease lives, nobody else may start.
    const sends = rpc.seen('eth_sendRawTransaction');
    expectError(await activate(founder, p.id), 409, 'operation_in_progress');
    expect((await getProject(p.id)).status).toBe('proposed');

    ctx.clock.advance(5 * 60_000 + 1);
    const body = ok<{ project: ProjectBody }>(await activate(founder, p.id)).project;
    expect(rpc.seen('eth_sendRawTransaction')).toBe(sends);
    const done = await expectActivated(p, body, before);
    expect(done.name).toBe(name);
    expect(done.curve).toBe(deployed.curveAddress);
    expect(done.token).toBe(deployed.tokenAddress);
  });
});

describe('a repository of the same name made by someone else', () => {
  it('is never adopted: 409 invalid_state, the project stays proposed, nothing deployed', async () => {
    const p = await createProject(ctx.app, founder);
    const name = repositoryName({ id: p.id, tokenSymbol: p.token_symbol });
    // Made beforehand, outside the marketplace: the name matches, the project's mark does not.
    const made = await fetch(`${local.apiUrl}/orgs/${local.org}/repos`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `token ${PLATFORM}` },
      body: JSON.stringify({ name, description: `Squatted, mentions ${p.id} in passing.`, auto_init: true }),
    });
    expect(made.status).toBe(201);
    const sends = rpc.seen('eth_sendRawTransaction');
    const err = expectError(await activate(founder, p.id), 409, 'invalid_state');
    expect(err.message).toContain(`${local.org}/${name}`);
    await expectProposed(p.id);
    expect(rpc.seen('eth_sendRawTransaction')).toBe(sends);
    expect(await curveOf(p.id)).toBe(zeroAddress);
    // The founder was granted nothing there.
    const record = JSON.parse(
      readFileSync(join(tmp, 'repos', local.org, `${name}.git`, 'local-host.json'), 'utf8'),
    );
    expect(record.collaborators ?? {}).toEqual({});
  });
});

describe('the founder maintains the repository', () => {
  it("grants the founder's repo_login the maintain role on the new repository", async () => {
    const p = await createProject(ctx.app, founder);
    const body = ok<{ project: ProjectBody }>(await activate(founder, p.id)).project;
    const name = (body.repo_url as string).split('/').pop() as string;
    const login = ok<{ agent: { repo_login: string } }>(
      await ctx.app.inject({ method: 'GET', url: '/api/agents/me', headers: founder.headers }),
    ).agent.repo_login;
    const record = JSON.parse(
      readFileSync(join(tmp, 'repos', local.org, `${name}.git`, 'local-host.json'), 'utf8'),
    );
    expect(record.collaborators).toEqual({ [login.toLowerCase()]: 'maintain' });
  });
});

function directHost() {
  return new GithubHost({
    kind: 'local',
    apiUrl: local.apiUrl,
    org: local.org,
    token: PLATFORM,
    webhookSecret: SECRET,
  });
}

describe('concurrent activations', () => {
  it('ten at once: exactly one 200, the rest 409; one repository, one deployment', async () => {
    const before = await repoNames();
    const p = await createProject(ctx.app, founder);
    // A slower node keeps the winner busy while the others arrive.
    rpc.set({ delayMs: 20 });
    const results = await Promise.all(Array.from({ length: 10 }, () => activate(founder, p.id)));
    const winners = results.filter((r) => r.statusCode === 200);
    expect(winners, results.map((r) => r.body).join('\n')).toHaveLength(1);
    for (const r of results) {
      if (r.statusCode === 200) continue;
      expect(r.statusCode, r.body).toBe(409);
      expect(['operation_in_progress', 'invalid_state']).toContain(r.json().error.code);
    }
    expect(
      results.filter((r) => r.statusCode === 409 && r.json().error.code === 'operation_in_progress').length,
    ).toBeGreaterThan(0);
    rpc.set({});
    await expectActivated(p, (winners[0] as (typeof results)[number]).json().project, before);
  });
});
