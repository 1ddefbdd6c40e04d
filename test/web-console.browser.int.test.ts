import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeBrowser,
  launchBrowser,
  type OpenedPage,
  startWebApp,
  type WebApp,
} from './helpers/browser.ts';
import { signedInTab as signIn } from './helpers/browser-session.ts';
import {
  expectFlash,
  pageChecker,
  press,
  openPullRequest as pullRequest,
} from './helpers/console-browser.ts';

/**
 * A founder and a contributor through the whole flow in real Chromium, only through pages, on
 * the product as `npm start` runs it (anvil with the factory, the local repository host, in-app
 * wallets). Registration and the git work (push, open the pull request) are not pages: the test
 * does those as an agent would. Every console page is checked for script errors and with axe,
 * and screenshotted at desktop and phone width. The sign-in page alone:
 * web-console-sign-in.browser.int.test.ts.
 */

let web: WebApp;
let browser: Browser;
let tmp: string;
let founderKey: string;
let devKey: string;
let founderTab: OpenedPage;
let devTab: OpenedPage;
const check = pageChecker();
let prCount = 0;
/** The contributor's work, as an agent does it (test/helpers/console-browser.ts). */
const openPullRequest = (title: string) => pullRequest(web, tmp, devKey, ++prCount, title);

async function register(name: string): Promise<string> {
  const res = await fetch(`${web.base}/api/agents/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { agent: { api_key: string } }).agent.api_key;
}

const signedInTab = (key: string) => signIn(browser, web.base, key);

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'console-browser-'));
  web = await startWebApp({ real: true });
  browser = await launchBrowser();
  const suffix = Date.now().toString(36).slice(-6);
  [founderKey, devKey] = await Promise.all([register(`founder-${suffix}`), register(`dev-${suffix}`)]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describeBrowser('the console in a browser', () => {
  it('founder: create, activate, faucet, buy, allowance, post two bounties', async () => {
    founderTab = await signedInTab(founderKey);
    const page = founderTab.page;
    const [session] = (await page.context().cookies()).filter((c) => c.name === 'bm_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.value).not.toContain(founderKey);
    // Nothing a script could read: the only cookie is HttpOnly.
    expect(await page.evaluate('document.cookie')).toBe('');
    await check(page, 'overview-founder');

    await page.goto(`${web.base}/console/projects`);
    await page.getByLabel('Name', { exact: true }).fill('Browser Project');
    await page.getByLabel('Token symbol').fill('BRWS');
    await press(page, '#create-project', 'Create project');
    await expectFlash(page, 'Browser Project');
    // Activation deploys on anvil: the progress page follows it and comes back when done.
    // Activating cannot be undone: it asks first.
    await page.locator('summary', { hasText: 'Activate' }).click();
    await page.getByRole('button', { name: 'Confirm: activate Browser Project' }).click();
    await expectFlash(page, 'is active');
    expect(page.url()).toBe(`${web.base}/console/projects`);

    await press(page, '#faucet', 'Get 1 test ETH (dev chain faucet)');
    await expectFlash(page, 'faucet sent');
    // Buying and the allowance move money: each asks first.
    await page.locator('summary', { hasText: 'Buy BRWS' }).click();
    await page.getByLabel('Buy BRWS with ETH').fill('0.9');
    await press(page, 'form[id^="buy-"]', 'Confirm: buy BRWS');
    await expectFlash(page, /Bought [0-9.,]+ BRWS for 0\.9 ETH/);
    await page.locator('summary', { hasText: 'Set the allowance' }).click();
    await page.getByLabel('Payout allowance (whole tokens)').fill('1000');
    await press(page, 'form[id^="allowance-"]', 'Confirm: set the allowance');
    await expectFlash(page, 'Allowance set to 1,000 BRWS');
    await expect.poll(() => page.locator('.funds dd').nth(1).textContent()).toBe('1,000 BRWS');

    for (const title of ['Write the greeting', 'Translate the greeting']) {
      await page.locator('details.post-bounty summary').click();
      const form = page.locator('form[id^="bounty-"]');
      await form.getByLabel('Title').fill(title);
      await form.getByLabel('Description').fill(`${title}, please.`);
      await form.getByLabel('Reward (whole BRWS)').fill('100');
      await form.getByLabel('Difficulty').selectOption('easy');
      await press(page, 'form[id^="bounty-"]', 'Post bounty');
      await expectFlash(page, title);
    }
    await check(page, 'projects');
    expect(founderTab.errors).toEqual([]);
  }, 120_000);

  it('CSRF: a tampered hidden field is refused with 403 and changes nothing', async () => {
    const page = founderTab.page;
    await page.goto(`${web.base}/console/projects`);
    await page.evaluate(`document.querySelector('#create-project input[name="_csrf"]').value = 'tampered'`);
    await page.getByLabel('Name', { exact: true }).fill('Forged Project');
    await page.getByLabel('Token symbol').fill('FORGED');
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/console/projects') && r.request().method() === 'POST'),
      page.locator('#create-project').getByRole('button', { name: 'Create project' }).click(),
    ]);
    expect(res.status()).toBe(403);
    await page.goto(`${web.base}/console/projects`);
    expect(await page.content()).not.toContain('Forged Project');
  }, 120_000);

  it('contributor: claims, pushes and opens a PR with git, submits it from the console', async () => {
    devTab = await signedInTab(devKey);
    const page = devTab.page;
    await press(page, 'li.claimable:has-text("Write the greeting")', 'Claim Write the greeting');
    await expectFlash(page, 'You claimed');
    await expect
      .poll(() => page.locator('.time-left').first().textContent())
      .toMatch(/Time left: (2 d 23 h|3 d 0 h)/);
    await check(page, 'overview-contributor');

    // Not a page: the agent's own git work, with its key, on the local host.
    const prUrl = await openPullRequest('Write the greeting');
    await page.getByLabel('Pull request URL').fill(prUrl);
    await press(page, 'form[id^="submit-"]', 'Submit for review');
    await expectFlash(page, 'submitted');
    expect(devTab.errors).toEqual([]);
  }, 120_000);

  it('founder: the review queue shows the report and the diff; approve (confirmed) pays with two transactions', async () => {
    const page = founderTab.page;
    await page.goto(`${web.base}/console/reviews`);
    await expect.poll(() => page.locator('.diffstat').first().textContent()).toMatch(/\+1\s*−0\s*in 1 file/);
    // The diff as the local host reads it from git: the pushed file, line by line.
    expect(await page.locator('.diff-file-head').first().textContent()).toMatch(
      /work-1\.txt\s+added\s+\+1\s+−0/,
    );
    expect(await page.locator('.dl-add').first().textContent()).toBe('1+Write the greeting');
    expect(await page.locator('.checks').first().textContent()).toBe('no checks');
    await check(page, 'reviews-queue');
    // Approving asks first: the confirmation names what it pays.
    await page.locator('summary', { hasText: 'Approve and pay' }).click();
    await page.getByLabel('Notes for the contributor').fill('Lovely greeting');
    await press(page, 'form[id^="approve-"]', 'Confirm: approve and pay 95 BRWS');
    // Merged on the host first (the console's default), then one router transaction, named once.
    const message = await expectFlash(page, 'Merged, approved and paid');
    const hashes = [...message.matchAll(/0x[0-9a-f]{64}/g)].map((m) => m[0]);
    expect(hashes).toHaveLength(1);
    await expect.poll(() => page.locator('.status-confirmed').count()).toBe(1);
    await check(page, 'reviews-paid');

    // The public board and bounty page show it paid, with its transaction.
    await page.goto(`${web.base}/?status=done`);
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('link', { name: 'Write the greeting' }).first().click(),
    ]);
    const html = await page.content();
    for (const h of hashes) expect(html).toContain(h);
    expect(founderTab.errors).toEqual([]);
  }, 120_000);

  it('reject with notes: the contributor reads them in the console', async () => {
    const dev = devTab.page;
    await dev.goto(`${web.base}/console`);
    await press(dev, 'li.claimable:has-text("Translate the greeting")', 'Claim Translate the greeting');
    const prUrl = await openPullRequest('Translate the greeting');
    await dev.getByLabel('Pull request URL').fill(prUrl);
    await press(dev, 'form[id^="submit-"]', 'Submit for review');

    const page = founderTab.page;
    await page.goto(`${web.base}/console/reviews`);
    await page.locator('summary', { hasText: 'Reject' }).click();
    await page.getByLabel('Why it is rejected').fill('Needs a French version too');
    await press(page, 'form[id^="reject-"]', 'Confirm: reject');
    await expectFlash(page, 'Rejected');

    await dev.goto(`${web.base}/console`);
    expect(await dev.getByRole('table', { name: 'Your submissions, newest first' }).textContent()).toContain(
      'Needs a French version too',
    );
    const earning = dev.locator('tr[id^="earning-"]').first();
    expect(await earning.textContent()).toMatch(/Earned\s+95 BRWS/);
    await check(dev, 'overview-contributor-paid');
    expect(devTab.errors).toEqual([]);
  }, 120_000);

  it('contributor: earnings with their worth now, "Sell all" after a confirmation, no ETH needed', async () => {
    const page = devTab.page;
    await page.goto(`${web.base}/console`);
    const row = page.locator('tr[id^="earning-"]').first();
    // Held now and what it sells for: the contributor's wallet has never held ETH.
    expect(await row.locator('td').nth(1).textContent()).toMatch(/(^|\s)95 BRWS$/);
    expect(await row.locator('td').nth(2).textContent()).toMatch(/(^|\s)≈ 0\.[0-9]+ ETH$/);
    expect(await row.locator('td').nth(2).locator('[title]').getAttribute('title')).toMatch(
      /^0\.[0-9]+ ETH$/,
    );
    const text = await page.locator('main').textContent();
    expect(text).not.toMatch(/faucet/i);

    // The confirmation is closed until "Sell all" opens it; it names the amount and its worth.
    const confirm = row.locator('form.sell-confirm button[type="submit"]');
    expect(await confirm.isVisible()).toBe(false);
    await row.locator('summary', { hasText: 'Sell all' }).click();
    expect(await confirm.textContent()).toMatch(/^Confirm: sell 95 BRWS for ≈ 0\.[0-9]+ ETH$/);
    await check(page, 'overview-contributor-sell-confirm');

    // A double click is one request; while it runs the button says so and is disabled. What the
    // page showed at each submit is kept in sessionStorage, which outlives the navigation.
    let posts = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/console\/projects\/[^/]+\/sell$/.test(r.url())) posts += 1;
    });
    await page.evaluate(`document.addEventListener('submit', (e) => {
      const log = (entry) => sessionStorage.setItem('submits',
        JSON.stringify([...JSON.parse(sessionStorage.getItem('submits') || '[]'), entry]));
      const button = e.target.querySelector('button[type="submit"]');
      const status = e.target.querySelector('[data-pending-status]');
      log({ prevented: e.defaultPrevented, text: button.textContent, status: status && status.textContent });
      setTimeout(() => log({ disabled: button.disabled }), 0);
    })`);
    await confirm.dblclick();
    const flash = await expectFlash(
      page,
      /Sold 95 BRWS: you received 0\.[0-9]+ ETH after 0\.[0-9]+ ETH of gas, which the platform paid and took back from the sale \(no ETH needed\)/,
    );
    expect(posts).toBe(1);
    const submits = JSON.parse(String(await page.evaluate(`sessionStorage.getItem('submits')`))) as Record<
      string,
      unknown
    >[];
    expect(submits[0]).toEqual({ prevented: false, text: 'Selling 95 BRWS…', status: 'Selling 95 BRWS…' });
    expect(submits).toContainEqual({ disabled: true });
    // A second submit that got through before the button was disabled was stopped in the page.
    for (const s of submits.slice(1)) if ('prevented' in s) expect(s.prevented).toBe(true);
    expect(flash).toMatch(/Transaction 0x[0-9a-f]{64}/);
    const after = page.locator('tr[id^="earning-"]').first();
    expect(await after.locator('td').nth(1).textContent()).toMatch(/(^|\s)0 BRWS$/);
    expect(await after.locator('summary').count()).toBe(0);
    await check(page, 'overview-contributor-sold');
    expect(devTab.errors).toEqual([]);
  }, 120_000);

  it('account page: accessible at both widths, for both roles', async () => {
    for (const tab of [founderTab, devTab]) {
      await tab.page.goto(`${web.base}/console/account`);
      await check(tab.page, tab === founderTab ? 'account' : 'account-contributor');
      expect(tab.errors).toEqual([]);
    }
  }, 120_000);
});
