import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PullRequestFile } from '../src/infra/repo-host/repo-host.ts';
import { systemClock } from '../src/lib/clock.ts';
import { randomAddress } from './helpers/app.ts';
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
import { type FakeRepoHost, fakeHeadSha } from './helpers/fake-repo-host.ts';

/**
 * The review loop in real Chromium, only through the console's pages: the founder reads the pull
 * request's report and diff, requests changes (after a confirmation); the contributor reads the
 * notes and the deadline and submits the same pull request again; the founder approves and pays
 * (after a confirmation). A FakeChain and the fake repository host (its files set by the test)
 * stand in for anvil and git: the pages are what is tested here. Every page is checked with axe
 * and for script errors; the queue is screenshotted at desktop and phone width.
 */

let web: WebApp;
let browser: Browser;
let host: FakeRepoHost;
let founderTab: OpenedPage;
let devTab: OpenedPage;
let bountyId: string;
let prUrl: string;
let prNumber: number;

const api = <T>(path: string, key: string | null, body?: unknown) => apiAs<T>(web.base, path, key, body);

type Registered = { agent: { id: string; name: string; api_key: string; repo_login: string | null } };

const signedInTab = (key: string) => signIn(browser, web.base, key);

/** Waits for the page's message (flash or error) to say `text`, across the redirect. */
async function expectFlash(page: Page, text: string | RegExp): Promise<void> {
  await expect
    .poll(
      () =>
        page
          .locator('.flash')
          .first()
          .textContent({ timeout: 1000 })
          .catch(() => ''),
      {
        timeout: 30_000,
      },
    )
    .toMatch(text);
}

async function accessible(tab: OpenedPage, name: string) {
  expect(await checkA11y(tab.page), `${name}: axe`).toEqual([]);
  expect(tab.errors, `${name}: script errors`).toEqual([]);
}

/** Opens a confirmation (`summary`), fills its notes, and confirms with a double click: one POST. */
async function confirmTwice(page: Page, open: string, notes: [string, string] | null, confirm: RegExp) {
  const card = page.locator(`#review-${bountyId}`);
  await card.locator('summary', { hasText: open }).click();
  if (notes) await card.getByLabel(notes[0]).fill(notes[1]);
  let posts = 0;
  const count = (r: { method(): string; url(): string }) => {
    if (r.method() === 'POST' && r.url().includes(`/console/bounties/${bountyId}/`)) posts += 1;
  };
  page.on('request', count);
  const button = card.getByRole('button', { name: confirm });
  await button.dblclick();
  await page.waitForLoadState('load');
  return () => {
    page.off('request', count);
    return posts;
  };
}

const patch = (lines: string[]) => lines.join('\n');
const files = (round: number): PullRequestFile[] => [
  {
    filename: 'src/greeting.ts',
    status: 'modified',
    additions: 3,
    deletions: 1,
    patch: patch([
      '@@ -1,4 +1,6 @@',
      ' // Greets whoever asks.',
      "-export const greet = (name: string) => 'Hi ' + name;",
      '+export function greet(name: string): string {',
      `+  return '<b>Hello</b>, ' + name + "! <script>alert('x')</script>";`,
      ...(round > 1 ? ['+  // escaped, as the test asked'] : []),
      '+}',
      ' ',
      ' export default greet;',
    ]),
  },
  {
    filename: 'test/greeting.test.ts',
    status: 'added',
    additions: 420,
    deletions: 0,
    patch: patch(['@@ -0,0 +1,420 @@', ...Array.from({ length: 420 }, (_, i) => `+expect(greet('n${i}'));`)]),
  },
  { filename: 'assets/wave.png', status: 'added', additions: 0, deletions: 0, patch: null },
];

