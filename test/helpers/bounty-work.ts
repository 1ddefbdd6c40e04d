import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { approvePayouts, buyTokens, type TestChain } from './chain.ts';
import { contributorGitEnv } from './git.ts';

/**
 * A bounty's work on the real app over HTTP and the built-in repository host, as agents do it:
 * register, activate a project, post and claim a bounty, then clone its repository, commit on the
 * bounty's branch, push with the key and open the pull request through the service
 * (`POST /api/bounties/{id}/pull-request`). Used by the tests that need real git under a review.
 */

const run = promisify(execFile);

export type Registered = {
  id: string;
  name: string;
  api_key: string;
  wallet_address: string | null;
  repo_login: string | null;
};

/** A request to the app; answers its status and JSON body (null without one). */
export async function call(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  key: string | null,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers of many shapes, each test reads its own
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A GET (no body) or POST (with one) that must succeed; its JSON body. */
export async function apiOk<T>(base: string, path: string, key: string | null, body?: unknown): Promise<T> {
  const res = await call(base, body === undefined ? 'GET' : 'POST', path, key, body);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body as T;
}

export async function register(base: string, name: string, wallet?: string): Promise<Registered> {
  const body = { name, ...(wallet ? { wallet_address: wallet } : {}) };
  return (await apiOk<{ agent: Registered }>(base, '/api/agents/register', null, body)).agent;
}

export interface ActiveProject {
  id: string;
  repo_url: string;
  token_address: string;
  curve_address: string;
  token_symbol: string;
}

/** A project created and activated (its repository on the host, its token on chain). */
export async function activeProject(base: string, founderKey: string, name: string, symbol: string) {
  const { project } = await apiOk<{ project: { id: string } }>(base, '/api/projects', founderKey, {
    name,
    token_symbol: symbol,
  });
  const active = await apiOk<{ project: ActiveProject }>(
    base,
    `/api/projects/${project.id}/activate`,
    founderKey,
    {},
  );
  return active.project;
}

/** The founder's external wallet (an anvil account) buys the project's token and allows the payout router. */
export async function fundFounder(tc: TestChain, account: number, project: ActiveProject, ethUnits: bigint) {
  const tokens = await buyTokens(tc, account, project.curve_address, ethUnits);
  await approvePayouts(tc, account, project.token_address, tokens);
  return tokens;
}

export async function postBounty(
  base: string,
  founderKey: string,
  projectId: string,
  title: string,
  reward = 100,
) {
  const { bounty } = await apiOk<{ bounty: { id: string } }>(
    base,
    `/api/projects/${projectId}/bounties`,
    founderKey,
    { title, description: `${title}, please.`, reward_amount: reward },
  );
  return bounty.id;
}

/** A contributor's clone of a claimed bounty's repository, on the bounty's branch. */
export class Workspace {
  private constructor(
    readonly dir: string,
    readonly branch: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Clones the repository the service names for the bounty and checks out its branch. */
  static async open(base: string, tmp: string, dev: Registered, bountyId: string): Promise<Workspace> {
    const { repository } = await apiOk<{ repository: { repo_url: string; branch: string } }>(
      base,
      `/api/bounties/${bountyId}/repository`,
      dev.api_key,
    );
    const env = contributorGitEnv(tmp, dev.name, dev.api_key);
    const dir = join(tmp, `work-${bountyId}`);
    await run('git', ['clone', '--quiet', repository.repo_url, dir], { cwd: tmp, env });
    const ws = new Workspace(dir, repository.branch, env);
    await ws.git('checkout', '--quiet', '-b', repository.branch);
    return ws;
  }

  async git(...args: string[]): Promise<string> {
    return (await run('git', args, { cwd: this.dir, env: this.env })).stdout.trim();
  }

  /** Writes the files, commits them and pushes the branch; answers the new head. */
  async commitAndPush(files: Record<string, string>, message: string): Promise<string> {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(this.dir, name), text);
    await this.git('add', '--', ...Object.keys(files));
    await this.git('commit', '--quiet', '-m', message);
    await this.git('push', '--quiet', 'origin', this.branch);
    return this.git('rev-parse', 'HEAD');
  }
}

/** Opens the bounty's pull request through the service, as its claimant; its address. */
export async function openPullRequest(
  base: string,
  dev: Registered,
  bountyId: string,
  head: string,
  title: string,
) {
  const res = await apiOk<{ pull_request: { html_url: string } }>(
    base,
    `/api/bounties/${bountyId}/pull-request`,
    dev.api_key,
    { title, head },
  );
  return res.pull_request.html_url;
}

/** Claims the bounty, pushes one commit with `files`, opens the pull request and submits it. */
export async function claimPushSubmit(
  base: string,
  tmp: string,
  dev: Registered,
  bountyId: string,
  files: Record<string, string>,
) {
  await apiOk(base, `/api/bounties/${bountyId}/claim`, dev.api_key, {});
  const ws = await Workspace.open(base, tmp, dev, bountyId);
  const head = await ws.commitAndPush(files, 'First version');
  const prUrl = await openPullRequest(base, dev, bountyId, ws.branch, `Work on ${bountyId}`);
  const { submission } = await apiOk<{ submission: { id: string } }>(
    base,
    `/api/bounties/${bountyId}/submit`,
    dev.api_key,
    { pr_url: prUrl },
  );
  return { ws, head, prUrl, submissionId: submission.id };
}
