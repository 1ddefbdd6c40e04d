import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRepoHost } from '../src/dev/local-repo-host/server.ts';
import { contributorGitEnv } from './helpers/git.ts';
import { localHostWithClient } from './helpers/local-host.ts';

/**
 * The built-in host's pull request page, read by a person: what it shows (escaped), who is signed
 * in (a ticket from the marketplace, never the API key), and the founder's merge button, which
 * merges exactly as the REST API does (base moved, signed webhook sent).
 */

const run = promisify(execFile);
const PLATFORM = 'platform-token-for-page-tests';
const MARKETPLACE = 'http://marketplace.test';
const KEYS = new Map([
  ['key-alice', 'alice'],
  ['key-bob', 'bob'],
]);
const BOUNTY = `bnt_${'0a'.repeat(16)}`;
const BRANCH = `bounty-${BOUNTY}`;
const BODY = 'Fixes the greeting.\n<script>alert("body")</script>\nSecond line';

let tmp: string;
let gitEnv: NodeJS.ProcessEnv;
let host: LocalRepoHost;
let receiver: Server;
const deliveries: { action: string; pull_request: { number: number; merged: boolean } }[] = [];
let pageUrl: string;
let headSha: string;

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, env: gitEnv });
  return stdout.trim();
}

async function api(method: string, path: string, body: unknown, key: string) {
  const res = await fetch(`${host.apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `token ${key}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A session cookie of the host's pages for `login`, through a ticket as the marketplace gets one. */
async function signIn(login: string): Promise<string> {
  const ticket = host.issueTicket(login);
  const res = await fetch(`${host.baseUrl}/-/sign-in?ticket=${ticket}&to=/x`, { redirect: 'manual' });
  expect(res.status).toBe(303);
  const cookie = res.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(/HttpOnly/);
  return cookie.split(';')[0] ?? '';
}

const page = async (cookie = '') => (await fetch(pageUrl, { headers: cookie ? { cookie } : {} })).text();
const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

function postMerge(cookie: string, fields: Record<string, string>, site = 'same-origin') {
  return fetch(`${pageUrl}/merge`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': site },
    body: new URLSearchParams(fields).toString(),
  });
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'local-host-page-'));
  gitEnv = contributorGitEnv(tmp, 'Test Contributor', 'key-bob');
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.headers['x-github-event'] === 'pull_request')
        deliveries.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const started = await localHostWithClient(
    {
      dataDir: join(tmp, 'data'),
      webhook: {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        secret: 'page-test-secret',
      },
      platformToken: PLATFORM,
      marketplaceUrl: MARKETPLACE,
    },
    KEYS,
  );
  host = started.host;
  await started.client.ensureRepository('pages', {
    description: 'A project · proj-pages',
    projectId: 'proj-pages',
    founderLogin: 'alice',
  });
  const dir = mkdtempSync(join(tmp, 'work-'));
  await git(tmp, 'clone', '--quiet', `${host.baseUrl}/${host.org}/pages`, dir);
  await git(dir, 'checkout', '--quiet', '-b', BRANCH);
  writeFileSync(join(dir, 'greet.html'), '<script>alert("patch")</script>\n');
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '--quiet', '-m', 'Greet <everyone>\n\nThe long story.');
  await git(dir, 'push', '--quiet', 'origin', BRANCH);
  headSha = await git(dir, 'rev-parse', 'HEAD');
  await git(dir, 'checkout', '--quiet', '-b', 'second');
  writeFileSync(join(dir, 'second.txt'), 'two\n');
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '--quiet', '-m', 'Second');
  await git(dir, 'push', '--quiet', 'origin', 'second');
  const pr = await api(
    'POST',
    `/repos/${host.org}/pages/pulls`,
    { title: 'Greet <everyone>', head: BRANCH, base: 'main', body: BODY },
    'key-bob',
  );
  expect(pr.status).toBe(201);
  pageUrl = `${host.baseUrl}/${host.org}/pages/pull/${pr.body.number}`;
  const status = await api(
    'POST',
    `/repos/${host.org}/pages/statuses/${headSha}`,
    { state: 'success', context: 'ci/<tests>', description: 'All green' },
    'key-alice',
  );
  expect(status.status).toBe(201);
});

afterAll(async () => {
  await host?.stop();
  await new Promise((r) => receiver?.close(r));
  rmSync(tmp, { recursive: true, force: true });
});