beforeAll(async () => {
  web = await startWebApp();
  host = web.fakeHost as FakeRepoHost;
  browser = await launchBrowser();
  const chain = web.chain as FakeChain;
  const founderWallet = randomAddress();
  const suffix = Date.now().toString(36).slice(-6);
  const founder = await api<Registered>('/api/agents/register', null, {
    name: `founder-${suffix}`,
    wallet_address: founderWallet,
  });
  const dev = await api<Registered>('/api/agents/register', null, { name: `dev-${suffix}` });
  const { project } = await api<{ project: { id: string } }>('/api/projects', founder.agent.api_key, {
    name: 'Greeting Works',
    token_symbol: 'GRTW',
  });
  const ctx = { app: web.app, database: web.database, clock: systemClock };
  const active = await activateFunded(ctx, chain, project.id, founderWallet, {
    funds: 5000n,
    curveSupply: 10_000,
  });
  const { bounty } = await api<{ bounty: { id: string } }>(
    `/api/projects/${project.id}/bounties`,
    founder.agent.api_key,
    { title: 'Greet people warmly', description: 'Say hello, escaped.', reward_amount: 100 },
  );
  bountyId = bounty.id;
  await api(`/api/bounties/${bountyId}/claim`, dev.agent.api_key, {});
  // The contributor's pull request on the host: its report, checks and files.
  prNumber = 7;
  prUrl = `${active.repoUrl}/pull/${prNumber}`;
  host.setPullRequest(prUrl, {
    authorLogin: dev.agent.repo_login as string,
    title: 'Greet with <b>warmth</b>',
    additions: 423,
    deletions: 1,
    changedFiles: 3,
  });
  host.setChecks(fakeHeadSha(prUrl), { state: 'failure', total: 3, failed: 1 });
  host.setFiles('bounty-org', project.id, prNumber, files(1));
  founderTab = await signedInTab(founder.agent.api_key);
  devTab = await signedInTab(dev.agent.api_key);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
});

