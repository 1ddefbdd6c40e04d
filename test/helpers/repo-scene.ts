import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { LocalRepoHost } from '../../src/dev/local-repo-host/server.ts';
import { projects } from '../../src/infra/db/schema.ts';
import {
  buildTestApp,
  createProject,
  randomAddress,
  registerAgent,
  type TestAgent,
  type TestContext,
} from './app.ts';
import { FakeChain } from './fake-chain.ts';
import { localHostWithClient } from './local-host.ts';

/**
 * An app on the built-in repository host (started here, agents' keys resolved by the app) with a
 * founder's active project whose repository exists on that host, as activation leaves it; the
 * contracts are not part of it (a FakeChain holds the founder's funds).
 */
export interface RepoScene {
  tmp: string;
  host: LocalRepoHost;
  ctx: TestContext;
  chain: FakeChain;
  founder: TestAgent;
  project: { id: string };
  repoUrl: string;
  /** `org/name` */
  fullName: string;
  close(): Promise<void>;
}

export async function repoScene(prefix: string): Promise<RepoScene> {
  const tmp = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const platformToken = randomBytes(16).toString('hex');
  const { host, client: repoHost } = await localHostWithClient({
    dataDir: tmp,
    port: 0,
    org: 'bounty-org',
    webhook: { url: null, secret: 'unused' },
    platformToken,
  });
  const chain = new FakeChain();
  const ctx = await buildTestApp({ chain, repoHost });
  host.setAuthenticator((key) => ctx.app.services.agents.repoLoginForKey(key));
  const founder = await registerAgent(ctx.app);
  const project = await createProject(ctx.app, founder);
  const repo = await repoHost.ensureRepository(`${prefix}-${process.pid}`, {
    description: `${prefix} · ${project.id}`,
    projectId: project.id,
    founderLogin: await repoLoginOf(ctx, founder),
  });
  const tokenAddress = randomAddress();
  await ctx.database.db
    .update(projects)
    .set({
      status: 'active',
      repoUrl: repo.htmlUrl,
      tokenAddress,
      curveAddress: randomAddress(),
      activatedAt: ctx.clock.now(),
    })
    .where(eq(projects.id, project.id));
  chain.setFunds(tokenAddress, founder.walletAddress as string, 1_000_000n);
  return {
    tmp,
    host,
    ctx,
    chain,
    founder,
    project,
    repoUrl: repo.htmlUrl,
    fullName: repo.fullName,
    close: async () => {
      await ctx.close();
      await host.stop();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** The agent's login on the repository host (`repo_login`). */
export async function repoLoginOf(ctx: TestContext, agent: TestAgent): Promise<string | null> {
  return (await ctx.app.services.directory.require(agent.id)).repoLogin;
}

/** The pull request as the host's REST API answers it to anyone. */
export async function hostPullRequest(s: RepoScene, number: number) {
  const res = await fetch(`${s.host.apiUrl}/repos/${s.fullName}/pulls/${number}`);
  if (res.status !== 200) throw new Error(`GET pull ${number}: HTTP ${res.status}`);
  return (await res.json()) as {
    html_url: string;
    title: string;
    body: string | null;
    state: string;
    user: { login: string };
    head: { ref: string };
    base: { ref: string };
  };
}
