import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRepoHost, startLocalRepoHost } from '../src/dev/local-repo-host/server.ts';
import { GithubHost } from '../src/infra/repo-host/github-host.ts';
import { parseCommitWebhook, parsePullRequestWebhook } from '../src/infra/repo-host/repo-host.ts';
import { contributorGitEnv } from './helpers/git.ts';
import { expectGithubResponse, expectGithubWebhook } from './helpers/github-openapi.ts';

/**
 * What the founder's review reads from the built-in repository host: a pull request's head commit
 * and mergeability, its files with their patches, and its commit statuses (posted by the author
 * of the pull request or the founder, combined as GitHub combines them), with the `status` and
 * `pull_request` `synchronize` webhooks. Every body is checked against GitHub's OpenAPI
 * description, and GithubHost must read back exactly what git holds.
 */

const run = promisify(execFile);
const SECRET = 'checks-webhook-secret';
const PLATFORM = 'platform-token-for-checks';
/** alice founds the repository, bob contributes, carol is another agent. */
const KEYS = new Map([
  ['key-alice', 'alice'],
  ['key-bob', 'bob'],
  ['key-carol', 'carol'],
]);
const REPO = 'checks';
const BRANCH = 'feature/checks';

type Json = Record<string, unknown>;

interface Delivery {
  event: string;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
  json: Json;
}

let tmp: string;
let host: LocalRepoHost;
let repoHost: GithubHost;
let receiver: Server;
const deliveries: Delivery[] = [];
let founderDir: string;
let bobDir: string;
let number: number;
let headSha: string;

const envs = {} as Record<'alice' | 'bob', NodeJS.ProcessEnv>;

async function git(who: 'alice' | 'bob', cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, env: envs[who], maxBuffer: 16 * 1024 * 1024 });
  return stdout.replace(/\n$/, '');
}

