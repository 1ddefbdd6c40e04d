import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  checkA11y,
  describeBrowser,
  launchBrowser,
  type OpenedPage,
  openPage,
  screenshot,
  startWebApp,
  type WebApp,
} from './helpers/browser.ts';
import { contributorGitEnv } from './helpers/git.ts';

/**
 * A new person's first bounty in real headless Chromium, on the product as `npm start` runs it
 * (anvil with the factory, the local repository host, in-app wallets): from the board to the
 * bounty, to sign-up (the key shown once, copied with the button), back to the bounty, the claim,
 * and this bounty's steps; then the steps themselves, as the page words them: clone, branch, push
 * with the key, open the pull request at the page's link, submit it with the page's form. The
 * founder approves (by API, as an agent would) and the open page shows the payment by itself,
 * without a reload. No script errors, axe-core clean on every page of ours on the way.
 */

const run = promisify(execFile);

/** The page's clipboard (the DOM's types are not part of this build). */
const clipboardText = () =>
  (
    globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
  ).navigator.clipboard.readText();

let web: WebApp;
let browser: Browser;
let tmp: string;
let founderKey: string;
let bountyId: string;
let repoUrl: string;
let tab: OpenedPage;
/** The person's API key, as sign-up showed it. */
let key: string;
const opened: OpenedPage[] = [];

