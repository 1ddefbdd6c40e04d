import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from '../src/dev/local-repo-host/child-env.ts';
import type { LocalRepoHost } from '../src/dev/local-repo-host/server.ts';
import { GithubHost } from '../src/infra/repo-host/github-host.ts';
import { contributorGitEnv } from './helpers/git.ts';
import { expectGithubResponse } from './helpers/github-openapi.ts';
import { localHostWithClient } from './helpers/local-host.ts';

/**
 * Who may write on the built-in repository host, as the contract says: reads are anonymous;
 * git pushes authenticate with basic auth (the API key as password), REST writes with
 * `Bearer`/`token`; any agent pushes a branch and opens a pull request, only the founder pushes
 * to `main` or merges. And nothing of the service's environment reaches the git it runs.
 */

const run = promisify(execFile);
const PLATFORM = 'platform-token-for-auth-tests';
const KEYS = new Map([
  ['key-alice', 'alice'],
  ['key-bob', 'bob'],
  ['key-carol', 'carol'],
]);
const REPO = 'auth';

let tmp: string;
let host: LocalRepoHost;
let repoUrl: string;
const env = {} as Record<'anon' | 'alice' | 'bob' | 'carol' | 'stranger', NodeJS.ProcessEnv>;

/** Runs git; resolves with exit code, stdout and stderr instead of throwing. */
async function git(who: keyof typeof env, cwd: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run('git', args, { cwd, env: env[who] });
    return { code: 0, stdout: stdout.trim(), stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: (e.stdout ?? '').trim(), stderr: e.stderr ?? '' };
  }
}

async function ok(who: keyof typeof env, cwd: string, ...args: string[]): Promise<string> {
  const r = await git(who, cwd, ...args);
  expect(r.code, `git ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

/** A clone by `who` with one new commit on `branch` (not pushed). */
async function commitOn(who: keyof typeof env, branch: string, file: string): Promise<string> {
  const dir = mkdtempSync(join(tmp, `${who}-`));
  await ok(who, tmp, 'clone', '--quiet', repoUrl, dir);
  if (branch !== 'main') await ok(who, dir, 'checkout', '--quiet', '-b', branch);
  writeFileSync(join(dir, file), `${who} was here\n`);
  await ok(who, dir, 'add', '-A');
  await ok(who, dir, 'commit', '--quiet', '-m', `${who} on ${branch}`);
  return dir;
}

const mainTip = async () => (await ok('anon', tmp, 'ls-remote', repoUrl, 'refs/heads/main')).split('\t')[0];

async function rest(method: string, path: string, body: unknown, key: string | null) {
  const res = await fetch(`${host.apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

const pulls = `/repos/marketplace/${REPO}/pulls`;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'local-host-auth-'));
  env.anon = contributorGitEnv(tmp, 'Anonymous');
  env.alice = contributorGitEnv(tmp, 'Alice', 'key-alice');
  env.bob = contributorGitEnv(tmp, 'Bob', 'key-bob');
  env.carol = contributorGitEnv(tmp, 'Carol', 'key-carol');
  env.stranger = contributorGitEnv(tmp, 'Stranger', 'key-of-nobody');
  const started = await localHostWithClient(
    {
      dataDir: join(tmp, 'data'),
      port: 0,
      webhook: { url: null, secret: 'unused' },
      platformToken: PLATFORM,
    },
    KEYS,
  );
  host = started.host;
  const repo = await started.client.ensureRepository(REPO, {
    description: 'Auth · proj-auth',
    projectId: 'proj-auth',
    founderLogin: 'alice',
  });
  repoUrl = repo.htmlUrl;
});

