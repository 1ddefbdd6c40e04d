import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gatekeeper } from '../src/dev/local-repo-host/auth.ts';
import { COMPARE_PAGE, repoPage, servePullForm } from '../src/dev/local-repo-host/pages.ts';
import { RestApi } from '../src/dev/local-repo-host/rest-api.ts';
import { RepoStore, type StoredRepo } from '../src/dev/local-repo-host/store.ts';
import { Views } from '../src/dev/local-repo-host/views.ts';
import { WebhookSender } from '../src/dev/local-repo-host/webhooks.ts';
import { contributorGitEnv } from './helpers/git.ts';

/**
 * The local repository host's "open a pull request" page (pages.ts `servePullForm`), served here
 * on its own from the host's parts: the form at GitHub's compare address, the pull request opened
 * as the agent whose key was typed in, refusals on the form, and the key never echoed back.
 */

const run = promisify(execFile);
const ORG = 'marketplace';
const BRANCH = 'bounty-bnt_demo';
let tmp: string;
let server: Server;
let base: string;
let views: Views;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'pull-form-'));
  const store = new RepoStore(join(tmp, 'repos'));
  const urls = { baseUrl: '', apiUrl: '', org: ORG };
  views = new Views(store, urls);
  const api = new RestApi(views, new WebhookSender({ url: null, secret: 'unused' }));
  const gate = new Gatekeeper('platform-token');
  gate.setAuthenticator(async (key) => (key === 'key-bob' ? 'bob' : null));
  await store.create(ORG, 'demo', 'A demo', '# demo\n');
  // Bob's branch, pushed straight into the bare repository (this suite is not about pushing).
  const env = contributorGitEnv(tmp, 'Bob');
  const work = join(tmp, 'work');
  const git = (...args: string[]) => run('git', args, { cwd: work, env });
  await run('git', ['clone', '-q', store.gitDir(ORG, 'demo'), work], { env });
  await git('checkout', '-q', '-b', BRANCH);
  writeFileSync(join(work, 'FIX.md'), 'The fix.\n');
  await git('add', '-A');
  await git('commit', '-qm', 'Fix it');
  await git('push', '-q', 'origin', BRANCH);

  server = createServer((req, res) => {
    const match = COMPARE_PAGE.exec(new URL(req.url ?? '/', 'http://x').pathname);
    if (!match) return void res.writeHead(404).end();
    servePullForm(req, res, { views, api, gate }, [...match]).catch((err: unknown) => {
      res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  urls.baseUrl = base;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  rmSync(tmp, { recursive: true, force: true });
});

const compare = `/${ORG}/demo/compare/main...${BRANCH}`;
const post = (fields: Record<string, string>) =>
  fetch(`${base}${compare}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });

describe('opening a pull request from the local host’s pages', () => {
  it('links each branch but main to the form from the repository page', async () => {
    const html = await repoPage(views, (await views.store.get(ORG, 'demo')) as StoredRepo);
    expect(html).toContain(`<code>${BRANCH}</code> <a href="${base}${compare}">New pull request</a>`);
    expect(html).not.toContain('/compare/main...main');
  });

  it('shows the form for the branch, the title taken from the address', async () => {
    const res = await fetch(`${base}${compare}?expand=1&title=Fix+the+lexer`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<input id="head" name="head" type="text" required value="${BRANCH}">`);
    expect(html).toContain('<input id="base" name="base" type="text" required value="main">');
    expect(html).toContain('value="Fix the lexer"');
    expect(html).toContain('<input id="api_key" name="api_key" type="password" required autocomplete="off"');
    const missing = await (await fetch(`${base}/${ORG}/demo/compare/main...not-pushed`)).text();
    expect(missing).toContain('There is no branch <code>not-pushed</code> here yet: push it first.');
  });

  it('refuses a missing or unknown key on the form, and never echoes the key', async () => {
    const fields = { head: BRANCH, base: 'main', title: 'Fix', body: '' };
    for (const api_key of ['', 'key-nobody']) {
      const res = await post({ ...fields, api_key });
      expect(res.status).toBe(401);
      const html = await res.text();
      expect(html).toContain('That API key is not valid: check it and try again.');
      expect(html).not.toContain('key-nobody');
    }
    expect((await views.store.get(ORG, 'demo'))?.pulls).toEqual([]);
  });

  it('opens the pull request as the key’s agent and goes to its page; a second one is refused', async () => {
    const fields = {
      head: BRANCH,
      base: 'main',
      title: 'Fix the lexer',
      body: 'For the bounty.',
      api_key: 'key-bob',
    };
    const res = await post(fields);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${base}/${ORG}/demo/pull/1`);
    const pull = (await views.store.get(ORG, 'demo'))?.pulls[0];
    expect(pull).toMatchObject({
      number: 1,
      head: BRANCH,
      base: 'main',
      title: 'Fix the lexer',
      authorLogin: 'bob',
    });

    const again = await post(fields);
    expect(again.status).toBe(422);
    const html = await again.text();
    expect(html).toContain(`A pull request already exists for ${ORG}:${BRANCH}.`);
    expect(html).not.toContain('key-bob');
    expect(html).toContain('value="Fix the lexer"');
  });
});
