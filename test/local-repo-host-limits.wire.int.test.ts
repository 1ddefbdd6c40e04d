import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRepoHost } from '../src/dev/local-repo-host/server.ts';
import type { GithubHost } from '../src/infra/repo-host/github-host.ts';
import { repositoryDescription } from '../src/modules/projects/activation.service.ts';
import { buildTestApp } from './helpers/app.ts';
import { contributorGitEnv } from './helpers/git.ts';
import { expectGithubResponse } from './helpers/github-openapi.ts';
import { localHostWithClient } from './helpers/local-host.ts';

/**
 * The built-in repository host's limits: the app's security headers on every answer, writes that
 * refuse control characters in any string field (422 in GitHub's shape, nothing stored), and
 * `GET /rate_limit` as GitHub answers it (what the readiness probe asks).
 */

const run = promisify(execFile);
const PLATFORM = 'platform-token-for-limits';
const KEYS = new Map([
  ['key-alice', 'alice'],
  ['key-bob', 'bob'],
]);

let tmp: string;
let host: LocalRepoHost;
let repoHost: GithubHost;

type Json = Record<string, unknown>;

/** The host's REST API as bob (a contributor) unless another key, or null (anonymous), is given. */
async function api(method: string, path: string, body?: unknown, key: string | null = 'key-bob') {
  const res = await fetch(`${host.apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `token ${key}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
}

/** A new repository founded by alice, with bob's branch `work` one commit ahead of `main`. */
async function repoWithBranch(name: string): Promise<string> {
  await repoHost.ensureRepository(name, {
    description: `Limits · proj-${name}`,
    projectId: `proj-${name}`,
    founderLogin: 'alice',
  });
  const env = contributorGitEnv(tmp, 'Bob', 'key-bob');
  const dir = mkdtempSync(join(tmp, 'work-'));
  const git = (...args: string[]) => run('git', args, { cwd: dir, env });
  await git('clone', '--quiet', `${host.baseUrl}/${host.org}/${name}`, '.');
  await git('checkout', '--quiet', '-b', 'work');
  writeFileSync(join(dir, 'change.txt'), 'a change\n');
  await git('add', '-A');
  await git('commit', '--quiet', '-m', 'A change');
  await git('push', '--quiet', 'origin', 'work');
  return name;
}

const pullsOf = async (repo: string) =>
  (await api('GET', `/repos/${host.org}/${repo}/pulls?state=all`, undefined, null)).body as unknown as Json[];

/** Asserts a 422 in GitHub's `validation-error` shape naming `fields`. */
function expectRefused(
  res: { status: number; body: Json },
  op: [path: string, method: string],
  resource: string,
  fields: string[],
): void {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expectGithubResponse(op[0], op[1], 422, res.body);
  expect(res.body.message).toBe('Validation Failed');
  const errors = res.body.errors as { resource: string; field: string; code: string; message: string }[];
  expect(errors.map((e) => e.field).sort()).toEqual([...fields].sort());
  for (const e of errors) {
    expect(e.resource).toBe(resource);
    expect(e.message).toMatch(/control characters are not allowed \(U\+[0-9A-F]{4}\)/);
  }
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'local-repo-host-limits-'));
  ({ host, client: repoHost } = await localHostWithClient(
    {
      dataDir: join(tmp, 'data'),
      host: '127.0.0.1',
      port: 0,
      webhook: { url: null, secret: 'limits-secret' },
      platformToken: PLATFORM,
    },
    KEYS,
  ));
});

