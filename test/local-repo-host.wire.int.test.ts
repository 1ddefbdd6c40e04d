import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRepoHost, startLocalRepoHost } from '../src/dev/local-repo-host/server.ts';
import { GithubHost } from '../src/infra/repo-host/github-host.ts';
import { parsePullRequestWebhook } from '../src/infra/repo-host/host-webhooks.ts';
import { AppError } from '../src/lib/errors.ts';
import { contributorGitEnv } from './helpers/git.ts';
import { expectGithubResponse, expectGithubWebhook } from './helpers/github-openapi.ts';

/**
 * The built-in repository host, driven the way the marketplace (GithubHost on Octokit) and a
 * contributor (git over HTTP, Octokit for pull requests) drive it. Every REST body is checked
 * against GitHub's published OpenAPI description, so what passes here is what GitHub answers.
 */

const run = promisify(execFile);
const SECRET = 'test-webhook-secret';
/** The marketplace's credential on the host, and two agents: the founder and a contributor. */
const PLATFORM = 'platform-token-for-tests';
const KEYS = new Map([
  ['key-alice', 'alice'],
  ['key-bob', 'bob'],
]);
/** Repositories made the way activation makes them: marked with a project id, alice founds them. */
const repoOptions = (projectId: string, founderLogin: string | null = 'alice') => ({
  description: `A project · ${projectId}`,
  projectId,
  founderLogin,
});

interface Delivery {
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
  json: { action: string; pull_request: { number: number; merged: boolean } };
}

let tmp: string;
let gitEnv: NodeJS.ProcessEnv;
let host: LocalRepoHost;
let repoHost: GithubHost;
let octokit: Octokit;
let founderOctokit: Octokit;
let receiver: Server;
let receiverUrl: string;
const deliveries: Delivery[] = [];

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, env: gitEnv });
  return stdout.trim();
}

