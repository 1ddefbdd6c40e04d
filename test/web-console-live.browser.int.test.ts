import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemClock } from '../src/lib/clock.ts';
import { markProjectActive, type TestContext } from './helpers/app.ts';
import {
  checkA11y,
  describeBrowser,
  launchBrowser,
  type OpenedPage,
  screenshot,
  startWebApp,
  type WebApp,
} from './helpers/browser.ts';
import { api as apiAs, signedInTab as signIn } from './helpers/browser-session.ts';
import { activateFunded } from './helpers/builders.ts';
import type { FakeChain } from './helpers/fake-chain.ts';
import type { FakeRepoHost } from './helpers/fake-repo-host.ts';

/**
 * The console finished for people, in real Chromium: confirmations (dismissed: nothing is sent;
 * accepted: one request per double click), and live pages: the founder's review queue takes a
 * submission made through the API while it is open, keeping the confirmation the founder is
 * typing in; the contributor's My work takes the founder's review. A FakeChain and the fake
 * repository host stand in for anvil and git. Every page: axe, and no script errors.
 */

let web: WebApp;
let browser: Browser;
let host: FakeRepoHost;
let founderTab: OpenedPage;
let devTab: OpenedPage;
let founderKey: string;
let founderId: string;
let projectId: string;
let emptyId: string;
let repoUrl: string;
const devs: Registered['agent'][] = [];
const bounties: string[] = [];

type Registered = { agent: { id: string; name: string; api_key: string; repo_login: string | null } };

const api = <T>(path: string, key: string | null, body?: unknown) => apiAs<T>(web.base, path, key, body);

const signedInTab = (key: string) => signIn(browser, web.base, key);

async function accessible(tab: OpenedPage, name: string) {
  expect(await checkA11y(tab.page), `${name}: axe`).toEqual([]);
  expect(tab.errors, `${name}: script errors`).toEqual([]);
}

/** Counts the POSTs the page sends to paths matching `re` from now on. */
function countPosts(page: Page, re: RegExp) {
  let posts = 0;
  const count = (r: { method(): string; url(): string }) => {
    if (r.method() === 'POST' && re.test(new URL(r.url()).pathname)) posts += 1;
  };
  page.on('request', count);
  return () => {
    page.off('request', count);
    return posts;
  };
}

/** A contributor claims a bounty and submits a pull request for it, through the API. */
async function claimAndSubmit(dev: Registered['agent'], bountyId: string, number: number) {
  const prUrl = `${repoUrl}/pull/${number}`;
  host.setPullRequest(prUrl, { authorLogin: dev.repo_login as string, title: `Work ${number}` });
  host.setFiles('bounty-org', projectId, number, [
    {
      filename: `src/work-${number}.ts`,
      status: 'added',
      additions: 1,
      deletions: 0,
      patch: '@@ -0,0 +1 @@\n+ok',
    },
  ]);
  await api(`/api/bounties/${bountyId}/claim`, dev.api_key, {});
  await api(`/api/bounties/${bountyId}/submit`, dev.api_key, { pr_url: prUrl });
}

/** The page is live: its stream is open (console-live.js marks the status element). */
async function live(page: Page) {
  await page.waitForSelector('#live-status[data-live="connected"]', { state: 'attached', timeout: 15_000 });
}

beforeAll(async () => {
  web = await startWebApp();
  host = web.fakeHost as FakeRepoHost;
  browser = await launchBrowser();
  const chain = web.chain as FakeChain;
  const suffix = Date.now().toString(36).slice(-6);
  // The founder's wallet is in-app: the projects page offers its money forms and checklist.
  const founder = await api<Registered>('/api/agents/register', null, { name: `founder-${suffix}` });
  founderKey = founder.agent.api_key;
  founderId = founder.agent.id;
  for (const n of [1, 2]) {
    devs.push((await api<Registered>('/api/agents/register', null, { name: `dev${n}-${suffix}` })).agent);
  }
  const { project } = await api<{ project: { id: string } }>('/api/projects', founderKey, {
    name: 'Live Works',
    token_symbol: 'LIVW',
  });
  projectId = project.id;
  const founderWallet = (await web.app.services.directory.require(founder.agent.id)).walletAddress as string;
  const ctx = { app: web.app, database: web.database, clock: systemClock };
  const active = await activateFunded(ctx, chain, projectId, founderWallet, {
    funds: 5000n,
    curveSupply: 10_000,
  });
  repoUrl = active.repoUrl;
  Object.assign(chain.wallets, {
    ethBalance: async () => 10n ** 18n,
    tokenBalance: async (token: string, owner: string) => (await chain.readFunds(token, owner)).balanceUnits,
  });
  for (const title of ['First live job', 'Second live job', 'Third live job']) {
    const { bounty } = await api<{ bounty: { id: string } }>(
      `/api/projects/${projectId}/bounties`,
      founderKey,
      {
        title,
        description: `${title}, please.`,
        reward_amount: 100,
      },
    );
    bounties.push(bounty.id);
  }
  // A second project, active but not funded: its checklist has steps to do.
  const empty = await api<{ project: { id: string } }>('/api/projects', founderKey, {
    name: 'Empty Works',
    token_symbol: 'EMPW',
  });
  emptyId = empty.project.id;
  await markProjectActive({ database: web.database, clock: systemClock } as TestContext, emptyId);
  const emptyCurve = (await web.app.services.projects.require(emptyId)).curveAddress as string;
  chain.setCurve(emptyCurve, { a: 10n ** 12n, b: 1000n, supplyUnits: 0n });
  await web.app.services.holdings.refreshMissingCurves();
  await claimAndSubmit(devs[0] as Registered['agent'], bounties[0] as string, 1);
  await api('/api/agents/me/webhooks', founderKey, { url: 'http://127.0.0.1:9/live-hook' });
  founderTab = await signedInTab(founderKey);
  devTab = await signedInTab(devs[1]?.api_key as string);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
});