/** A JSON call to the API with an agent's key, as an agent makes it; the answer's body. */
async function api(method: string, path: string, apiKey: string | null, body?: unknown, status = 200) {
  const res = await fetch(`${web.base}${path}`, {
    method,
    headers: {
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text.slice(0, 300)}`).toBe(status);
  return JSON.parse(text) as Record<string, Record<string, unknown>>;
}

describeBrowser('a new person claims a bounty from the web', () => {
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'journey-'));
    [web, browser] = await Promise.all([startWebApp({ real: true }), launchBrowser()]);
    // The founder, through the API: an active project (a repository on the local host, a token
    // on anvil), tokens bought with test ETH, the platform allowed to pay rewards from them.
    founderKey = (await api('POST', '/api/agents/register', null, { name: 'Founder Hopper' }, 201)).agent
      ?.api_key as string;
    const created = (
      await api('POST', '/api/projects', founderKey, { name: 'Lexer Works', token_symbol: 'LEX' }, 201)
    ).project as { id: string };
    const project = (await api('POST', `/api/projects/${created.id}/activate`, founderKey)).project as {
      id: string;
      repo_url: string;
    };
    repoUrl = project.repo_url;
    await api('POST', '/api/dev/faucet', founderKey, {});
    await api('POST', `/api/projects/${project.id}/buy`, founderKey, {
      eth_units: (9n * 10n ** 17n).toString(),
    });
    await api('POST', `/api/projects/${project.id}/allowance`, founderKey, { amount: 1000 });
    const bounty = (
      await api(
        'POST',
        `/api/projects/${project.id}/bounties`,
        founderKey,
        {
          title: 'Handle tabs in the lexer',
          description: 'Tabs break the column count; add a test.',
          reward_amount: 100,
          difficulty: 'easy',
        },
        201,
      )
    ).bounty as { id: string };
    bountyId = bounty.id;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await web?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('goes from the board to sign-up, sees the key once, claims and sees the steps', async () => {
    tab = await openPage(browser, `${web.base}/`);
    opened.push(tab);
    const { page } = tab;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.base });

    // The board, then the bounty: a visitor is asked to sign in or create an agent.
    await Promise.all([
      page.waitForURL(`**/bounties/${bountyId}`),
      page.getByRole('link', { name: 'Handle tabs in the lexer' }).click(),
    ]);
    const invite = page.locator('#next-step');
    expect(await invite.innerText()).toContain('Sign in or create an agent to claim it.');
    expect(await page.getByRole('link', { name: repoUrl }).count()).toBe(1);
    expect(await checkA11y(page)).toEqual([]);

    // Sign-up: a mistake first, shown on the form with the rule.
    await Promise.all([
      page.waitForURL(/\/sign-up\?next=/),
      invite.getByRole('link', { name: 'Create an agent' }).click(),
    ]);
    expect(await checkA11y(page)).toEqual([]);
    await page.getByLabel('Name').fill('x');
    await page.getByRole('button', { name: 'Create my agent' }).click();
    await page.locator('#name-error').waitFor();
    expect(await page.locator('#name-error').innerText()).toContain('Use 2 to 64 characters');
    expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(await checkA11y(page)).toEqual([]);

    await page.getByLabel('Name').fill('Journey Person');
    await page.getByLabel('Description (optional)').fill('Learns by fixing lexers.');
    await page.getByRole('button', { name: 'Create my agent' }).click();
    await page.getByRole('heading', { name: 'Your agent is ready' }).waitFor();
    key = await page.getByLabel('API key').inputValue();
    expect(key).toMatch(/^bmk_/);
    expect(await page.locator('main').innerText()).toContain('it will not be shown again');
    await page.getByRole('button', { name: 'Copy the key' }).click();
    await expect.poll(() => page.locator('.copy-status').innerText()).toBe('Copied.');
    expect(await page.evaluate(clipboardText)).toBe(key);
    expect(await page.locator('.site-header').innerText()).toContain('Signed in as Journey Person');
    expect(await checkA11y(page)).toEqual([]);
    await screenshot(page, 'sign-up-key');

    // Back to the bounty, signed in: claim it (the button says it is working, once).
    await Promise.all([
      page.waitForURL(`**/bounties/${bountyId}`),
      page.getByRole('link', { name: 'Continue where you were' }).click(),
    ]);
    const claim = page.getByRole('button', { name: 'Claim this bounty' });
    await Promise.all([page.waitForURL(`**/bounties/${bountyId}#next-step`), claim.click()]);
    await page.getByRole('heading', { name: 'You claimed this bounty: next steps' }).waitFor();
    const steps = await page.locator('#next-step').innerText();
    expect(await page.getByRole('status').first().innerText()).toContain(
      'You claimed “Handle tabs in the lexer”.',
    );
    expect(steps).toContain(`git clone ${repoUrl}`);
    expect(steps).toContain(`git checkout -b bounty-${bountyId}`);
    expect(steps).toContain('<your API key>');
    expect(await page.content()).not.toContain(key);
    expect(await page.getByRole('link', { name: 'Open a pull request' }).getAttribute('href')).toContain(
      `${repoUrl}/compare/main...bounty-${bountyId}`,
    );
    expect(await page.getByLabel('Pull request address').getAttribute('placeholder')).toBeNull();
    expect(await page.getByLabel('Pull request address').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Copy the push command' }).click();
    expect(await page.evaluate(clipboardText)).toContain("BOUNTY_API_KEY='<your API key>' git");
    expect((await web.app.services.bounties.get(bountyId)).status).toBe('claimed');
    expect(await checkA11y(page)).toEqual([]);
    await screenshot(page, 'bounty-claimed');
  }, 120_000);

  it('follows the steps: clone, push with the key, open the pull request, submit; sees the payment live', async () => {
    const { page } = tab;
    const command = (id: string) => page.locator(`#${id}`).innerText();
    // The page's own commands, run as the person would paste them (the key put in for its
    // placeholder), in a shell of its own: its own HOME, no credential helper configured.
    const env = contributorGitEnv(tmp, 'Journey Person');
    const sh = (line: string, cwd: string) => run('sh', ['-c', line], { cwd, env });
    const clone = await command('cmd-clone');
    expect(clone).toBe(`git clone ${repoUrl}`);
    await sh(clone, tmp);
    await sh(await command('cmd-branch'), tmp);
    const work = join(tmp, repoUrl.split('/').pop() as string);
    writeFileSync(join(work, 'tabs.txt'), 'A tab is as wide as the next multiple of eight.\n');
    await sh('git add -A && git commit --quiet -m "Handle tabs in the lexer"', work);
    const push = await command('cmd-push');
    expect(push).toContain('<your API key>');
    await sh(push.replace('<your API key>', key), work);
    const { stdout: branches } = await run('git', ['ls-remote', '--heads', 'origin'], { cwd: work, env });
    expect(branches).toContain(`refs/heads/bounty-${bountyId}`);

    // The page's link opens the host's new pull request form for this branch; the key opens it.
    await Promise.all([
      page.waitForURL(/\/compare\//),
      page.getByRole('link', { name: 'Open a pull request' }).click(),
    ]);
    expect(await page.getByLabel('From branch (head)').inputValue()).toBe(`bounty-${bountyId}`);
    expect(await page.getByLabel('Title').inputValue()).toBe('Handle tabs in the lexer');
    await page.getByLabel('Your marketplace API key').fill(key);
    await Promise.all([
      page.waitForURL(/\/pull\/\d+$/),
      page.getByRole('button', { name: 'Open pull request' }).click(),
    ]);
    const prUrl = page.url();
    expect(prUrl.startsWith(`${repoUrl}/pull/`)).toBe(true);

    // Back on the bounty: submit it with the page's form.
    await page.goto(`${web.base}/bounties/${bountyId}`);
    await page.getByLabel('Pull request address').fill(prUrl);
    await Promise.all([
      page.waitForURL(`**/bounties/${bountyId}#next-step`),
      page.getByRole('button', { name: 'Submit for review' }).click(),
    ]);
    await page.getByRole('heading', { name: 'Your pull request is in review' }).waitFor();
    expect(await page.locator('.head-marks .status').innerText()).toBe('In review');
    expect(await checkA11y(page)).toEqual([]);

    // The page follows the bounty: once its stream is open, the founder approves (by API).
    await page.locator('#live-status[data-live="connected"]').waitFor({ state: 'attached' });
    await page.evaluate('window.journeyMarker = "same page"');
    await api('POST', `/api/bounties/${bountyId}/approve`, founderKey, {});
    const paid = page.locator('.paid-amounts');
    await expect.poll(() => paid.count(), { timeout: 60_000 }).toBe(1);
    expect(await paid.innerText()).toBe('95 LEX to Journey Person, 5 LEX platform fee.');
    // No reload: the script's marker is still there, and the status says what changed.
    expect(await page.evaluate('window.journeyMarker')).toBe('same page');
    expect(await page.locator('#live-status').innerText()).toMatch(
      /^This bounty updated \(\d+ changes?\): Done\.$/,
    );
    expect(await page.locator('.head-marks .status').innerText()).toBe('Done');
    expect(await page.locator('#next-step').count()).toBe(0);
    const txs = await page.locator('.payout').innerText();
    expect(txs).toMatch(/One transaction paid the contributor's share and the platform fee: 0x[0-9a-f]{64}/);
    expect(await checkA11y(page)).toEqual([]);
    await screenshot(page, 'bounty-paid-live');
  }, 180_000);

  it('signs out from the header of a public page, and every page shows it at once', async () => {
    const { page } = tab;
    await page.goto(`${web.base}/`);
    expect(await page.locator('.site-header').textContent()).toContain('Signed in as Journey Person');
    await Promise.all([
      page.waitForURL(`${web.base}/`),
      page.getByRole('button', { name: 'Sign out' }).click(),
    ]);
    // The board and the bounty page had this session kept (recent-sessions.ts): signing out drops it.
    for (const path of ['/', `/bounties/${bountyId}`]) {
      await page.goto(`${web.base}${path}`);
      const header = await page.locator('.site-header').textContent();
      expect(header).not.toContain('Signed in as');
      expect(header).toContain('Sign in');
    }
    await screenshot(page, 'signed-out-bounty');
  }, 60_000);

  it('logged no script error on any page', () => {
    // The local repository host (a development stand-in for GitHub, not this site) has no
    // favicon: Chromium's own request for it on the host's pull request form is no error of ours.
    const hostFavicon = `(${web.localHost?.baseUrl}/favicon.ico)`;
    const errors = opened.flatMap((o) => o.errors).filter((e) => !e.endsWith(hostFavicon));
    expect(errors).toEqual([]);
  });
});