describe('the pull request page', () => {
  it('shows author, state, branches, description, commits, checks, files and the bounty, all escaped', async () => {
    const html = await page();
    expect(html).toContain('Greet &lt;everyone&gt;');
    expect(html).toContain('<strong>bob</strong> wants to merge 1 commit into');
    expect(html).toMatch(/class="state open">Open</);
    expect(html).toContain(`title="${BRANCH}">${BRANCH}</code>`);
    // The description: the marketplace's Markdown (raw HTML shown as text), line breaks kept.
    expect(html).toContain(
      '<div class="md"><p>Fixes the greeting.<br>\n&lt;script&gt;alert(&quot;body&quot;)&lt;/script&gt;<br>\nSecond line</p>',
    );
    expect(html).toContain(
      `<code class="sha" title="${headSha}">${headSha.slice(0, 7)}</code> Greet &lt;everyone&gt; <small>by Test Contributor</small>`,
    );
    expect(html).not.toContain('The long story');
    expect(html).toContain('<code>ci/&lt;tests&gt;</code> All green · by alice');
    expect(html).toContain('<code>greet.html</code> <span class="diff-file-status">added</span>');
    expect(html).toContain('<code>+&lt;script&gt;alert(&quot;patch&quot;)&lt;/script&gt;</code>');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(`href="${MARKETPLACE}/bounties/${BOUNTY}"`);
    // Anonymous: no button, and a way to sign in through the marketplace.
    expect(html).not.toContain('Merge pull request</button>');
    expect(html).toContain(`href="${MARKETPLACE}/repo-host/sign-in?to=${encodeURIComponent(pageUrl)}"`);
    expect(html).not.toContain('api_key');
    const files = await fetch(`${pageUrl}/files`);
    expect(files.status).toBe(200);
    expect(await files.text()).toContain('<code>greet.html</code>');
  });

  it('signs in with a one-use ticket and sends the browser only to a path of this host', async () => {
    const ticket = host.issueTicket('bob');
    const first = await fetch(`${host.baseUrl}/-/sign-in?ticket=${ticket}&to=//evil.test/x`, {
      redirect: 'manual',
    });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    const again = await fetch(`${host.baseUrl}/-/sign-in?ticket=${ticket}`, { redirect: 'manual' });
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
    const forged = await page('local_host_session=made-up');
    expect(forged).not.toContain('Signed in as');
  });

  it('signs out from its own page only', async () => {
    const bob = await signIn('bob');
    const csrf = csrfOf(await page(bob));
    const out = (fields: Record<string, string>, site: string) =>
      fetch(`${host.baseUrl}/-/sign-out`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: bob, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': site },
        body: new URLSearchParams(fields),
      });
    expect((await out({ _csrf: csrf }, 'cross-site')).status).toBe(403);
    expect(await page(bob)).toContain('Signed in as <strong>bob</strong>');
    const res = await out({ _csrf: csrf }, 'same-origin');
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(/^local_host_session=; .*Max-Age=0/);
    expect(await page(bob)).not.toContain('Signed in as');
  });

  it('shows the merge button to the founder only; a contributor cannot merge through the form', async () => {
    const bob = await signIn('bob');
    const bobPage = await page(bob);
    expect(bobPage).toContain('Signed in as <strong>bob</strong>');
    expect(bobPage).not.toContain('Merge pull request</button>');
    // Even with a form of its own session, the host's merge rule refuses a contributor.
    const res = await postMerge(bob, { _csrf: csrfOf(bobPage), sha: headSha });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Only the project&#39;s founder may merge');
    const alicePage = await page(await signIn('alice'));
    expect(alicePage).toContain('Merge pull request</button>');
    expect(alicePage).toContain(`name="sha" value="${headSha}"`);
  });

  it('refuses a merge form without the session, its token, or from another site', async () => {
    const alice = await signIn('alice');
    const csrf = csrfOf(await page(alice));
    expect((await postMerge('', { _csrf: csrf, sha: headSha })).status).toBe(401);
    expect((await postMerge(alice, { sha: headSha })).status).toBe(403);
    expect((await postMerge(alice, { _csrf: `${csrf}x`, sha: headSha })).status).toBe(403);
    expect((await postMerge(alice, { _csrf: csrf, sha: headSha }, 'same-site')).status).toBe(403);
    expect(await page()).toMatch(/class="state open">Open</);
  });

  it("merges from the founder's button as the REST API does: base moved, webhook sent", async () => {
    const alice = await signIn('alice');
    const before = await git(tmp, 'ls-remote', `${host.baseUrl}/${host.org}/pages`, 'refs/heads/main');
    const res = await postMerge(alice, { _csrf: csrfOf(await page(alice)), sha: headSha });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(pageUrl);
    const after = await git(tmp, 'ls-remote', `${host.baseUrl}/${host.org}/pages`, 'refs/heads/main');
    expect(after).not.toBe(before);
    const pull = (await (await fetch(`${host.apiUrl}/repos/${host.org}/pages/pulls/1`)).json()) as {
      merge_commit_sha: string;
    };
    expect(pull).toMatchObject({ merged: true, merged_by: { login: 'alice' } });
    expect(after.split('\t')[0]).toBe(pull.merge_commit_sha);
    for (let i = 0; i < 200 && !deliveries.some((d) => d.pull_request.merged); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(deliveries.find((d) => d.pull_request.merged)).toMatchObject({ action: 'closed' });
    const html = await page(alice);
    expect(html).toMatch(/class="state merged">Merged</);
    expect(html).toContain('Merged by <strong>alice</strong>');
    expect(html).not.toContain('Merge pull request</button>');
  });

  it('opens a pull request from the compare form as the signed-in person, never asking for the key', async () => {
    const bob = await signIn('bob');
    const url = `${host.baseUrl}/${host.org}/pages/compare/${BRANCH}...second`;
    const form = await (await fetch(url, { headers: { cookie: bob } })).text();
    expect(form).not.toContain('api_key');
    expect(form).toContain('opened as <strong>bob</strong>');
    const send = (csrf: string) =>
      fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie: bob,
          'content-type': 'application/x-www-form-urlencoded',
          'sec-fetch-site': 'same-origin',
        },
        body: new URLSearchParams({ head: 'second', base: BRANCH, title: 'Two', body: '', _csrf: csrf }),
      });
    expect((await send('forged')).status).toBe(403);
    const res = await send(csrfOf(form));
    expect(res.status).toBe(303);
    const number = Number(String(res.headers.get('location')).split('/').pop());
    const pull = await (await fetch(`${host.apiUrl}/repos/${host.org}/pages/pulls/${number}`)).json();
    expect(pull).toMatchObject({ title: 'Two', user: { login: 'bob' } });
  });
});