afterAll(async () => {
  await host?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

describe('security headers', () => {
  const expectSecured = (headers: Headers, what: string) => {
    const csp = headers.get('content-security-policy');
    expect(csp, what).toContain("frame-ancestors 'none'");
    expect(csp, what).toContain("default-src 'self'");
    expect(csp, what).toContain("script-src 'self'");
    expect(headers.get('x-frame-options'), what).toBe('SAMEORIGIN');
    expect(headers.get('x-content-type-options'), what).toBe('nosniff');
    expect(headers.get('referrer-policy'), what).toBe('no-referrer');
  };

  it("are the app's own page headers, from one object", async () => {
    const app = await buildTestApp();
    const appPage = await app.app.inject({ method: 'GET', url: '/sign-in' });
    await app.close();
    expect(appPage.headers['content-type']).toMatch(/^text\/html/);
    const res = await fetch(`${host.baseUrl}/`);
    for (const name of [
      'content-security-policy',
      'x-frame-options',
      'x-content-type-options',
      'referrer-policy',
    ])
      expect(res.headers.get(name), name).toBe(appPage.headers[name]);
    expectSecured(res.headers, 'the index page');
  });

  it('are on every page, JSON answer and git answer', async () => {
    const repo = await repoWithBranch('headers');
    const opened = await api('POST', `/repos/${host.org}/${repo}/pulls`, {
      title: 'A <b>bold</b> change',
      head: 'work',
      base: 'main',
    });
    expect(opened.status).toBe(201);

    const pages = ['/', `/${host.org}/${repo}`, `/${host.org}/${repo}/pull/1`, '/nobody/nothing'];
    for (const path of pages) {
      const res = await fetch(`${host.baseUrl}${path}`);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      expectSecured(res.headers, path);
      // The policy refuses inline styles: the pages link their stylesheet, which is served.
      const html = await res.text();
      expect(html, path).not.toContain('<style');
      expect(html, path).toContain('<link rel="stylesheet" href="/-/style.css">');
    }
    const css = await fetch(`${host.baseUrl}/-/style.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expectSecured(css.headers, 'the stylesheet');
    expect(await css.text()).toContain('.merged{');

    for (const path of [`/repos/${host.org}/${repo}/pulls/1`, '/rate_limit', '/nothing-here']) {
      const res = await api('GET', path, undefined, null);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expectSecured(res.headers, path);
    }
    const refused = await api('POST', `/repos/${host.org}/${repo}/pulls`, { title: 'x' }, null);
    expect(refused.status).toBe(401);
    expectSecured(refused.headers, 'a refused write');

    const refs = await fetch(`${host.baseUrl}/${host.org}/${repo}.git/info/refs?service=git-upload-pack`);
    expect(refs.status).toBe(200);
    expectSecured(refs.headers, 'git info/refs');
  });
});

describe('idle connections', () => {
  it('stay open past 5 s, as Fastify keeps them (72 s), so a client reusing one is not reset', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ port: number | undefined; keepAlive: unknown }>((resolve, reject) => {
        const req = request(`${host.apiUrl}/rate_limit`, { agent }, (res) => {
          res.resume();
          res.once('end', () =>
            resolve({ port: req.socket?.localPort, keepAlive: res.headers['keep-alive'] }),
          );
        });
        req.once('error', reject).end();
      });
    try {
      const first = await get();
      expect(first.keepAlive).toBe('timeout=72');
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      const second = await get();
      expect(second.port, 'the same connection, not a new one').toBe(first.port);
    } finally {
      agent.destroy();
    }
  });
});

describe('control characters in writes', () => {
  const PULLS: [string, string] = ['/repos/{owner}/{repo}/pulls', 'post'];

  it('refuses NUL in a pull request title or body with 422, creating nothing', async () => {
    const repo = await repoWithBranch('nul-pulls');
    const path = `/repos/${host.org}/${repo}/pulls`;
    const valid = { title: 'Add a change', body: 'Fixes it.', head: 'work', base: 'main' };

    expectRefused(await api('POST', path, { ...valid, title: 'Add\u0000 a change' }), PULLS, 'PullRequest', [
      'title',
    ]);
    expectRefused(await api('POST', path, { ...valid, body: 'Fixes\u0000 it.' }), PULLS, 'PullRequest', [
      'body',
    ]);
    expectRefused(
      await api('POST', path, { ...valid, title: '\u0000', body: '\u0000' }),
      PULLS,
      'PullRequest',
      ['title', 'body'],
    );
    expect(await pullsOf(repo)).toEqual([]);
    const page = await fetch(`${host.baseUrl}/${host.org}/${repo}/pull/1`);
    expect(page.status).toBe(404);

    // The same pull request without it is opened, as the first one: nothing was half-made.
    const opened = await api('POST', path, valid);
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    expect(opened.body.number).toBe(1);
    expect(await pullsOf(repo)).toHaveLength(1);
  });

  it('refuses other control characters; multi-line text keeps tab and line breaks', async () => {
    const repo = await repoWithBranch('c0-pulls');
    const path = `/repos/${host.org}/${repo}/pulls`;
    const valid = { title: 'Add a change', head: 'work', base: 'main' };

    for (const c of ['\u0001', '\u0007', '\u001b', '\u001f', '\u007f', '\n', '\t', '\r'])
      expectRefused(await api('POST', path, { ...valid, title: `Add${c}it` }), PULLS, 'PullRequest', [
        'title',
      ]);
    for (const c of ['\u0008', '\u000b', '\u000c', '\u001b', '\u007f'])
      expectRefused(await api('POST', path, { ...valid, body: `A${c}B` }), PULLS, 'PullRequest', ['body']);
    // Branch names, and fields the host does not read, are strings it refuses too.
    expectRefused(await api('POST', path, { ...valid, head: 'wo\u0000rk' }), PULLS, 'PullRequest', ['head']);
    expectRefused(await api('POST', path, { ...valid, base: 'ma\u0000in' }), PULLS, 'PullRequest', ['base']);
    expectRefused(
      await api('POST', path, { ...valid, labels: ['ok', 'b\u0000d'], extra: { note: '\u0002' } }),
      PULLS,
      'PullRequest',
      ['labels[1]', 'extra.note'],
    );
    expect(await pullsOf(repo)).toEqual([]);

    const body = 'Line one\r\nLine two\n\tindented, ünïcode ✓';
    const opened = await api('POST', path, { ...valid, body });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    expect(opened.body.body).toBe(body);
  });

  it('refuses them when a pull request is edited or merged, changing nothing', async () => {
    const repo = await repoWithBranch('c0-edits');
    const path = `/repos/${host.org}/${repo}/pulls`;
    const opened = await api('POST', path, {
      title: 'Original',
      body: 'Original body',
      head: 'work',
      base: 'main',
    });
    expect(opened.status).toBe(201);

    const patch: [string, string] = ['/repos/{owner}/{repo}/pulls/{pull_number}', 'patch'];
    expectRefused(await api('PATCH', `${path}/1`, { title: 'New\u0000' }), patch, 'PullRequest', ['title']);
    expectRefused(await api('PATCH', `${path}/1`, { body: 'New\u0000' }), patch, 'PullRequest', ['body']);
    expectRefused(
      await api('PATCH', `${path}/1`, { title: 'Fine', state: 'closed', base: 'main\u0000' }),
      patch,
      'PullRequest',
      ['base'],
    );
    const unchanged = await api('GET', `${path}/1`, undefined, null);
    expect(unchanged.body).toMatchObject({ title: 'Original', body: 'Original body', state: 'open' });

    const merge: [string, string] = ['/repos/{owner}/{repo}/pulls/{pull_number}/merge', 'put'];
    for (const field of ['commit_title', 'commit_message', 'sha'])
      expectRefused(
        await api('PUT', `${path}/1/merge`, { [field]: 'x\u0000y' }, 'key-alice'),
        merge,
        'PullRequest',
        [field],
      );
    expect((await api('GET', `${path}/1`, undefined, null)).body).toMatchObject({
      merged: false,
      state: 'open',
    });
    const merged = await api('PUT', `${path}/1/merge`, { commit_message: 'Line one\nLine two' }, 'key-alice');
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
  });

  it('refuses them in repository names, descriptions and collaborator roles', async () => {
    const create: [string, string] = ['/orgs/{org}/repos', 'post'];
    const repos = `/orgs/${host.org}/repos`;
    expectRefused(await api('POST', repos, { name: 'nul\u0000name' }, PLATFORM), create, 'Repository', [
      'name',
    ]);
    expectRefused(
      await api('POST', repos, { name: 'nul-description', description: 'A\u0000B' }, PLATFORM),
      create,
      'Repository',
      ['description'],
    );
    // Nothing was created; a NUL in a path segment is a bad request (400), never a lookup.
    for (const name of ['nul-name', 'nul-description', 'nul\u0000name'])
      expect(
        (await api('GET', `/repos/${host.org}/${encodeURIComponent(name)}`, undefined, null)).status,
      ).toBe(name.includes('\u0000') ? 400 : 404);

    await repoWithBranch('c0-roles');
    const grant = await api(
      'PUT',
      `/repos/${host.org}/c0-roles/collaborators/bob`,
      { permission: 'push\u0000' },
      PLATFORM,
    );
    expect(grant.status, JSON.stringify(grant.body)).toBe(422);
    expect(grant.body.errors).toEqual([
      expect.objectContaining({ resource: 'Repository', field: 'permission' }),
    ]);
    // bob did not become a maintainer: the founder's rule still stops his merge.
    const opened = await api('POST', `/repos/${host.org}/c0-roles/pulls`, {
      title: 'T',
      head: 'work',
      base: 'main',
    });
    expect(opened.status).toBe(201);
    expect((await api('PUT', `/repos/${host.org}/c0-roles/pulls/1/merge`, {})).status).toBe(403);
  });

  it('keeps a project whose description has control characters activatable: the service drops them', async () => {
    const project = {
      id: 'proj-bell',
      name: 'Bell',
      description: 'Rings\u0007 a\u0000bell\r\n\tloudly\u007f\u0085.',
    };
    const description = repositoryDescription(project);
    expect(description).toBe('Rings a bell loudly . · proj-bell');
    const repo = await repoHost.ensureRepository('bell', {
      description,
      projectId: project.id,
      founderLogin: 'alice',
    });
    expect(repo).toMatchObject({ created: true, description });
  });

  it('answers 404, not a failure, to a path segment that is not valid percent-encoding', async () => {
    const res = await api('GET', `/repos/${host.org}/%E0%A4%A/pulls`, undefined, null);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Not Found');
  });
});

describe('GET /rate_limit', () => {
  it("answers as GitHub does, anonymous or authenticated: the readiness probe's route", async () => {
    for (const key of [null, 'key-bob', PLATFORM]) {
      const res = await api('GET', '/rate_limit', undefined, key);
      expect(res.status).toBe(200);
      expectGithubResponse('/rate_limit', 'get', 200, res.body);
      const core = (res.body.resources as Record<string, Json>).core as Json;
      expect(core.remaining).toBe(core.limit);
      expect(core.reset as number).toBeGreaterThan(Date.now() / 1000);
    }
    await expect(repoHost.ping()).resolves.toBeUndefined();
  });
});
