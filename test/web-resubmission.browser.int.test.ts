import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  activeProject,
  apiOk,
  claimPushSubmit,
  fundFounder,
  postBounty,
  type Registered,
  register,
  type Workspace,
} from './helpers/bounty-work.ts';
import {
  checkA11y,
  DESKTOP_WIDTH,
  describeBrowser,
  launchBrowser,
  type OpenedPage,
  PHONE_WIDTH,
  screenshot,
  startWebApp,
  type WebApp,
} from './helpers/browser.ts';
import { signedInTab as signIn } from './helpers/browser-session.ts';
import type { TestChain } from './helpers/chain.ts';

/**
 * A resubmission, as on GitHub, in real Chromium on the product as `npm start` runs it (anvil, the
 * built-in repository host, real git): the contributor pushes a first commit, the founder sends
 * it back with notes; the contributor's bounty page shows those notes, the deadline and one next
 * step with the pull request already in its field; the contributor pushes one more commit to the
 * same branch and submits again from that page; the founder's review queue shows the earlier
 * notes and a "changed since your last review" diff holding only the new commit (the host's
 * compare of the reviewed head with the new one). Each page is checked at 1280 and 390 px wide
 * (axe, no script errors) and screenshotted at both.
 */

let web: WebApp;
let browser: Browser;
let tmp: string;
let founder: Registered;
let dev: Registered;
let bountyId: string;
let prUrl: string;
let ws: Workspace;
let firstHead: string;
let firstSubmission: string;
let founderTab: OpenedPage;
let devTab: OpenedPage;

const NOTES = 'Please explain why the greeting is escaped, in a file of its own.';
const FIRST = {
  'greet.ts': "export const greet = (name: string) => 'Hello, ' + name; // first-commit-line\n",
};
const SECOND = { 'ESCAPING.md': 'Names are escaped before they are shown. second-commit-line\n' };
const FOUNDER_ACCOUNT = 3;
const WIDTHS = [DESKTOP_WIDTH, PHONE_WIDTH];

const signedInTab = (key: string) => signIn(browser, web.base, key);

/** The page at each width: axe finds nothing serious, no script error, and `check` holds. */
async function atBothWidths(tab: OpenedPage, name: string, check: (width: number) => Promise<void>) {
  for (const width of WIDTHS) {
    await tab.page.setViewportSize({ width, height: 800 });
    await check(width);
    expect(await checkA11y(tab.page), `${name} at ${width}px: axe`).toEqual([]);
    // Nothing spills sideways on a phone: the page is as wide as the viewport.
    expect(await tab.page.evaluate('document.documentElement.scrollWidth'), `${name} at ${width}px`).toBe(
      width,
    );
  }
  expect(tab.errors, `${name}: script errors`).toEqual([]);
  await screenshot(tab.page, name);
}

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

/** What each element says to a reader: its text without what is hidden from assistive technology. */
function spoken(l: Locator): Promise<string[]> {
  return l.evaluateAll((els) =>
    els.map((el) => {
      const copy = el.cloneNode(true) as typeof el;
      for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
      return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
    }),
  );
}