afterAll(async () => {
  await host?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('git over HTTP', () => {
  it('clones and fetches anonymously, but answers an anonymous push 401 with a Basic challenge', async () => {
    const dir = await commitOn('anon', 'anon-work', 'anon.txt');
    const push = await git('anon', dir, 'push', 'origin', 'anon-work');
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/terminal prompts disabled|Authentication failed|could not read Username/);
    expect(await ok('anon', tmp, 'ls-remote', repoUrl, 'refs/heads/anon-work')).toBe('');

    const advertise = await fetch(`${repoUrl}.git/info/refs?service=git-receive-pack`);
    expect(advertise.status).toBe(401);
    expect(advertise.headers.get('www-authenticate')).toMatch(/^Basic realm="/);
    const post = await fetch(`${repoUrl}.git/git-receive-pack`, { method: 'POST', body: '0000' });
    expect(post.status).toBe(401);
    expect((await fetch(`${repoUrl}.git/info/refs?service=git-upload-pack`)).status).toBe(200);
  });

  it('answers a key that is nobody’s 401', async () => {
    const dir = await commitOn('stranger', 'stranger-work', 's.txt');
    const push = await git('stranger', dir, 'push', 'origin', 'stranger-work');
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/Authentication failed|401/);
    expect(await ok('anon', tmp, 'ls-remote', repoUrl, 'refs/heads/stranger-work')).toBe('');
  });

  it('lets any agent push a new branch, and refuses a non-founder push to main with 403', async () => {
    const dir = await commitOn('bob', 'bob-work', 'bob.txt');
    await ok('bob', dir, 'push', '--quiet', 'origin', 'bob-work');
    expect(await ok('anon', tmp, 'ls-remote', repoUrl, 'refs/heads/bob-work')).not.toBe('');

    const before = await mainTip();
    const toMain = await git('bob', dir, 'push', 'origin', 'HEAD:main');
    expect(toMain.code).not.toBe(0);
    expect(toMain.stderr).toContain('403');
    const deleteMain = await git('bob', dir, 'push', 'origin', ':main');
    expect(deleteMain.code).not.toBe(0);
    const tag = await git('bob', dir, 'push', 'origin', 'HEAD:refs/tags/v1');
    expect(tag.stderr).toContain('403');
    // One refused command refuses the whole push, the allowed branch included.
    const mixed = await git('bob', dir, 'push', 'origin', 'HEAD:main', 'HEAD:bob-other');
    expect(mixed.stderr).toContain('403');
    expect(await ok('anon', tmp, 'ls-remote', repoUrl, 'refs/heads/bob-other')).toBe('');
    expect(await mainTip()).toBe(before);
  });

  it('lets the founder push to main', async () => {
    const dir = await commitOn('alice', 'main', 'alice.txt');
    await ok('alice', dir, 'push', '--quiet', 'origin', 'main');
    expect(await mainTip()).toBe(await ok('alice', dir, 'rev-parse', 'HEAD'));
  });

  it("refuses updating or deleting another agent's pull request branch", async () => {
    const dir = await commitOn('carol', 'carol-pr', 'carol.txt');
    await ok('carol', dir, 'push', '--quiet', 'origin', 'carol-pr');
    const pr = await rest('POST', pulls, { title: 'Carol', head: 'carol-pr', base: 'main' }, 'key-carol');
    expect(pr.status).toBe(201);
    const tip = await ok('anon', tmp, 'ls-remote', repoUrl, 'refs/heads/carol-pr');

    const bob = await commitOn('bob', 'carol-pr', 'bob.txt');
    const overwrite = await git('bob', bob, 'push', '--force', 'origin', 'carol-pr');
    expect(overwrite.stderr).toContain('403');
    const remove = await git('bob', bob, 'push', 'origin', ':carol-pr');
    expect(remove.stderr).toContain('403');
    expect(await ok('anon', tmp, 'ls-remote', repoUrl, 'refs/heads/carol-pr')).toBe(tip);
    // Her own branch: carol updates it.
    writeFileSync(join(dir, 'more.txt'), 'more\n');
    await ok('carol', dir, 'add', '-A');
    await ok('carol', dir, 'commit', '--quiet', '-m', 'more');
    await ok('carol', dir, 'push', '--quiet', 'origin', 'carol-pr');
  });
});

describe('REST writes', () => {
  it('answers anonymous and unknown-key writes 401, reads 200', async () => {
    const body = { title: 'x', head: 'bob-work', base: 'main' };
    for (const key of [null, 'key-of-nobody']) {
      const res = await rest('POST', pulls, body, key);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe(key ? 'Bad credentials' : 'Requires authentication');
      expect((await rest('PUT', `${pulls}/1/merge`, {}, key)).status).toBe(401);
      expect((await rest('POST', '/orgs/marketplace/repos', { name: 'n' }, key)).status).toBe(401);
    }
    expect((await rest('GET', pulls, undefined, null)).status).toBe(200);
    expect((await rest('GET', `/repos/marketplace/${REPO}`, undefined, null)).status).toBe(200);
  });

  it('opens a pull request as its author; only the founder merges (others 403); merged_by is the founder', async () => {
    const pr = await rest('POST', pulls, { title: 'Bob', head: 'bob-work', base: 'main' }, 'key-bob');
    expect(pr.status).toBe(201);
    expectGithubResponse('/repos/{owner}/{repo}/pulls', 'post', 201, pr.body);
    expect((pr.body.user as { login: string }).login).toBe('bob');
    const merge = `${pulls}/${pr.body.number}/merge`;

    for (const key of ['key-bob', 'key-carol']) {
      const refused = await rest('PUT', merge, {}, key);
      expect(refused.status).toBe(403);
      expectGithubResponse('/repos/{owner}/{repo}/pulls/{pull_number}/merge', 'put', 403, refused.body);
    }
    // Closing someone else's pull request is the author's or the founder's call.
    expect((await rest('PATCH', `${pulls}/${pr.body.number}`, { state: 'closed' }, 'key-carol')).status).toBe(
      403,
    );
    expect((await rest('GET', `${pulls}/${pr.body.number}`, undefined, null)).body.state).toBe('open');

    const merged = await rest('PUT', merge, {}, 'key-alice');
    expect(merged.status).toBe(200);
    const got = await rest('GET', `${pulls}/${pr.body.number}`, undefined, null);
    expectGithubResponse('/repos/{owner}/{repo}/pulls/{pull_number}', 'get', 200, got.body);
    expect(got.body).toMatchObject({ merged: true, user: { login: 'bob' }, merged_by: { login: 'alice' } });
  });

  it('creates repositories and grants roles only with the platform token (agents 403)', async () => {
    const agent = await rest('POST', '/orgs/marketplace/repos', { name: 'mine' }, 'key-bob');
    expect(agent.status).toBe(403);
    const grant = `/repos/marketplace/${REPO}/collaborators/bob`;
    expect((await rest('PUT', grant, { permission: 'maintain' }, 'key-bob')).status).toBe(403);
    expect((await rest('PUT', grant, { permission: 'owner' }, PLATFORM)).status).toBe(422);
    expect((await rest('PUT', grant, { permission: 'maintain' }, PLATFORM)).status).toBe(204);
    // Now a maintainer, bob may push to main.
    const dir = await commitOn('bob', 'main', 'maintainer.txt');
    await ok('bob', dir, 'push', '--quiet', 'origin', 'main');
  });

  it('answers GET /user with the caller (GitHub public-user shape); anonymous 401', async () => {
    const octokit = new Octokit({ baseUrl: host.apiUrl, auth: 'key-carol' });
    const me = await octokit.rest.users.getAuthenticated();
    expectGithubResponse('/user', 'get', 200, me.data);
    expect(me.data.login).toBe('carol');
    expect((await rest('GET', '/user', undefined, null)).status).toBe(401);
    expect((await rest('GET', '/user', undefined, 'key-of-nobody')).status).toBe(401);
    const service = new GithubHost({
      kind: 'local',
      apiUrl: host.apiUrl,
      org: host.org,
      token: null,
      webhookSecret: 'x',
    });
    expect(await service.userLogin('key-bob')).toBe('bob');
    expect(await service.userLogin('key-of-nobody')).toBeNull();
  });
});

describe('child processes get a minimal environment', () => {
  const SECRETS = [
    'WALLET_MASTER_KEY',
    'OPERATOR_PRIVATE_KEY',
    'PAYOUT_PRIVATE_KEY',
    'GITHUB_TOKEN',
    'DATABASE_URL',
  ];

  /** Runs `fn` with every secret set in this process's environment, then restores it. */
  async function withSecrets<T>(fn: () => T | Promise<T>): Promise<T> {
    const saved = SECRETS.map((k) => [k, process.env[k]] as const);
    for (const k of SECRETS) process.env[k] = `sentinel-${k}`;
    try {
      return await fn();
    } finally {
      for (const [k, v] of saved) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }

  it('builds the environment from nothing: no secret of the service', async () => {
    const built = await withSecrets(() => childEnv('/some/home', { GIT_DIR: '/x' }));
    for (const k of SECRETS) expect(built[k]).toBeUndefined();
    expect(JSON.stringify(built)).not.toContain('sentinel-');
    expect(built).toMatchObject({ HOME: '/some/home', GIT_DIR: '/x', GIT_CONFIG_NOSYSTEM: '1' });
    expect(built.PATH).toBe(process.env.PATH);
  });

  it('git http-backend and the hooks it runs never see them', async () => {
    // A pre-receive hook that records the environment git gives it.
    const gitDir = join(tmp, 'data', 'repos', host.org, `${REPO}.git`);
    const hook = join(gitDir, 'hooks', 'pre-receive');
    const dump = join(tmp, 'hook-env.txt');
    writeFileSync(hook, `#!/bin/sh\nenv > '${dump}'\ncat > /dev/null\n`);
    chmodSync(hook, 0o755);
    try {
      const dir = await commitOn('carol', 'carol-env', 'env.txt');
      await withSecrets(() => ok('carol', dir, 'push', '--quiet', 'origin', 'carol-env'));
    } finally {
      rmSync(hook);
    }
    expect(existsSync(dump)).toBe(true);
    const seen = readFileSync(dump, 'utf8');
    expect(seen).toContain('REMOTE_USER=carol');
    expect(seen).not.toContain('sentinel-');
    for (const k of SECRETS) expect(seen).not.toMatch(new RegExp(`^${k}=`, 'm'));
  });
});
