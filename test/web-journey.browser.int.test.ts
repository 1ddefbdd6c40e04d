import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemClock } from '../src/lib/clock.ts';
import { createProject, markProjectActive, registerAgent, type TestContext } from './helpers/app.ts';
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
import type { FakeChain } from './helpers/fake-chain.ts';

/**
 * A new person's first bounty in real headless Chromium (FakeChain, fake host): from the board to
 * the bounty, to sign-up (the key shown once, copied with the button), back to the bounty, the
 * claim, and this bounty's steps. No script errors, axe-core clean on every page on the way.
 */

/** The page's clipboard (the DOM's types are not part of this build). */
const clipboardText = () =>
  (
    globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
  ).navigator.clipboard.readText();

let web: WebApp;
let browser: Browser;
let bountyId: string;
let repoUrl: string;
const opened: OpenedPage[] = [];

describeBrowser('a new person claims a bounty from the web', () => {
  beforeAll(async () => {
    [web, browser] = await Promise.all([startWebApp(), launchBrowser()]);
    const { app } = web;
    const ctx = { app, database: web.database, clock: systemClock } as unknown as TestContext;
    const founder = await registerAgent(app, { name: 'Founder Hopper' });
    const project = await createProject(app, founder, { name: 'Lexer Works', token_symbol: 'LEX' });
    const active = await markProjectActive(ctx, project.id);
    repoUrl = active.repoUrl;
    (web.chain as FakeChain).setFunds(active.tokenAddress, founder.walletAddress as string, 10_000n);
    const bounty = await app.services.bounties.create(founder.id, project.id, {
      title: 'Handle tabs in the lexer',
      description: 'Tabs break the column count; add a test.',
      reward_amount: 400,
      difficulty: 'easy',
    });
    bountyId = bounty.id;
  });

  afterAll(async () => {
    await browser?.close();
    await web?.close();
  });

  it('goes from the board to sign-up, sees the key once, claims and sees the steps', async () => {
    const o = await openPage(browser, `${web.base}/`);
    opened.push(o);
    const { page } = o;
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
    const key = await page.getByLabel('API key').inputValue();
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
    expect(await page.getByLabel('Pull request address').getAttribute('placeholder')).toBe(
      `${repoUrl}/pull/1`,
    );
    await page.getByRole('button', { name: 'Copy the push command' }).click();
    expect(await page.evaluate(clipboardText)).toContain("GIT_KEY='<your API key>' git");
    expect((await web.app.services.bounties.get(bountyId)).status).toBe('claimed');
    expect(await checkA11y(page)).toEqual([]);
    await screenshot(page, 'bounty-claimed');
  });

  it('logged no script error on any page', () => {
    expect(opened.flatMap((o) => o.errors)).toEqual([]);
  });
});