/** The added lines of a diff block, as text. */
const added = (l: Locator) => l.locator('.dl-add code').allTextContents();

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'resubmission-'));
  web = await startWebApp({ real: true });
  browser = await launchBrowser();
  const suffix = Date.now().toString(36).slice(-6);
  const tc = web.testChain as TestChain;
  [founder, dev] = await Promise.all([
    register(web.base, `founder-${suffix}`, tc.account(FOUNDER_ACCOUNT).address),
    register(web.base, `dev-${suffix}`),
  ]);
  const project = await activeProject(web.base, founder.api_key, 'Resubmission Works', 'RSUB');
  await fundFounder(tc, FOUNDER_ACCOUNT, project, 10n ** 16n);
  bountyId = await postBounty(web.base, founder.api_key, project.id, 'Greet people, escaped');
  const work = await claimPushSubmit(web.base, tmp, dev, bountyId, FIRST);
  ({ ws, prUrl } = work);
  firstHead = work.head;
  firstSubmission = work.submissionId;
  // The founder sends it back with notes (the console's form for it: web-review.browser.int).
  await apiOk(web.base, `/api/bounties/${bountyId}/request-changes`, founder.api_key, {
    review_notes: NOTES,
  });
  [founderTab, devTab] = await Promise.all([signedInTab(founder.api_key), signedInTab(dev.api_key)]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describeBrowser('a resubmission in a browser', () => {
  it('the bounty page after changes requested shows one next step with the field filled', async () => {
    const page = devTab.page;
    await page.goto(`${web.base}/bounties/${bountyId}`);
    const due = (
      await apiOk<{ bounty: { revision_due_at: string } }>(web.base, `/api/bounties/${bountyId}`, null)
    ).bounty.revision_due_at;
    const next = page.locator('#next-step');
    await atBothWidths(devTab, 'bounty-changes-requested', async (width) => {
      expect(await next.locator('.review-notes').textContent()).toContain(NOTES);
      // The deadline, in words and as a machine-readable time.
      const deadline = next.locator('.changes-requested time');
      expect(await deadline.getAttribute('datetime')).toBe(due);
      expect(await text(deadline)).toBe(`${due.slice(0, 16).replace('T', ' ')} UTC`);
      expect(await text(next.locator('.changes-requested'))).toContain('Submit again by');
      // One next step: push to the same branch, then submit again; not the first-claim steps.
      const steps = next.locator('h3');
      expect(await steps.allTextContents()).toEqual(['Next: push your changes, then submit again']);
      expect(await next.locator('ol.steps').count()).toBe(0);
      expect(await text(next)).toContain(`Commit on ${ws.branch} and push it`);
      // Exactly one primary action, the submit form, with the pull request already filled in.
      const primary = next.locator('button.button:not(.button-alt)');
      expect(await primary.count()).toBe(1);
      expect(await text(primary)).toBe('Submit again for review');
      expect(await primary.isVisible(), `${width}px`).toBe(true);
      expect(await page.locator('form#submit').count()).toBe(1);
      expect(await page.locator('input[name="pr_url"]').count()).toBe(1);
      expect(await page.getByLabel('Pull request address').inputValue()).toBe(prUrl);
      // Badges and status marks are words (icons are hidden from readers), never codes.
      const marks = await spoken(page.locator('.head-marks .status, .head-marks .badge, .head-marks .mark'));
      expect(marks).toHaveLength(3);
      expect(marks[0]).toBe('Claimed');
      for (const m of marks) expect(m).toMatch(/^[A-Z]?[a-z]+( [a-z]+)*$/i);
      const subs = await spoken(page.locator('.submission .status'));
      expect(subs).toEqual(['Changes requested']);
    });
  }, 120_000);

  it('a resubmission shows the earlier notes and only the new commit diff', async () => {
    // One more commit on the same branch; the same pull request, submitted again from its page.
    const newHead = await ws.commitAndPush(SECOND, 'Explain the escaping');
    const page = devTab.page;
    await page.goto(`${web.base}/bounties/${bountyId}`);
    await Promise.all([
      page.waitForURL((u) => u.pathname === `/bounties/${bountyId}`),
      page.locator('form#submit').getByRole('button', { name: 'Submit again for review' }).click(),
    ]);
    await expect.poll(() => page.locator('.notice').textContent()).toContain('submitted');
    const { bounty } = await apiOk<{
      bounty: {
        status: string;
        submissions: {
          id: string;
          status: string;
          pull_request: { head_sha: string; reviewed_head_sha: string };
        }[];
      };
    }>(web.base, `/api/bounties/${bountyId}`, null);
    expect(bounty.status).toBe('in_review');
    const [latest] = bounty.submissions;
    expect(latest?.pull_request).toMatchObject({ head_sha: newHead, reviewed_head_sha: firstHead });
    // The service's own answer: the compare of the reviewed head with the new one, one commit.
    const { changes } = await apiOk<{
      changes: { total_commits: number; commits: { message: string }[]; files: { filename: string }[] };
    }>(web.base, `/api/bounties/${bountyId}/submissions/${latest?.id}/changes`, founder.api_key);
    expect(changes.total_commits).toBe(1);
    expect(changes.commits.map((c) => c.message.trim())).toEqual(['Explain the escaping']);
    expect(changes.files.map((f) => f.filename)).toEqual(['ESCAPING.md']);

    const review = founderTab.page;
    await review.goto(`${web.base}/console/reviews`);
    const card = review.locator(`#review-${bountyId}`);
    await atBothWidths(founderTab, 'review-resubmission', async () => {
      expect(await text(card.locator('.meta').first())).toContain('sent back for changes 1 time before');
      // The earlier review: its notes, at the head it was made on.
      const earlier = card.locator('.earlier-reviews');
      expect(await earlier.locator('.review-notes').textContent()).toContain(NOTES);
      expect(await text(earlier)).toContain(`at ${firstHead.slice(0, 7)}`);
      // Changed since then: the new commit alone.
      const since = card.locator('.diff-since');
      expect(await text(since.locator('h4'))).toBe(
        `Changed since your last review (${firstHead.slice(0, 7)}): 1 new commit`,
      );
      expect(await since.locator('.diff-file-head code').allTextContents()).toEqual(['ESCAPING.md']);
      expect(await added(since)).toEqual(['+Names are escaped before they are shown. second-commit-line']);
      expect(await text(since)).not.toContain('first-commit-line');
      // The whole pull request stays below it: both commits' files.
      const all = card.locator('.diff:not(.diff-since)');
      expect(await text(all.locator('h4'))).toBe('All files changed');
      expect((await all.locator('.diff-file-head code').allTextContents()).sort()).toEqual([
        'ESCAPING.md',
        'greet.ts',
      ]);
    });
    expect(firstSubmission).not.toBe(latest?.id);
  }, 120_000);
});