describeBrowser('confirmations and live pages in a browser', () => {
  it('a dismissed confirmation sends nothing: Cancel, Escape, or its summary again', async () => {
    const page = founderTab.page;
    await page.goto(`${web.base}/console/account`);
    const posts = countPosts(page, /^\/console\/rotate-key$/);
    const summary = page.locator('summary', { hasText: 'Rotate my API key' });
    const confirm = page.getByRole('button', { name: 'Confirm: rotate my API key' });
    expect(await confirm.isVisible()).toBe(false);
    await summary.click();
    expect(await confirm.isVisible()).toBe(true);
    await screenshot(page, 'console-confirm-rotate-key');
    await accessible(founderTab, 'account, confirmation open');
    // Cancel closes it and gives the focus back to what opened it.
    await page.locator('#rotate-key').getByRole('button', { name: 'Cancel' }).click();
    expect(await confirm.isVisible()).toBe(false);
    expect(await page.evaluate(`document.activeElement.id`)).toBe('rotate-key-open');
    // Escape closes it too.
    await summary.click();
    await confirm.focus();
    await page.keyboard.press('Escape');
    expect(await confirm.isVisible()).toBe(false);
    await page.waitForTimeout(300);
    expect(posts()).toBe(0);
    // Nothing changed: the key still works.
    await api('/api/agents/me', founderKey);
    expect(founderTab.errors).toEqual([]);
  }, 60_000);

  it('an accepted confirmation sends one request, even on a double click', async () => {
    const page = founderTab.page;
    await page.goto(`${web.base}/console/account`);
    const [hook] = await web.app.services.agentWebhooks.list(founderId);
    const posts = countPosts(page, /^\/console\/webhooks\/[^/]+\/delete$/);
    await page.locator(`#webhook-${hook?.id}`).locator('summary', { hasText: 'Delete' }).click();
    const confirm = page.getByRole('button', { name: 'Confirm: delete this webhook' });
    await confirm.dblclick();
    await page.waitForLoadState('load');
    await expect.poll(() => page.locator('.flash').first().textContent()).toContain('Webhook deleted');
    expect(posts()).toBe(1);
    expect(await web.app.services.agentWebhooks.list(founderId)).toEqual([]);
    await accessible(founderTab, 'account after delete');
  }, 60_000);

  it('the projects page: a checklist with each step done or not, and confirmed money forms', async () => {
    const page = founderTab.page;
    await page.goto(`${web.base}/console/projects`);
    const card = page.locator(`#project-${projectId}`);
    // Funded and allowed, with bounties posted: every step is done, folded into one line.
    expect(await card.locator('.checklist-done summary').textContent()).toContain('Ready');
    await card.locator('.checklist-done summary').click();
    for (const step of ['eth', 'buy', 'allowance', 'post'])
      expect(await card.locator(`#step-${step}-${projectId}`).getAttribute('class')).toBe('step step-done');
    expect(await card.locator('.funds dd').first().textContent()).toBe('5,000 LIVW');
    // The unfunded project: ETH is there, the rest is to do, each step linking to its form.
    const todo = page.locator(`#checklist-${emptyId}`);
    expect(await todo.locator('h4').textContent()).toMatch(/Getting started\s*\(1 of 4 done\)/);
    for (const [step, state] of [
      ['eth', 'done'],
      ['buy', 'todo'],
      ['allowance', 'todo'],
      ['post', 'todo'],
    ])
      expect(await todo.locator(`#step-${step}-${emptyId}`).getAttribute('class')).toBe(`step step-${state}`);
    // Its link opens the buying confirmation, the amount field ready.
    await todo.getByRole('link', { name: 'Buy EMPW with ETH' }).click();
    await expect
      .poll(() => page.evaluate(`document.activeElement && document.activeElement.id`))
      .toBe(`buy-${emptyId}-eth`);
    await page.locator(`#buy-${emptyId}`).getByRole('button', { name: 'Cancel' }).click();
    // "Buy LIVW…" opens a confirmation; dismissing it sends nothing.
    const posts = countPosts(page, /\/buy$/);
    await card.locator('summary', { hasText: 'Buy LIVW' }).click();
    await card.getByLabel('Buy LIVW with ETH').fill('0.5');
    await screenshot(page, 'console-projects-checklist');
    await accessible(founderTab, 'projects, buy confirmation open');
    await card.locator(`#buy-${projectId}`).getByRole('button', { name: 'Cancel' }).click();
    expect(await card.getByRole('button', { name: 'Confirm: buy LIVW' }).isVisible()).toBe(false);
    expect(posts()).toBe(0);
  }, 60_000);

  it('the review queue takes a new submission live, keeping the confirmation being typed in', async () => {
    const page = founderTab.page;
    await page.goto(`${web.base}/console/reviews`);
    await live(page);
    expect(await page.locator('article.review').count()).toBe(1);
    // The founder is writing notes in an open confirmation on the first submission.
    const first = page.locator(`#review-${bounties[0]}`);
    await first.locator('summary', { hasText: 'Request changes' }).click();
    const notes = first.getByLabel('What to change');
    await notes.fill('Half-typed notes');
    await notes.focus();
    await page.evaluate(`window.__sameDocument = true`);
    const posts = countPosts(page, /^\/console\//);

    await claimAndSubmit(devs[1] as Registered['agent'], bounties[1] as string, 2);
    const second = page.locator(`#review-${bounties[1]}`);
    await second.waitFor({ timeout: 15_000 });
    expect(await page.evaluate(`window.__sameDocument`)).toBe(true);
    expect(await page.locator('#queue-h').textContent()).toContain('(2)');
    expect(await second.locator('.payout-preview').textContent()).toMatch(/Approving pays 95 LIVW/);
    // What the founder was doing is untouched: the form open, the text and the focus kept.
    expect(await notes.inputValue()).toBe('Half-typed notes');
    expect(await first.locator('details.confirm').nth(1).getAttribute('open')).toBe('');
    expect(await page.evaluate(`document.activeElement && document.activeElement.name`)).toBe('review_notes');
    await expect.poll(() => page.locator('#live-status').textContent()).toMatch(/^Review queue updated/);
    expect(posts()).toBe(0);
    await screenshot(page, 'console-review-queue-live');
    await accessible(founderTab, 'review queue after a live update');
  }, 60_000);

  it("My work takes the founder's review live", async () => {
    const page = devTab.page;
    await page.goto(`${web.base}/console`);
    await live(page);
    const claim = page.locator(`#claim-${bounties[1]}`);
    expect(await claim.locator('.status').first().textContent()).toBe('in review');
    await page.evaluate(`window.__sameDocument = true`);
    await api(`/api/bounties/${bounties[1]}/request-changes`, founderKey, {
      review_notes: 'Add a test, please.',
    });
    await expect.poll(() => claim.textContent(), { timeout: 15_000 }).toContain('Add a test, please.');
    expect(await page.evaluate(`window.__sameDocument`)).toBe(true);
    expect(await claim.locator('.status').first().textContent()).toBe('changes requested');
    await accessible(devTab, 'my work after a live update');
  }, 60_000);

  it("a bounty's conversation: a question and its answer appear live for the other side, Markdown rendered safely", async () => {
    // The bounty the claimant was sent back on in the test above: it holds the claim.
    const bounty = { id: bounties[1] as string };
    const founderPage = founderTab.page;
    const devPage = devTab.page;
    await founderPage.goto(`${web.base}/bounties/${bounty.id}`);
    await devPage.goto(`${web.base}/bounties/${bounty.id}`);
    await live(founderPage);
    await live(devPage);
    await founderPage.evaluate('window.__sameDocument = true');
    await devPage.evaluate('window.__sameDocument = true');

    // The claimant asks through its page's form; the founder's open page shows it without a reload.
    await devPage
      .getByLabel('Your comment')
      .fill('Should `tabs` count? <img src=x onerror="window.__pwned=1">');
    await Promise.all([
      devPage.waitForURL(/#comments$/),
      devPage.getByRole('button', { name: 'Post comment' }).click(),
    ]);
    const question = founderPage.locator('#comments .comment').first();
    await question.waitFor({ timeout: 15_000 });
    expect(await question.locator('code').textContent()).toBe('tabs');
    expect(await question.textContent()).toContain('<img src=x onerror=');
    expect(await founderPage.locator('#comments img').count()).toBe(0);
    expect(await question.locator('.badge-role').textContent()).toBe('Claimant');
    expect(await founderPage.evaluate('window.__sameDocument')).toBe(true);

    // The founder answers over the API; the claimant's page (reloaded by its own post) takes it live.
    await devPage.evaluate('window.__sameDocument = true');
    await live(devPage);
    await api(`/api/bounties/${bounty.id}/comments`, founderKey, { body: 'Yes, **tabs** count.' });
    const answer = devPage.locator('#comments .comment').nth(1);
    await answer.waitFor({ timeout: 15_000 });
    expect(await answer.locator('strong').textContent()).toBe('tabs');
    expect(await answer.locator('.badge-role').textContent()).toBe('Founder');
    expect(await devPage.evaluate('window.__sameDocument')).toBe(true);
    expect(await devPage.evaluate('window.__pwned ?? null')).toBeNull();
    await accessible(devTab, 'bounty conversation');
    await accessible(founderTab, 'bounty conversation, founder');
    await screenshot(devPage, 'bounty-conversation');
  }, 60_000);
});
