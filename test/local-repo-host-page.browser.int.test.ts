import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type LocalRepoHost, startLocalRepoHost } from '../src/dev/local-repo-host/server.ts';
import { GithubHost } from '../src/infra/repo-host/github-host.ts';
import {
  checkA11y,
  describeBrowser,
  launchBrowser,
  openPage,
  PHONE_WIDTH,
  screenshot,
} from './helpers/browser.ts';
import { contributorGitEnv } from './helpers/git.ts';

/**
 * The built-in host's pull request page in Chromium: it fits a 390 px phone (long branch names,
 * SHAs, file names and patch lines wrap instead of widening the page), passes axe, and the
 * founder, signed in with a marketplace ticket, merges with its button.
 */

const run = promisify(execFile);
const PLATFORM = 'platform-token-for-browser-page';
const LONG = `bounty-bnt_${'5e'.repeat(16)}-and-a-branch-name-that-goes-on-without-a-single-break`;

let tmp: string;
let host: LocalRepoHost;
let browser: Browser;
let pageUrl: string;

async function setUp() {
  tmp = mkdtempSync(join(tmpdir(), 'host-page-browser-'));
  const env = contributorGitEnv(tmp, 'Test Contributor', 'key-bob');
  const git = async (cwd: string, ...args: string[]) => (await run('git', args, { cwd, env })).stdout.trim();
  host = await startLocalRepoHost({
    dataDir: join(tmp, 'data'),
    webhook: { url: null, secret: 'browser-page-secret' },
    platformToken: PLATFORM,
    marketplaceUrl: 'http://marketplace.test',
  });
  host.setAuthenticator(async (key) => ({ 'key-alice': 'alice', 'key-bob': 'bob' })[key] ?? null);
  await new GithubHost({
    kind: 'local',
    apiUrl: host.apiUrl,
    org: host.org,
    token: PLATFORM,
    webhookSecret: 'browser-page-secret',
  }).ensureRepository('phone', {
    description: 'Phone · proj-phone',
    projectId: 'proj-phone',
    founderLogin: 'alice',
  });
  const dir = mkdtempSync(join(tmp, 'work-'));
  await git(tmp, 'clone', '--quiet', `${host.baseUrl}/${host.org}/phone`, dir);
  await git(dir, 'checkout', '--quiet', '-b', LONG);
  writeFileSync(
    join(dir, `${'a-file-name-without-breaks'.repeat(4)}.ts`),
    `export const line = '${'x'.repeat(400)}';\n`,
  );
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '--quiet', '-m', `A subject ${'withoutspaces'.repeat(12)}`);
  await git(dir, 'push', '--quiet', 'origin', LONG);
  const res = await fetch(`${host.apiUrl}/repos/${host.org}/phone/pulls`, {
    method: 'POST',
    headers: { authorization: 'token key-bob', 'content-type': 'application/json' },
    body: JSON.stringify({
      title: `A title ${'long'.repeat(30)}`,
      head: LONG,
      base: 'main',
      body: `See https://example.test/${'p'.repeat(300)}\nThanks.`,
    }),
  });
  expect(res.status).toBe(201);
  pageUrl = `${host.baseUrl}/${host.org}/phone/pull/${((await res.json()) as { number: number }).number}`;
  browser = await launchBrowser();
}

describeBrowser('the local host pull request page in a browser', () => {
  beforeAll(setUp);
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('fits a 390 px phone, passes axe, and merges from the founder button', async () => {
    // The marketplace sends a signed-in founder here with a ticket; the host keeps its own session.
    const ticket = host.issueTicket('alice');
    const path = new URL(pageUrl).pathname;
    const { page, errors } = await openPage(
      browser,
      `${host.baseUrl}/-/sign-in?ticket=${ticket}&to=${encodeURIComponent(path)}`,
      { width: PHONE_WIDTH },
    );
    expect(page.url()).toBe(pageUrl);
    await page.getByText('Signed in as').waitFor();
    const widths = await page.evaluate(() => {
      const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } })
        .document;
      return d.documentElement.scrollWidth;
    });
    expect(widths).toBeLessThanOrEqual(PHONE_WIDTH);
    expect(await checkA11y(page)).toEqual([]);
    await screenshot(page, 'local-host-pull-request');
    await page.getByRole('button', { name: 'Merge pull request' }).click();
    await page.waitForURL(pageUrl);
    await page.getByText('Merged by alice').waitFor();
    expect(await page.getByRole('button', { name: 'Merge pull request' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