describeBrowser('the review loop in a browser', () => {
  it('contributor submits; the founder reads the report, the diff (as text) and what approving pays', async () => {
    const dev = devTab.page;
    await dev.getByLabel('Pull request URL').fill(prUrl);
    await dev.locator(`#submit-${bountyId}`).getByRole('button', { name: 'Submit for review' }).click();
    await expectFlash(dev, 'submitted for review');

    const page = founderTab.page;
    await page.goto(`${web.base}/console/reviews`);
    const card = page.locator(`#review-${bountyId}`);
    const report = (await card.locator('.pr-report').textContent())?.replace(/\s+/g, ' ') ?? '';
    expect(report).toContain(`#${prNumber} Greet with <b>warmth</b>`);
    expect(report).toMatch(/open \+423 −1 in 3 files mergeable: yes ✗ 1 of 3 checks failed/);
    // The patch's markup is text on the page: no element was made of it.
    await expect
      .poll(() => card.locator('.dl-add').nth(1).textContent())
      .toContain("<script>alert('x')</script>");
    expect(await card.locator('.diff-lines script, .diff-lines b').count()).toBe(0);
    // The 420-line test file is folded until asked for; the image has no diff.
    const big = card.locator('details.diff-fold').first();
    expect(await big.locator('.dl').first().isVisible()).toBe(false);
    expect(await card.getByText('No diff from the host').count()).toBe(1);
    const pays = (await card.locator('.payout-preview').textContent())?.replace(/\s+/g, ' ') ?? '';
    expect(pays).toMatch(
      /^Approving pays 95 GRTW to dev-\w+ \(≈ 0\.[0-9]+ ETH now\) and 5 GRTW platform fee\.$/,
    );
    // Nothing is sent before a confirmation: the forms are closed.
    expect(
      await card
        .getByRole('button', { name: /^Confirm/ })
        .first()
        .isVisible(),
    ).toBe(false);
    await screenshot(page, 'review-queue-diff');
    await big.locator('summary').click();
    expect(await big.locator('.dl').first().isVisible()).toBe(true);
    await accessible(founderTab, 'review queue');
  }, 120_000);

  it('founder requests changes after a confirmation; a double click sends one request', async () => {
    const page = founderTab.page;
    await page.goto(`${web.base}/console/reviews`);
    const card = page.locator(`#review-${bountyId}`);
    await card.locator('summary', { hasText: 'Request changes' }).click();
    expect((await card.locator(`#changes-${bountyId}`).textContent())?.replace(/\s+/g, ' ')).toMatch(
      /keeps the claim until about \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in (3 d 0 h|2 d 23 h)\)/,
    );
    await screenshot(page, 'review-request-changes-confirm');
    await accessible(founderTab, 'request changes confirmation');
    await card.locator('summary', { hasText: 'Request changes' }).click();
    const posts = await confirmTwice(
      page,
      'Request changes',
      ['What to change', 'Please add a comment on why <script> is escaped.'],
      /^Confirm: request changes$/,
    );
    await expectFlash(page, 'Changes requested with your notes');
    expect(posts()).toBe(1);
    expect(await page.locator(`#review-${bountyId}`).count()).toBe(0);
    expect((await web.app.services.bounties.get(bountyId)).status).toBe('claimed');
    await accessible(founderTab, 'after request changes');
  }, 120_000);

  it('contributor reads the notes and the deadline, and submits the same pull request again', async () => {
    const page = devTab.page;
    await page.goto(`${web.base}/console`);
    const claim = page.locator(`#claim-${bountyId}`);
    const text = (await claim.textContent())?.replace(/\s+/g, ' ') ?? '';
    expect(text).toContain('Changes requested');
    expect(text).toContain('Please add a comment on why <script> is escaped.');
    expect(text).toMatch(/Submit again by \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in 2 d 23 h\)/);
    const due = (await web.app.services.bounties.get(bountyId)).revision_due_at as string;
    expect(await claim.locator('time').getAttribute('datetime')).toBe(due);
    expect(await claim.getByLabel('Pull request URL').inputValue()).toBe(prUrl);
    await accessible(devTab, 'changes requested');
    await screenshot(page, 'review-changes-requested-contributor');

    // New commits on the same branch: the same pull request, its files changed.
    host.setFiles(prUrl.split('/').at(-4) as string, prUrl.split('/').at(-3) as string, prNumber, files(2));
    await claim.getByRole('button', { name: 'Submit again for review' }).click();
    await expectFlash(page, 'submitted again');
    expect((await web.app.services.bounties.get(bountyId)).status).toBe('in_review');
    await accessible(devTab, 'submitted again');
  }, 120_000);

  it('founder approves and pays after a confirmation naming the amount; a double click pays once', async () => {
    const page = founderTab.page;
    await page.goto(`${web.base}/console/reviews`);
    const card = page.locator(`#review-${bountyId}`);
    expect(await card.locator('.meta').first().textContent()).toContain(
      'sent back for changes 1 time before',
    );
    expect(await card.getByText('// escaped, as the test asked').count()).toBe(1);
    const posts = await confirmTwice(
      page,
      'Approve and pay',
      ['Notes for the contributor', 'Thank you!'],
      /^Confirm: approve and pay 95 GRTW$/,
    );
    // The console merges by default, then pays in one router transaction, named once.
    await expectFlash(page, /Merged, approved and paid: .* in one transaction, 0x[0-9a-f]{64}\./);
    expect(posts()).toBe(1);
    const bounty = await web.app.services.bounties.get(bountyId);
    expect(bounty.status).toBe('done');
    expect(bounty.submissions.map((s) => s.status)).toEqual(['approved', 'changes_requested']);
    await accessible(founderTab, 'approved');

    await devTab.page.goto(`${web.base}/console`);
    const subs =
      (await devTab.page.getByRole('table', { name: 'Your submissions, newest first' }).textContent()) ?? '';
    expect(subs).toContain('approved');
    expect(subs).toContain('changes requested');
    await accessible(devTab, 'contributor after approval');
  }, 120_000);
});
