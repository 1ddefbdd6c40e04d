import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tokensToUnits } from '../src/infra/chain/chain.ts';
import { systemClock } from '../src/lib/clock.ts';
import {
  createProject,
  markProjectActive,
  registerAgent,
  type TestAgent,
  type TestContext,
} from './helpers/app.ts';
import {
  checkA11y,
  DESKTOP_WIDTH,
  describeBrowser,
  launchBrowser,
  type OpenedPage,
  openPage,
  PHONE_WIDTH,
  screenshot,
  startWebApp,
  type WebApp,
} from './helpers/browser.ts';
import type { FakeChain } from './helpers/fake-chain.ts';

/**
 * The public pages in real headless Chromium against the app on a port (FakeChain, fake host):
 * the board with its marks, search by URL and the back button, the live update, script errors,
 * axe-core, and screenshots of every page at desktop and phone width.
 */

const EXPLORER = 'https://explorer.example';
let web: WebApp;
let browser: Browser;
let founder: TestAgent;
let dev: TestAgent;
let project: { id: string; token_symbol: string };
const ids: Record<'parser' | 'docs' | 'paid', string> = { parser: '', docs: '', paid: '' };
const opened: OpenedPage[] = [];

async function open(path: string, width?: number): Promise<Page> {
  const o = await openPage(browser, `${web.base}${path}`, width ? { width } : {});
  opened.push(o);
  return o.page;
}

async function seed() {
  const { app } = web;
  const chain = web.chain as FakeChain;
  const ctx = { app, database: web.database, clock: systemClock } as unknown as TestContext;
  founder = await registerAgent(app, { name: 'Founder Ada' });
  dev = await registerAgent(app, { name: 'Agent Turing' });
  project = await createProject(app, founder, { name: 'Parser Works', token_symbol: 'PARSE' });
  const { tokenAddress } = await markProjectActive(ctx, project.id);
  const row = await app.services.projects.require(project.id);
  chain.setCurve(row.curveAddress as string, {
    a: 10n ** 12n,
    b: 1000n,
    supplyUnits: tokensToUnits(250_000),
  });
  chain.setFunds(tokenAddress, founder.walletAddress as string, 10_000n);
  const post = (title: string, reward: number, difficulty: 'easy' | 'hard') =>
    app.services.bounties.create(founder.id, project.id, {
      title,
      description: `${title}: the details, with a test that fails before the fix.`,
      reward_amount: reward,
      difficulty,
    });
  ids.paid = (await post('Speed up tokenizer by 2x', 1500, 'hard')).id;
  ids.docs = (await post('Write the getting-started guide', 300, 'easy')).id;
  ids.parser = (await post('Fix the parser crash on empty input', 800, 'hard')).id;

  // One bounty goes the whole way: a rejected submission with notes, then an approved one, paid.
  const repoUrl = row.repoUrl as string;
  const login = (await app.services.directory.require(dev.id)).repoLogin as string;
  const submitPr = async (n: number) => {
    web.fakeHost?.adoptAuthor(`${repoUrl}/pull/${n}`, login);
    await app.services.submissions.submit(dev.id, ids.paid, `${repoUrl}/pull/${n}`);
  };
  await app.services.bounties.claim(dev.id, ids.paid);
  await submitPr(1);
  await app.services.submissions.reject(founder.id, ids.paid, 'Benchmarks missing; please add them.');
  await app.services.bounties.claim(dev.id, ids.paid);
  await submitPr(2);
  await app.services.approvals.approve(founder.id, ids.paid, 'Great work, 2.3x faster.');
}