async function waitForDelivery(pred: (d: Delivery) => boolean): Promise<Delivery> {
  for (let i = 0; i < 200; i++) {
    const found = deliveries.find(pred);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no such webhook delivery arrived');
}

/** The host's REST API as bob (the contributor) unless another key, or null (anonymous), is given. */
async function api(method: string, path: string, body?: unknown, key: string | null = 'key-bob') {
  const res = await fetch(`${host.apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `token ${key}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Clones `repo`, commits `files` on a new `branch` and pushes it; returns the work tree. */
async function pushBranch(repo: string, branch: string, files: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(join(tmp, 'work-'));
  await git(tmp, 'clone', '--quiet', `${host.baseUrl}/${host.org}/${repo}`, dir);
  await git(dir, 'checkout', '--quiet', '-b', branch);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '--quiet', '-m', `Work on ${branch}`);
  await git(dir, 'push', '--quiet', 'origin', branch);
  return dir;
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'local-repo-host-'));
  gitEnv = contributorGitEnv(tmp, 'Test Contributor', 'key-bob');

  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      deliveries.push({ headers: req.headers, raw, json: JSON.parse(raw.toString('utf8')) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  host = await startLocalRepoHost({
    dataDir: join(tmp, 'data'),
    host: '127.0.0.1',
    port: 0,
    webhook: { url: receiverUrl, secret: SECRET },
    webhookRetryDelaysMs: [50, 100],
    platformToken: PLATFORM,
  });
  host.setAuthenticator(async (key) => KEYS.get(key) ?? null);
  repoHost = new GithubHost(hostOptions());
  octokit = new Octokit({ baseUrl: host.apiUrl, auth: 'key-bob' });
  founderOctokit = new Octokit({ baseUrl: host.apiUrl, auth: 'key-alice' });
});

afterAll(async () => {
  await host?.stop();
  await new Promise((r) => receiver?.close(r));
  rmSync(tmp, { recursive: true, force: true });
});

describe('repositories', () => {
  it('ensureRepository creates once and then returns the same repository', async () => {
    const first = await repoHost.ensureRepository('alpha', repoOptions('proj-alpha'));
    expect(first).toEqual({
      fullName: `${host.org}/alpha`,
      htmlUrl: `${host.baseUrl}/${host.org}/alpha`,
      cloneUrl: `${host.baseUrl}/${host.org}/alpha.git`,
      created: true,
      description: 'A project · proj-alpha',
    });
    const again = await repoHost.ensureRepository('alpha', repoOptions('proj-alpha'));
    expect(again).toEqual({ ...first, created: false });
    expect(repoHost.info).toEqual({ kind: 'local', apiUrl: host.apiUrl, org: host.org });

    const racing = await Promise.all(
      [1, 2, 3].map(() => repoHost.ensureRepository('gamma', repoOptions('proj-gamma'))),
    );
    expect(racing.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(racing.map((r) => r.htmlUrl)).size).toBe(1);
  });

  it('refuses to adopt a repository of the same name it did not create for the project (409)', async () => {
    const other = await api('POST', `/orgs/${host.org}/repos`, { name: 'taken', auto_init: true }, PLATFORM);
    expect(other.status).toBe(201);
    const err = await repoHost.ensureRepository('taken', repoOptions('proj-taken')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('invalid_state');
    expect((err as AppError).message).toContain(`${host.org}/taken`);
    // Nothing was granted on it: the founder got no role there.
    const record = JSON.parse(
      readFileSync(join(tmp, 'data', 'repos', host.org, 'taken.git', 'local-host.json'), 'utf8'),
    );
    expect(record.collaborators ?? {}).toEqual({});
  });

  it('answers create and get with GitHub shapes and status codes', async () => {
    const created = await api('POST', `/orgs/${host.org}/repos`, { name: 'beta', auto_init: true }, PLATFORM);
    expect(created.status).toBe(201);
    expectGithubResponse('/orgs/{org}/repos', 'post', 201, created.body);
    expect(created.body).toMatchObject({
      full_name: `${host.org}/beta`,
      default_branch: 'main',
      private: false,
    });

    const got = await api('GET', `/repos/${host.org}/beta`);
    expect(got.status).toBe(200);
    expectGithubResponse('/repos/{owner}/{repo}', 'get', 200, got.body);

    const taken = await api('POST', `/orgs/${host.org}/repos`, { name: 'beta' }, PLATFORM);
    expect(taken.status).toBe(422);
    expectGithubResponse('/orgs/{org}/repos', 'post', 422, taken.body);
    expect(JSON.stringify(taken.body.errors)).toContain('name already exists');

    const noName = await api('POST', `/orgs/${host.org}/repos`, { description: 'x' }, PLATFORM);
    expect(noName.status).toBe(422);
    expectGithubResponse('/orgs/{org}/repos', 'post', 422, noName.body);

    const missing = await api('GET', `/repos/${host.org}/nope`);
    expect(missing.status).toBe(404);
    expectGithubResponse('/repos/{owner}/{repo}', 'get', 404, missing.body);
    expect((await api('POST', '/orgs/elsewhere/repos', { name: 'x' }, PLATFORM)).status).toBe(404);
    expect((await api('GET', `/repos/${host.org}/%2E%2E`)).status).toBe(404);
  });

  it('serves a clone with one README commit on main, at the web address and at clone_url', async () => {
    for (const url of [`${host.baseUrl}/${host.org}/alpha`, `${host.baseUrl}/${host.org}/alpha.git`]) {
      const dir = mkdtempSync(join(tmp, 'clone-'));
      await git(tmp, 'clone', '--quiet', url, dir);
      expect(await git(dir, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
      expect(await git(dir, 'rev-list', '--count', 'HEAD')).toBe('1');
      expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain('# alpha');
    }
    await expect(
      git(tmp, 'clone', '--quiet', `${host.baseUrl}/${host.org}/nope`, join(tmp, 'x')),
    ).rejects.toThrow();
  });

  it('shows a readable repository page', async () => {
    const res = await fetch(`${host.baseUrl}/${host.org}/alpha`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const page = await res.text();
    expect(page).toContain(`${host.org}/alpha`);
    expect(page).toContain(`git clone ${host.baseUrl}/${host.org}/alpha`);
  });
});

describe('pull requests', () => {
  const title = 'Add a <greeting> & docs';
  let number: number;
  let headSha: string;

  it('opens a pull request from a pushed branch', async () => {
    const dir = await pushBranch('alpha', 'feature/greet', { 'hello.txt': 'hello\n' });
    headSha = await git(dir, 'rev-parse', 'HEAD');
    const res = await octokit.rest.pulls.create({
      owner: host.org,
      repo: 'alpha',
      title,
      head: 'feature/greet',
      base: 'main',
      body: 'Says hello.',
    });
    expect(res.status).toBe(201);
    expectGithubResponse('/repos/{owner}/{repo}/pulls', 'post', 201, res.data);
    number = res.data.number;
    expect(number).toBe(1);
    expect(res.data.html_url).toBe(`${host.baseUrl}/${host.org}/alpha/pull/1`);
    expect(res.headers.location).toBe(res.data.url);
    expect(res.data).toMatchObject({
      state: 'open',
      merged: false,
      mergeable: true,
      commits: 1,
      changed_files: 1,
    });
    expect(res.data.head).toMatchObject({
      ref: 'feature/greet',
      label: `${host.org}:feature/greet`,
      sha: headSha,
    });

    const opened = await waitForDelivery(
      (d) => d.json.action === 'opened' && d.json.pull_request.number === 1,
    );
    expectGithubWebhook('pull-request-opened', opened.json);
  });

  it('refuses invalid pull requests with 422 as GitHub does', async () => {
    for (const body of [
      { title, head: 'feature/greet', base: 'main' }, // one is already open
      { title, head: 'no-such-branch', base: 'main' },
      { title, head: 'feature/greet', base: 'no-such-base' },
      { title, head: 'main', base: 'main' }, // no commits between
      { title, head: 'someone-else:feature/greet', base: 'main' },
      { head: 'feature/greet', base: 'main' },
    ]) {
      const res = await api('POST', `/repos/${host.org}/alpha/pulls`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expectGithubResponse('/repos/{owner}/{repo}/pulls', 'post', 422, res.body);
    }
    expect((await api('POST', `/repos/${host.org}/nope/pulls`, { title, head: 'a', base: 'b' })).status).toBe(
      404,
    );
  });

  it('reads and lists pull requests', async () => {
    expect(await repoHost.getPullRequest(host.org, 'alpha', number)).toEqual({
      number,
      state: 'open',
      merged: false,
      htmlUrl: `${host.baseUrl}/${host.org}/alpha/pull/${number}`,
      headRef: 'feature/greet',
      title,
      body: 'Says hello.',
      authorLogin: 'bob',
      mergedByLogin: null,
      // The branch adds hello.txt, one line.
      additions: 1,
      deletions: 0,
      changedFiles: 1,
      // The branch's tip, which merges into main cleanly.
      headSha,
      mergeable: true,
    });
    expect(await repoHost.getPullRequest(host.org, 'alpha', 99)).toBeNull();
    expect(await repoHost.getPullRequest(host.org, 'nope', 1)).toBeNull();

    const got = await octokit.rest.pulls.get({ owner: host.org, repo: 'alpha', pull_number: number });
    expectGithubResponse('/repos/{owner}/{repo}/pulls/{pull_number}', 'get', 200, got.data);
    const missing = await api('GET', `/repos/${host.org}/alpha/pulls/99`);
    expect(missing.status).toBe(404);
    expectGithubResponse('/repos/{owner}/{repo}/pulls/{pull_number}', 'get', 404, missing.body);

    const open = await octokit.rest.pulls.list({ owner: host.org, repo: 'alpha' });
    expectGithubResponse('/repos/{owner}/{repo}/pulls', 'get', 200, open.data);
    expect(open.data.map((p) => p.number)).toEqual([number]);
    const closed = await octokit.rest.pulls.list({ owner: host.org, repo: 'alpha', state: 'closed' });
    expect(closed.data).toEqual([]);
    const badState = await fetch(`${host.apiUrl}/repos/${host.org}/alpha/pulls?state=weird`);
    expect(badState.status).toBe(422);
  });

  it('shows a readable, escaped pull request page', async () => {
    const res = await fetch(`${host.baseUrl}/${host.org}/alpha/pull/${number}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const page = await res.text();
    expect(page).toContain('Add a &lt;greeting&gt; &amp; docs');
    expect(page).not.toContain('<greeting>');
    expect(page).toContain('feature/greet');
    expect(page).toMatch(/class="state open">Open</);
    expect((await fetch(`${host.baseUrl}/${host.org}/alpha/pull/99`)).status).toBe(404);
  });

  it('merges into main and sends the signed pull_request webhook', async () => {
    const before = await git(tmp, 'ls-remote', `${host.baseUrl}/${host.org}/alpha`, 'refs/heads/main');
    const res = await founderOctokit.rest.pulls.merge({
      owner: host.org,
      repo: 'alpha',
      pull_number: number,
    });
    expect(res.status).toBe(200);
    expectGithubResponse('/repos/{owner}/{repo}/pulls/{pull_number}/merge', 'put', 200, res.data);
    expect(res.data.merged).toBe(true);

    const after = await git(tmp, 'ls-remote', `${host.baseUrl}/${host.org}/alpha`, 'refs/heads/main');
    expect(after.split('\t')[0]).toBe(res.data.sha);
    expect(after).not.toBe(before);
    const dir = mkdtempSync(join(tmp, 'merged-'));
    await git(tmp, 'clone', '--quiet', `${host.baseUrl}/${host.org}/alpha`, dir);
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello\n');
    expect((await git(dir, 'log', '-1', '--format=%P')).split(' ')).toHaveLength(2);

    const hook = await waitForDelivery(
      (d) => d.json.action === 'closed' && d.json.pull_request.number === number,
    );
    expect(hook.headers['x-github-event']).toBe('pull_request');
    expect(hook.headers['x-github-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    const signature = hook.headers['x-hub-signature-256'] as string;
    expect(repoHost.verifyWebhook(hook.raw, signature)).toBe(true);
    const tampered = Buffer.from(hook.raw.toString('utf8').replace(/"merged":\s*true/, '"merged":false'));
    expect(tampered.equals(hook.raw)).toBe(false);
    expect(repoHost.verifyWebhook(tampered, signature)).toBe(false);
    expect(repoHost.verifyWebhook(hook.raw, undefined)).toBe(false);
    const otherSecret = new GithubHost({ ...hostOptions(), webhookSecret: 'another-secret' });
    expect(otherSecret.verifyWebhook(hook.raw, signature)).toBe(false);

    expectGithubWebhook('pull-request-closed', hook.json);
    expect((hook.json as unknown as { sender: { login: string } }).sender.login).toBe('alice');
    expect(parsePullRequestWebhook(JSON.parse(hook.raw.toString('utf8')))).toEqual({
      action: 'closed',
      number,
      merged: true,
      htmlUrl: `${host.baseUrl}/${host.org}/alpha/pull/${number}`,
      repositoryFullName: `${host.org}/alpha`,
      headSha,
    });
  });

  it('reports the merged state everywhere and refuses a second merge', async () => {
    expect(await repoHost.getPullRequest(host.org, 'alpha', number)).toMatchObject({
      state: 'closed',
      merged: true,
      authorLogin: 'bob',
      mergedByLogin: 'alice',
      headSha,
      // GitHub says null once a pull request is closed.
      mergeable: null,
    });
    const got = await octokit.rest.pulls.get({ owner: host.org, repo: 'alpha', pull_number: number });
    expectGithubResponse('/repos/{owner}/{repo}/pulls/{pull_number}', 'get', 200, got.data);
    expect(got.data).toMatchObject({ merged: true, commits: 1, changed_files: 1, additions: 1 });
    expect(got.data.user?.login).toBe('bob');
    expect(got.data.merged_by?.login).toBe('alice');
    expect(got.data.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    const closed = await octokit.rest.pulls.list({ owner: host.org, repo: 'alpha', state: 'closed' });
    expectGithubResponse('/repos/{owner}/{repo}/pulls', 'get', 200, closed.data);
    expect(closed.data.map((p) => p.number)).toEqual([number]);

    const again = await api('PUT', `/repos/${host.org}/alpha/pulls/${number}/merge`, {}, 'key-alice');
    expect(again.status).toBe(405);
    expectGithubResponse('/repos/{owner}/{repo}/pulls/{pull_number}/merge', 'put', 405, again.body);
    const page = await (await fetch(`${host.baseUrl}/${host.org}/alpha/pull/${number}`)).text();
    expect(page).toMatch(/class="state merged">Merged</);
  });

  it('is checked by a validator that catches a wrong shape deep inside a body', async () => {
    const got = await octokit.rest.pulls.get({ owner: host.org, repo: 'alpha', pull_number: number });
    const path = '/repos/{owner}/{repo}/pulls/{pull_number}';
    type Editable = {
      head?: unknown;
      state: unknown;
      created_at: unknown;
      base: { repo: { owner: { id: unknown } } };
    };
    const broken = (change: (pr: Editable) => void) => {
      const copy = structuredClone(got.data) as unknown as Editable;
      change(copy);
      return copy;
    };
    expect(() => expectGithubResponse(path, 'get', 200, got.data)).not.toThrow();
    expect(() =>
      expectGithubResponse(
        path,
        'get',
        200,
        broken((pr) => delete pr.head),
      ),
    ).toThrow(/head/);
    expect(() =>
      expectGithubResponse(
        path,
        'get',
        200,
        broken((pr) => (pr.base.repo.owner.id = 'one')),
      ),
    ).toThrow(/base\/repo\/owner\/id/);
    expect(() =>
      expectGithubResponse(
        path,
        'get',
        200,
        broken((pr) => (pr.state = 'merged')),
      ),
    ).toThrow(/state/);
    expect(() =>
      expectGithubResponse(
        path,
        'get',
        200,
        broken((pr) => (pr.created_at = 'yesterday')),
      ),
    ).toThrow(/created_at/);
  });

  it('refuses to merge a conflicting pull request (405) and a moved head (409)', async () => {
    await pushBranch('alpha', 'left', { 'README.md': 'left\n' });
    await pushBranch('alpha', 'right', { 'README.md': 'right\n' });
    const left = await octokit.rest.pulls.create({
      owner: host.org,
      repo: 'alpha',
      title: 'L',
      head: 'left',
      base: 'main',
    });
    const right = await octokit.rest.pulls.create({
      owner: host.org,
      repo: 'alpha',
      title: 'R',
      head: 'right',
      base: 'main',
    });

    const stale = await api(
      'PUT',
      `/repos/${host.org}/alpha/pulls/${left.data.number}/merge`,
      { sha: '0'.repeat(40) },
      'key-alice',
    );
    expect(stale.status).toBe(409);
    expectGithubResponse('/repos/{owner}/{repo}/pulls/{pull_number}/merge', 'put', 409, stale.body);

    await founderOctokit.rest.pulls.merge({
      owner: host.org,
      repo: 'alpha',
      pull_number: left.data.number,
      merge_method: 'squash',
    });
    const conflicted = await octokit.rest.pulls.get({
      owner: host.org,
      repo: 'alpha',
      pull_number: right.data.number,
    });
    expect(conflicted.data).toMatchObject({ mergeable: false, mergeable_state: 'dirty', state: 'open' });
    const refused = await api(
      'PUT',
      `/repos/${host.org}/alpha/pulls/${right.data.number}/merge`,
      {},
      'key-alice',
    );
    expect(refused.status).toBe(405);
    expect(refused.body.message).toBe('Pull Request is not mergeable');
    expect(await repoHost.getPullRequest(host.org, 'alpha', right.data.number)).toMatchObject({
      state: 'open',
      merged: false,
    });
  });

  it('GithubHost.mergePullRequest: merges as the platform at the head given, a merged one is done, a stale head or a conflict is 409 not_mergeable', async () => {
    const dir = await pushBranch('alpha', 'platform-merge', { 'platform.txt': 'one\n' });
    const sha = await git(dir, 'rev-parse', 'HEAD');
    const a = await octokit.rest.pulls.create({
      owner: host.org,
      repo: 'alpha',
      title: 'P',
      head: 'platform-merge',
      base: 'main',
    });
    await pushBranch('alpha', 'platform-clash', { 'platform.txt': 'two\n' });
    const b = await octokit.rest.pulls.create({
      owner: host.org,
      repo: 'alpha',
      title: 'Q',
      head: 'platform-clash',
      base: 'main',
    });
    const notMergeable = { name: 'AppError', code: 'not_mergeable', status: 409 };
    await expect(
      repoHost.mergePullRequest(host.org, 'alpha', a.data.number, { sha: '0'.repeat(40) }),
    ).rejects.toMatchObject(notMergeable);
    expect(await repoHost.getPullRequest(host.org, 'alpha', a.data.number)).toMatchObject({ merged: false });
    await repoHost.mergePullRequest(host.org, 'alpha', a.data.number, { sha });
    expect(await repoHost.getPullRequest(host.org, 'alpha', a.data.number)).toMatchObject({
      state: 'closed',
      merged: true,
    });
    // A retry after a lost answer: merged already, so done.
    await repoHost.mergePullRequest(host.org, 'alpha', a.data.number, { sha });
    await expect(
      repoHost.mergePullRequest(host.org, 'alpha', b.data.number, { sha: null }),
    ).rejects.toMatchObject(notMergeable);
    await expect(repoHost.mergePullRequest(host.org, 'alpha', 99_999, { sha: null })).rejects.toMatchObject(
      notMergeable,
    );
  });

  it('closes without merging: closed, not merged, webhook with merged false', async () => {
    const pr = await octokit.rest.pulls.list({ owner: host.org, repo: 'alpha', head: `${host.org}:right` });
    const n = pr.data[0]?.number ?? 0;
    const res = await octokit.rest.pulls.update({
      owner: host.org,
      repo: 'alpha',
      pull_number: n,
      state: 'closed',
    });
    expectGithubResponse('/repos/{owner}/{repo}/pulls/{pull_number}', 'patch', 200, res.data);
    expect(await repoHost.getPullRequest(host.org, 'alpha', n)).toMatchObject({
      state: 'closed',
      merged: false,
    });
    const hook = await waitForDelivery((d) => d.json.action === 'closed' && d.json.pull_request.number === n);
    expect(repoHost.verifyWebhook(hook.raw, hook.headers['x-hub-signature-256'] as string)).toBe(true);
    expect(parsePullRequestWebhook(hook.json)).toMatchObject({ action: 'closed', merged: false, number: n });
    const page = await (await fetch(`${host.baseUrl}/${host.org}/alpha/pull/${n}`)).text();
    expect(page).toMatch(/class="state closed">Closed</);
  });

  it('keeps repositories and pull requests across a restart on the same data directory', async () => {
    const again = await startLocalRepoHost({
      dataDir: join(tmp, 'data'),
      port: 0,
      webhook: { url: null, secret: SECRET },
      platformToken: PLATFORM,
    });
    try {
      const other = new GithubHost({ ...hostOptions(), apiUrl: again.apiUrl });
      expect(await other.getPullRequest(again.org, 'alpha', number)).toMatchObject({
        state: 'closed',
        merged: true,
      });
      expect((await other.ensureRepository('alpha', repoOptions('proj-alpha'))).created).toBe(false);
    } finally {
      await again.stop();
    }
  });
});

describe('webhook delivery', () => {
  it('retries a failed delivery with the same delivery id and signature', async () => {
    const attempts: Delivery[] = [];
    const flaky = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        attempts.push({ headers: req.headers, raw, json: JSON.parse(raw.toString('utf8')) });
        res.writeHead(attempts.length === 1 ? 503 : 204).end();
      });
    });
    await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', r));
    host.setWebhookUrl(`http://127.0.0.1:${(flaky.address() as AddressInfo).port}/hook`);
    try {
      await pushBranch('beta', 'retry-me', { 'retry.txt': 'again\n' });
      await octokit.rest.pulls.create({
        owner: host.org,
        repo: 'beta',
        title: 'Retry',
        head: 'retry-me',
        base: 'main',
      });
      for (let i = 0; i < 200 && attempts.length < 2; i++) await new Promise((r) => setTimeout(r, 25));
      expect(attempts).toHaveLength(2);
      const [first, second] = attempts as [Delivery, Delivery];
      expect(second.headers['x-github-delivery']).toBe(first.headers['x-github-delivery']);
      expect(second.raw.equals(first.raw)).toBe(true);
      expect(repoHost.verifyWebhook(second.raw, second.headers['x-hub-signature-256'] as string)).toBe(true);
      expect(second.json.action).toBe('opened');
    } finally {
      host.setWebhookUrl(receiverUrl);
      await new Promise((r) => flaky.close(r));
    }
  });
});

describe('GithubHost against a misbehaving host', () => {
  let bad: Server;
  let badUrl: string;
  let answer: { status: number; body: string } = { status: 200, body: '{}' };

  beforeAll(async () => {
    bad = createServer((_req, res) => {
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
    await new Promise<void>((r) => bad.listen(0, '127.0.0.1', r));
    badUrl = `http://127.0.0.1:${(bad.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => bad.close(r)));

  const expectUpstream = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('upstream_error');
    expect((err as AppError).status).toBe(502);
    return err as AppError;
  };

  it('turns malformed answers, error statuses and an unreachable host into upstream_error', async () => {
    const gh = new GithubHost({ ...hostOptions(), apiUrl: badUrl, token: 'secret-token-value' });
    answer = { status: 201, body: '{"full_name": 42}' };
    await expectUpstream(gh.ensureRepository('x', repoOptions('proj-x')));
    answer = { status: 200, body: '{"number": 1, "state": "weird", "html_url": "http://h/p/1"}' };
    await expectUpstream(gh.getPullRequest('o', 'r', 1));
    answer = { status: 500, body: '{"message": "boom"}' };
    const err = await expectUpstream(gh.getPullRequest('o', 'r', 1));
    expect(err.message).not.toContain('secret-token-value');
    answer = {
      status: 422,
      body: '{"message": "Repository creation failed.", "errors": [{"code": "custom"}]}',
    };
    await expectUpstream(gh.ensureRepository('x', repoOptions('proj-x')));

    const closedPort = new GithubHost({ ...hostOptions(), apiUrl: 'http://127.0.0.1:1' });
    await expectUpstream(closedPort.getPullRequest('o', 'r', 1));
  });
});

function hostOptions() {
  return {
    kind: 'local' as const,
    apiUrl: host.apiUrl,
    org: host.org,
    token: PLATFORM,
    webhookSecret: SECRET,
  };
}