async function api(method: string, path: string, body?: unknown, key: string | null = 'key-bob') {
  const res = await fetch(`${host.apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
}

async function waitFor(pred: (d: Delivery) => boolean): Promise<Delivery> {
  for (let i = 0; i < 200; i++) {
    const found = deliveries.find(pred);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no such webhook delivery arrived');
}

const repoPath = `/repos/marketplace/${REPO}`;
const statusPath = (sha: string) => `${repoPath}/statuses/${sha}`;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'local-host-checks-'));
  envs.alice = contributorGitEnv(tmp, 'Alice', 'key-alice');
  envs.bob = contributorGitEnv(tmp, 'Bob', 'key-bob');
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const event = String(req.headers['x-github-event']);
      deliveries.push({ event, headers: req.headers, raw, json: JSON.parse(raw.toString('utf8')) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  host = await startLocalRepoHost({
    dataDir: join(tmp, 'data'),
    port: 0,
    webhook: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, secret: SECRET },
    webhookRetryDelaysMs: [50],
    platformToken: PLATFORM,
  });
  host.setAuthenticator(async (key) => KEYS.get(key) ?? null);
  repoHost = new GithubHost({
    kind: 'local',
    apiUrl: host.apiUrl,
    org: host.org,
    token: PLATFORM,
    webhookSecret: SECRET,
  });
  const repo = await repoHost.ensureRepository(REPO, {
    description: `Checks · proj-${REPO}`,
    projectId: `proj-${REPO}`,
    founderLogin: 'alice',
  });

  // The founder gives main some files to rename, delete and change.
  founderDir = mkdtempSync(join(tmp, 'alice-'));
  await git('alice', tmp, 'clone', '--quiet', repo.htmlUrl, founderDir);
  writeFileSync(join(founderDir, 'old-name.txt'), 'one\ntwo\nthree\nfour\nfive\n');
  writeFileSync(join(founderDir, 'gone.txt'), 'to be removed\nsoon\n');
  writeFileSync(join(founderDir, 'notes.md'), 'line 1\nline 2\nline 3\n');
  await git('alice', founderDir, 'add', '-A');
  await git('alice', founderDir, 'commit', '--quiet', '-m', 'Files to work on');
  await git('alice', founderDir, 'push', '--quiet', 'origin', 'main');

  // bob's branch: a rename, a removal, a change, a new text file, a new binary, a path with a space.
  bobDir = mkdtempSync(join(tmp, 'bob-'));
  await git('bob', tmp, 'clone', '--quiet', repo.htmlUrl, bobDir);
  await git('bob', bobDir, 'checkout', '--quiet', '-b', BRANCH);
  await git('bob', bobDir, 'mv', 'old-name.txt', 'new-name.txt');
  unlinkSync(join(bobDir, 'gone.txt'));
  writeFileSync(join(bobDir, 'notes.md'), 'line 1\nline two, changed\nline 3\nline 4\n');
  writeFileSync(join(bobDir, 'hello.txt'), 'hello\nworld\n');
  writeFileSync(join(bobDir, 'logo.bin'), Buffer.from([0, 1, 2, 0, 255, 0, 10, 0]));
  writeFileSync(join(bobDir, 'with space.md'), '# spaced\n');
  await git('bob', bobDir, 'add', '-A');
  await git('bob', bobDir, 'commit', '--quiet', '-m', 'Work on checks');
  await git('bob', bobDir, 'push', '--quiet', 'origin', BRANCH);
  headSha = await git('bob', bobDir, 'rev-parse', 'HEAD');
  const octokit = new Octokit({ baseUrl: host.apiUrl, auth: 'key-bob' });
  const pr = await octokit.rest.pulls.create({
    owner: host.org,
    repo: REPO,
    title: 'Checks',
    head: BRANCH,
    base: 'main',
  });
  number = pr.data.number;
});

afterAll(async () => {
  await host?.stop();
  await new Promise((r) => receiver?.close(r));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the pull request', () => {
  it('reads its head commit, mergeability and exact diff stats through GithubHost', async () => {
    const numstat = (await git('bob', bobDir, 'diff', '--numstat', '--find-renames', 'origin/main...HEAD'))
      .split('\n')
      .map((l) => l.split('\t'));
    const pr = await repoHost.getPullRequest(host.org, REPO, number);
    expect(pr).toMatchObject({
      number,
      state: 'open',
      headRef: BRANCH,
      authorLogin: 'bob',
      headSha,
      mergeable: true,
      additions: numstat.reduce((n, [a]) => n + (Number(a) || 0), 0),
      deletions: numstat.reduce((n, [, d]) => n + (Number(d) || 0), 0),
      changedFiles: numstat.length,
    });
    expect(pr?.changedFiles).toBe(6);
  });

  it('lists its files in GitHub shape, as git diff base...head has them', async () => {
    const res = await api('GET', `${repoPath}/pulls/${number}/files`, undefined, null);
    expect(res.status).toBe(200);
    expectGithubResponse('/repos/{owner}/{repo}/pulls/{pull_number}/files', 'get', 200, res.body);
    const files = res.body as unknown as Json[];
    const byName = new Map(files.map((f) => [f.filename, f]));
    expect([...byName.keys()].sort()).toEqual(
      ['gone.txt', 'hello.txt', 'logo.bin', 'new-name.txt', 'notes.md', 'with space.md'].sort(),
    );
    expect(byName.get('new-name.txt')).toMatchObject({
      status: 'renamed',
      previous_filename: 'old-name.txt',
      additions: 0,
      deletions: 0,
      changes: 0,
    });
    expect(byName.get('new-name.txt')).not.toHaveProperty('patch');
    expect(byName.get('gone.txt')).toMatchObject({ status: 'removed', additions: 0, deletions: 2 });
    expect(byName.get('hello.txt')).toMatchObject({
      status: 'added',
      additions: 2,
      deletions: 0,
      changes: 2,
    });
    expect(byName.get('logo.bin')).toMatchObject({ status: 'added', additions: 0, deletions: 0 });
    expect(byName.get('logo.bin')).not.toHaveProperty('patch');
    expect(byName.get('with space.md')).toMatchObject({ status: 'added', additions: 1 });
    expect(String(byName.get('with space.md')?.blob_url)).toContain('with%20space.md');
    // The patch is git's hunks for the file, from the first @@ line, without a final newline.
    const notes = await git('bob', bobDir, 'diff', 'origin/main...HEAD', '--', 'notes.md');
    expect(byName.get('notes.md')).toMatchObject({
      status: 'modified',
      additions: 2,
      deletions: 1,
      changes: 3,
      patch: notes.slice(notes.indexOf('@@')),
    });
    expect(byName.get('hello.txt')?.patch).toBe('@@ -0,0 +1,2 @@\n+hello\n+world');
    expect(byName.get('hello.txt')?.sha).toBe(await git('bob', bobDir, 'rev-parse', 'HEAD:hello.txt'));

    const page = await api('GET', `${repoPath}/pulls/${number}/files?per_page=4&page=2`, undefined, null);
    expect((page.body as unknown as Json[]).map((f) => f.filename)).toEqual(
      files.slice(4).map((f) => f.filename),
    );
    expect((await api('GET', `${repoPath}/pulls/99/files`, undefined, null)).status).toBe(404);

    expect(await repoHost.listPullRequestFiles(host.org, REPO, number)).toEqual(
      files.map((f) => ({
        filename: f.filename,
        status: f.status,
        additions: f.additions,
        deletions: f.deletions,
        patch: f.patch ?? null,
      })),
    );
  });
});

describe('commit statuses', () => {
  it('lets the author of the pull request post on its head: 201, GitHub shape, context "default"', async () => {
    const octokit = new Octokit({ baseUrl: host.apiUrl, auth: 'key-bob' });
    const res = await octokit.rest.repos.createCommitStatus({
      owner: host.org,
      repo: REPO,
      sha: headSha,
      state: 'pending',
      description: 'Tests are running',
      target_url: 'https://ci.example.test/runs/1',
    });
    expect(res.status).toBe(201);
    expectGithubResponse('/repos/{owner}/{repo}/statuses/{sha}', 'post', 201, res.data);
    expect(res.data).toMatchObject({
      state: 'pending',
      context: 'default',
      description: 'Tests are running',
      target_url: 'https://ci.example.test/runs/1',
    });
    expect(res.data.creator?.login).toBe('bob');
    expect(res.headers.location).toBe(`${host.apiUrl}${statusPath(headSha)}`);

    const hook = await waitFor((d) => d.event === 'status' && d.json.id === res.data.id);
    expect(repoHost.verifyWebhook(hook.raw, hook.headers['x-hub-signature-256'] as string)).toBe(true);
    expect(
      repoHost.verifyWebhook(Buffer.from(`${hook.raw} `), hook.headers['x-hub-signature-256'] as string),
    ).toBe(false);
    expectGithubWebhook('status', hook.json);
    expect(hook.json).toMatchObject({
      sha: headSha,
      state: 'pending',
      context: 'default',
      description: 'Tests are running',
      target_url: 'https://ci.example.test/runs/1',
      name: `${host.org}/${REPO}`,
      repository: { full_name: `${host.org}/${REPO}` },
      sender: { login: 'bob' },
      branches: [{ name: BRANCH, commit: { sha: headSha }, protected: false }],
    });
    expect((hook.json.commit as { commit: { message: string } }).commit.message).toBe('Work on checks');
    expect(parseCommitWebhook('status', hook.json)).toEqual({
      repositoryFullName: `${host.org}/${REPO}`,
      sha: headSha,
    });
  });

  it('lets the founder post on any commit', async () => {
    for (const [state, context] of [
      ['success', 'ci/build'],
      ['success', 'default'],
    ] as const) {
      const res = await api('POST', statusPath(headSha), { state, context }, 'key-alice');
      expect(res.status).toBe(201);
      expect((res.body.creator as Json).login).toBe('alice');
    }
    const main = await git('alice', founderDir, 'rev-parse', 'HEAD');
    expect(
      (await api('POST', statusPath(main), { state: 'failure', context: 'ci/main' }, 'key-alice')).status,
    ).toBe(201);
    // The platform (the service itself) too.
    expect(
      (await api('POST', statusPath(main), { state: 'success', context: 'ci/platform' }, PLATFORM)).status,
    ).toBe(201);
  });

  it('refuses anyone else (403), a commit not the head of their pull request (403), and anonymous posts (401)', async () => {
    const main = await git('alice', founderDir, 'rev-parse', 'HEAD');
    const stranger = await api('POST', statusPath(headSha), { state: 'success' }, 'key-carol');
    expect(stranger.status).toBe(403);
    expect(stranger.body).toMatchObject({ status: '403', documentation_url: expect.any(String) });
    expect(String(stranger.body.message)).toContain('author of an open pull request');
    expect((await api('POST', statusPath(main), { state: 'success' }, 'key-bob')).status).toBe(403);
    expect((await api('POST', statusPath(headSha), { state: 'success' }, null)).status).toBe(401);
    expect((await api('POST', statusPath(headSha), { state: 'success' }, 'key-of-nobody')).status).toBe(401);
  });

  it('answers 422 for an unknown commit and for invalid fields, storing nothing', async () => {
    const unknown = await api('POST', statusPath('0123456789'.repeat(4)), { state: 'success' }, 'key-alice');
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe(`No commit found for SHA: ${'0123456789'.repeat(4)}`);
    expect((await api('POST', statusPath('main'), { state: 'success' }, 'key-alice')).status).toBe(422);
    for (const body of [
      {},
      { state: 'passed' },
      { state: 'success', context: 7 },
      { state: 'success', context: '  ' },
      { state: 'success', context: 'ci\u0000x' },
      { state: 'success', description: ['x'] },
      { state: 'success', target_url: 'javascript:alert(1)' },
      { state: 'success', target_url: 'not a url' },
    ]) {
      const res = await api('POST', statusPath(headSha), body, 'key-bob');
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ message: expect.any(String), errors: expect.any(Array) });
    }
    const combined = await api('GET', `${repoPath}/commits/${headSha}/status`, undefined, null);
    expect(combined.body.total_count).toBe(2);
  });

  it('combines the latest status of each context, by sha or by branch (GitHub shape)', async () => {
    const bySha = await api('GET', `${repoPath}/commits/${headSha}/status`, undefined, null);
    expect(bySha.status).toBe(200);
    expectGithubResponse('/repos/{owner}/{repo}/commits/{ref}/status', 'get', 200, bySha.body);
    expect(bySha.body).toMatchObject({ state: 'success', sha: headSha, total_count: 2 });
    const contexts = (bySha.body.statuses as Json[]).map((s) => [s.context, s.state]);
    expect(contexts.sort()).toEqual([
      ['ci/build', 'success'],
      ['default', 'success'],
    ]);
    for (const ref of [encodeURIComponent(BRANCH), BRANCH]) {
      const byBranch = await api('GET', `${repoPath}/commits/${ref}/status`, undefined, null);
      expect(byBranch.status, ref).toBe(200);
      expect(byBranch.body).toMatchObject({ sha: headSha, total_count: 2 });
    }
    const main = await api('GET', `${repoPath}/commits/main/status`, undefined, null);
    expect(main.body).toMatchObject({ state: 'failure', total_count: 2 });
    expect((await api('GET', `${repoPath}/commits/no-such-branch/status`, undefined, null)).status).toBe(404);
    expect((await api('GET', `${repoPath}/commits/${'f'.repeat(40)}/status`, undefined, null)).status).toBe(
      404,
    );
    expect((await api('GET', `/repos/marketplace/nope/commits/main/status`, undefined, null)).status).toBe(
      404,
    );

    const runs = await api('GET', `${repoPath}/commits/${headSha}/check-runs`, undefined, null);
    expectGithubResponse('/repos/{owner}/{repo}/commits/{ref}/check-runs', 'get', 200, runs.body);
    expect(runs.body).toEqual({ total_count: 0, check_runs: [] });
  });

  it('sums the checks through GithubHost as the combined status has them', async () => {
    expect(await repoHost.getChecks(host.org, REPO, headSha)).toEqual({
      state: 'success',
      total: 2,
      failed: 0,
    });
    await api('POST', statusPath(headSha), { state: 'pending', context: 'ci/lint' }, 'key-bob');
    expect(await repoHost.getChecks(host.org, REPO, headSha)).toEqual({
      state: 'pending',
      total: 3,
      failed: 0,
    });
    await api('POST', statusPath(headSha), { state: 'error', context: 'CI/LINT' }, 'key-alice');
    expect(await repoHost.getChecks(host.org, REPO, headSha)).toEqual({
      state: 'failure',
      total: 3,
      failed: 1,
    });
    const initial = (await git('alice', founderDir, 'rev-list', '--max-parents=0', 'HEAD')).trim();
    expect(await repoHost.getChecks(host.org, REPO, initial)).toEqual({ state: 'none', total: 0, failed: 0 });
  });

  it('shows the head commit and its checks on the pull request page, escaped', async () => {
    await api(
      'POST',
      statusPath(headSha),
      {
        state: 'success',
        context: 'ci/<docs>',
        description: 'built & <published>',
        target_url: 'https://ci.example.test/d',
      },
      'key-alice',
    );
    const page = await (await fetch(`${host.baseUrl}/${host.org}/${REPO}/pull/${number}`)).text();
    expect(page).toContain(headSha);
    expect(page).toContain('<code>ci/&lt;docs&gt;</code> built &amp; &lt;published&gt;');
    expect(page).toContain('<a href="https://ci.example.test/d" rel="nofollow noopener">details</a>');
    expect(page).toMatch(/<span class="error">error<\/span> <code>CI\/LINT<\/code>/);
    expect(page).not.toContain('<docs>');
  });
});

describe('pushing to the head branch', () => {
  it('sends a signed pull_request synchronize webhook and moves the head; its old statuses stay behind', async () => {
    writeFileSync(join(bobDir, 'hello.txt'), 'hello\nworld\nagain\n');
    await git('bob', bobDir, 'commit', '--quiet', '-am', 'More work');
    await git('bob', bobDir, 'push', '--quiet', 'origin', BRANCH);
    const after = await git('bob', bobDir, 'rev-parse', 'HEAD');
    const hook = await waitFor((d) => d.event === 'pull_request' && d.json.action === 'synchronize');
    expect(repoHost.verifyWebhook(hook.raw, hook.headers['x-hub-signature-256'] as string)).toBe(true);
    expectGithubWebhook('pull-request-synchronize', hook.json);
    expect(hook.json).toMatchObject({ number, before: headSha, after, sender: { login: 'bob' } });
    expect(parsePullRequestWebhook(hook.json)).toMatchObject({
      action: 'synchronize',
      number,
      headSha: after,
    });

    // notes.md +2, hello.txt +3 (one line more), with space.md +1.
    expect(await repoHost.getPullRequest(host.org, REPO, number)).toMatchObject({
      headSha: after,
      additions: 6,
    });
    expect(await repoHost.getChecks(host.org, REPO, after)).toEqual({ state: 'none', total: 0, failed: 0 });
    // bob's old head is no longer his pull request's: he may not set its statuses any more.
    expect((await api('POST', statusPath(headSha), { state: 'success' }, 'key-bob')).status).toBe(403);
    expect((await api('POST', statusPath(after), { state: 'success' }, 'key-bob')).status).toBe(201);
    headSha = after;
  });

  it('sends nothing for a push to a branch that heads no open pull request', async () => {
    const unrelated = await git('bob', bobDir, 'rev-parse', 'HEAD');
    await git('bob', bobDir, 'push', '--quiet', 'origin', 'HEAD:unrelated');
    // A push the service does see (the head branch again), so the one before had its chance.
    writeFileSync(join(bobDir, 'hello.txt'), 'hello\n');
    await git('bob', bobDir, 'commit', '--quiet', '-am', 'Less work');
    await git('bob', bobDir, 'push', '--quiet', 'origin', BRANCH);
    const tip = await git('bob', bobDir, 'rev-parse', 'HEAD');
    await waitFor((d) => d.event === 'pull_request' && d.json.after === tip);
    const syncs = deliveries.filter((d) => d.event === 'pull_request' && d.json.action === 'synchronize');
    // The first is the push of the test before, of the same commit as `unrelated`.
    expect(syncs.map((d) => d.json.after)).toEqual([unrelated, tip]);
  });

  it('reports a head that conflicts with the base as not mergeable', async () => {
    writeFileSync(join(founderDir, 'notes.md'), 'line 1\nline TWO by the founder\nline 3\n');
    await git('alice', founderDir, 'commit', '--quiet', '-am', 'Founder edits notes');
    await git('alice', founderDir, 'push', '--quiet', 'origin', 'main');
    expect(await repoHost.getPullRequest(host.org, REPO, number)).toMatchObject({ mergeable: false });
  });

  it('keeps statuses across a restart on the same data directory', async () => {
    const again = await startLocalRepoHost({
      dataDir: join(tmp, 'data'),
      port: 0,
      webhook: { url: null, secret: SECRET },
      platformToken: PLATFORM,
    });
    try {
      const other = new GithubHost({
        kind: 'local',
        apiUrl: again.apiUrl,
        org: again.org,
        token: PLATFORM,
        webhookSecret: SECRET,
      });
      const before = await repoHost.getChecks(host.org, REPO, headSha);
      expect(before.total).toBeGreaterThan(0);
      expect(await other.getChecks(again.org, REPO, headSha)).toEqual(before);
    } finally {
      await again.stop();
    }
  });
});