describeBrowser('public pages in a browser', () => {
  beforeAll(async () => {
    [web, browser] = await Promise.all([
      startWebApp({ env: { CHAIN_EXPLORER_URL: EXPLORER } }),
      launchBrowser(),
    ]);
    await seed();
  });

  afterAll(async () => {
    await browser?.close();
    await web?.close();
  });

  it('shows open bounties with reward, ETH worth, payable mark and review record', async () => {
    const page = await open('/');
    const cards = page.locator('.bounty-card');
    await expect.poll(() => cards.count()).toBe(2);
    const parser = page.locator(`[data-bounty-id="${ids.parser}"]`);
    const text = (await parser.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('Fix the parser crash on empty input');
    expect(text).toContain('800 PARSE');
    expect(text).toMatch(/≈ 0\.\d+ ETH/);
    expect(text).toContain('Payable');
    expect(text).toContain('1 of 2 decided approved');
    expect(await parser.locator('time').getAttribute('datetime')).toMatch(/Z$/);
    // Newest first; the done bounty is not on the default (open) board.
    expect(await cards.first().getAttribute('data-bounty-id')).toBe(ids.parser);
    expect(await page.locator(`[data-bounty-id="${ids.paid}"]`).count()).toBe(0);
    expect(await checkA11y(page)).toEqual([]);
    await screenshot(page, 'board');
  });

  it('searches and filters through the URL; the form is pre-filled and back restores the list', async () => {
    const page = await open('/');
    await page.getByLabel('Search', { exact: true }).fill('parser');
    await page.getByLabel('Difficulty').selectOption('hard');
    await Promise.all([page.waitForURL(/q=parser/), page.getByRole('button', { name: 'Apply' }).click()]);
    expect(new URL(page.url()).searchParams.get('difficulty')).toBe('hard');
    await expect.poll(() => page.locator('.bounty-card').count()).toBe(1);

    // Shared link: a fresh page on the same URL shows the same thing, form filled in.
    const shared = await open('/?q=parser&difficulty=hard');
    expect(await shared.getByLabel('Search', { exact: true }).inputValue()).toBe('parser');
    expect(await shared.getByLabel('Difficulty').inputValue()).toBe('hard');
    expect(await shared.locator('.bounty-card').count()).toBe(1);

    await page.goBack();
    await expect.poll(() => page.locator('.bounty-card').count()).toBe(2);
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('');

    // Every status: the paid bounty is there, marked as paid.
    const all = await open('/?status=any');
    expect(await all.locator(`[data-bounty-id="${ids.paid}"]`).innerText()).toContain('Paid');

    // Best match, chosen in the form: the title that holds the word comes first, the choice kept.
    const best = await open('/?q=fix');
    await best.getByLabel('Sort').selectOption('relevance');
    await Promise.all([
      best.waitForURL(/sort=relevance/),
      best.getByRole('button', { name: 'Apply' }).click(),
    ]);
    expect(await best.getByLabel('Sort').inputValue()).toBe('relevance');
    expect(await best.locator('.bounty-card').first().getAttribute('data-bounty-id')).toBe(ids.parser);
    expect(await checkA11y(best)).toEqual([]);
    await screenshot(best, 'board-best-match');
    // Best match without search words: said in the page's words, no list.
    const unranked = await open('/?sort=relevance');
    expect(await unranked.locator('main').innerText()).toContain('type words to search for');
    await screenshot(unranked, 'board-best-match-without-words');
  });

  it('updates live: a new bounty appears without a reload, and it is announced', async () => {
    const page = await open('/?difficulty=easy');
    await page.locator('#live-status[data-live="connected"]').waitFor({ state: 'attached' });
    await page.evaluate(() => {
      (globalThis as { notReloaded?: boolean }).notReloaded = true;
    });
    const created = await web.app.services.bounties.create(founder.id, project.id, {
      title: 'Add a live example to the docs',
      description: 'Shows up on the board by itself.',
      reward_amount: 50,
      difficulty: 'easy',
    });
    const card = page.locator(`[data-bounty-id="${created.id}"]`);
    await card.waitFor({ timeout: 10_000 });
    expect(await page.locator('.bounty-card').count()).toBe(2);
    expect(await page.evaluate(() => (globalThis as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await expect.poll(() => page.locator('#live-status').innerText()).toContain('Board updated');
    const updated = await page.locator('#live-status').getAttribute('data-updated');
    // The filter held: a hard bounty posted now does not join this easy-only list.
    await web.app.services.bounties.create(founder.id, project.id, {
      title: 'A hard one',
      description: 'Not for this list.',
      reward_amount: 60,
      difficulty: 'hard',
    });
    await expect.poll(() => page.locator('#live-status').getAttribute('data-updated')).not.toBe(updated);
    expect(await page.locator('.bounty-card').count()).toBe(2);
  });

  it('shows a paid bounty with its submissions, notes and its one payout transaction linked to the explorer', async () => {
    const page = await open(`/bounties/${ids.paid}`, PHONE_WIDTH);
    const subs = page.locator('.submission');
    expect(await subs.count()).toBe(2);
    expect(await subs.first().innerText()).toContain('Approved');
    expect(await subs.nth(1).innerText()).toContain('Benchmarks missing; please add them.');
    // One router transaction paid the share and the fee: shown once.
    const txLinks = subs.first().locator('.payout a');
    expect(await txLinks.count()).toBe(1);
    for (const href of await txLinks.evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
      expect(href).toMatch(/^https:\/\/explorer\.example\/tx\/0x[0-9a-f]{64}$/);
    }
    expect(await page.getByRole('link', { name: 'Agent Turing' }).count()).toBeGreaterThan(0);
    expect(await checkA11y(page)).toEqual([]);
    await screenshot(page, 'bounty');
  });

  it('shows a project with its token, curve price and chart, and an agent with what it earned', async () => {
    const proj = await open(`/projects/${project.id}`);
    const text = await proj.locator('main').innerText();
    expect(text).toMatch(/0\.\d+ ETH per PARSE/);
    expect(text).toContain('250,000 PARSE');
    expect(await proj.locator('figure.chart svg circle.now').count()).toBe(1);
    expect(await checkA11y(proj)).toEqual([]);
    await screenshot(proj, 'project');

    const agent = await open(`/agents/${dev.id}`);
    const agentText = await agent.locator('main').innerText();
    // 1,500 tokens less the 5% platform fee.
    expect(agentText).toContain('1,425 PARSE');
    expect(agentText).toMatch(/1\s+bounties completed/);
    expect(await checkA11y(agent)).toEqual([]);
    await screenshot(agent, 'agent');
  });

  it('fits every label of the price chart in the picture, at desktop and phone width', async () => {
    // A tiny price makes the longest y label ("0.000000000000001001" ETH): it must not be cut.
    const { app } = web;
    const ctx = { app, database: web.database, clock: systemClock } as unknown as TestContext;
    const tiny = await createProject(app, founder, { name: 'Tiny Works', token_symbol: 'TINY' });
    await markProjectActive(ctx, tiny.id);
    const row = await app.services.projects.require(tiny.id);
    (web.chain as FakeChain).setCurve(row.curveAddress as string, {
      a: 1n,
      b: 1n,
      supplyUnits: tokensToUnits(250),
    });
    for (const id of [project.id, tiny.id]) {
      for (const width of [DESKTOP_WIDTH, PHONE_WIDTH]) {
        const page = await open(`/projects/${id}`, width);
        const svg = page.locator('figure.chart svg');
        // Each label's box in the SVG's own units (fonts as rendered at this width) inside the viewBox.
        const outside = (await svg.evaluate(`(() => {
          const svg = document.querySelector('figure.chart svg');
          const box = svg.viewBox.baseVal;
          return [...svg.querySelectorAll('text')]
            .map((t) => ({ text: t.textContent, b: t.getBBox() }))
            .filter(({ b }) => b.x < box.x || b.y < box.y || b.x + b.width > box.x + box.width || b.y + b.height > box.y + box.height)
            .map(({ text, b }) => \`\${text}: \${b.x},\${b.y} \${b.width}x\${b.height}\`);
        })()`)) as string[];
        expect(outside, `${id} at ${width}px`).toEqual([]);
        if (id === tiny.id && width === PHONE_WIDTH) {
          expect(await svg.locator('text.tick').allTextContents()).toContain('0.000000000000001001');
          await screenshot(page, 'project-tiny-price');
        }
      }
    }
  });

  it('shows a 404 page for an unknown id, and no page logged a script error', async () => {
    const page = await open('/bounties/bnt_unknown');
    expect(await page.locator('h1').innerText()).toBe('Not found');
    expect(await checkA11y(page)).toEqual([]);
    expect(opened.flatMap((o) => o.errors)).toEqual([]);
  });
});
