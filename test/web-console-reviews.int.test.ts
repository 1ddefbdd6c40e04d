import { beforeAll, describe, expect, it } from 'vitest';
import type { PullRequestFile } from '../src/infra/repo-host/repo-host.ts';
import { formatEth } from '../src/web/public/format.ts';
import { createBounty, registerAgent, type TestAgent } from './helpers/app.ts';
import { claim, ok } from './helpers/bounty-flows.ts';
import { appForFile, fundedProject } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost, fakeHeadSha } from './helpers/fake-repo-host.ts';
import { type Browserless, browserless, errorsOf } from './helpers/web-forms.ts';

/**
 * The founder's review queue in the console: each pending submission's pull request report, its
 * diff (escaped, long files folded, long lists cut), what approving sends, and the three confirmed
 * actions; the contributor's side of a request for changes. Checked against the services' state.
 */

const HOUR = 3_600_000;
const REVISION_HOURS = 48;

const chain = new FakeChain();
const host = new FakeRepoHost();
const ctx = appForFile({ chain, repoHost: host, env: { REVISION_HOURS: String(REVISION_HOURS) } });
let web: Browserless;
let founder: TestAgent;
let dev: TestAgent;
let founderSession: string;
let devSession: string;
let projectId: string;
let repoUrl: string;
let prSeq = 0;

/** `owner`, `repo` of the project's repository, as setFiles keys them. */
const repoParts = () => repoUrl.split('/').slice(-2) as [string, string];

beforeAll(async () => {
  web = browserless(ctx.app);
  founder = await registerAgent(ctx.app);
  dev = await registerAgent(ctx.app);
  const opts = { founder, name: 'Review Works', token_symbol: 'REVW', funds: 5000n, curveSupply: 10_000 };
  const active = await fundedProject(ctx, chain, opts);
  projectId = active.project.id;
  repoUrl = active.repoUrl;
  founderSession = await web.signIn(founder.apiKey);
  devSession = await web.signIn(dev.apiKey);
});

/**
 * A bounty claimed and submitted with a pull request described on the host, by `who` (a new
 * contributor by default: one active claim per agent per project).
 */
async function inReview(
  title: string,
  pr: Parameters<FakeRepoHost['setPullRequest']>[1] = {},
  who?: TestAgent,
) {
  const agent = who ?? (await registerAgent(ctx.app));
  const login = (await ctx.app.services.directory.require(agent.id)).repoLogin as string;
  const bounty = await createBounty(ctx.app, founder, projectId, { title, reward_amount: 100 });
  ok(await claim(ctx.app, agent, bounty.id));
  const number = ++prSeq;
  const prUrl = `${repoUrl}/pull/${number}`;
  host.setPullRequest(prUrl, { authorLogin: login, title, ...pr });
  ok(
    await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${bounty.id}/submit`,
      headers: agent.headers,
      payload: { pr_url: prUrl },
    }),
    201,
  );
  return { id: bounty.id, prUrl, number, agent, login };
}

const status = async (id: string) => (await ctx.app.services.bounties.get(id)).status;
/** The review card of one bounty on the queue page. */
const cardOf = (html: string, id: string) =>
  new RegExp(`<article class="card review" id="review-${id}">[\\s\\S]*?</article>`).exec(html)?.[0] ?? '';
const PARSE_PATCH =
  "@@ -10,3 +10,4 @@ export function parse() {\n const a = 1;\n-const b = 2;\n+const b = '<script>alert(1)</script>';\n+const c = 3;\n const d = 4;\n\\ No newline at end of file";
const lines = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}line ${i}`);

describe('the review queue', () => {
  it('shows the pull request report, its checks, the diff escaped with a folded large file, and the amounts', async () => {
    const pr = { additions: 463, deletions: 1, changedFiles: 3 };
    const r = await inReview('Handle <tabs> in the parser', pr);
    host.setChecks(fakeHeadSha(r.prUrl), { state: 'failure', total: 3, failed: 1 });
    // The report is stored at submit: read it again as a webhook would, now the checks changed.
    await ctx.app.services.submissions.refreshReports({ prUrl: r.prUrl });
    const [owner, repo] = repoParts();
    const file = (filename: string, status: string, add: number, del: number, patch: string | null) => ({
      filename,
      status,
      additions: add,
      deletions: del,
      patch,
    });
    const files: PullRequestFile[] = [
      file('src/parse.ts', 'modified', 2, 1, PARSE_PATCH),
      file('data/big.txt', 'added', 460, 0, ['@@ -0,0 +1,460 @@', ...lines(460, '+')].join('\n')),
      file('logo.png', 'added', 0, 0, null),
    ];
    host.setFiles(owner, repo, r.number, files);

    const page = await web.get(founderSession, '/console/reviews');
    expect(page.statusCode).toBe(200);
    const card = cardOf(page.body, r.id);
    // The report: title (escaped), #number linking to the pull request, author, state, size, mergeable, checks.
    expect(card).toContain(`<a href="${r.prUrl}" rel="noopener noreferrer">#${r.number}</a>`);
    expect(card).toContain('Handle &lt;tabs&gt; in the parser');
    expect(card).toContain(`by ${r.login}`);
    expect(card).toContain('status-pr-open">open</span>');
    expect(card).toMatch(/\+463<\/span> <span class="deletions">−1<\/span> in 3 files/);
    expect(card).toContain('mergeable: <strong class="mergeable-yes">yes</strong>');
    expect(card).toContain('<span aria-hidden="true">✗</span> 1 of 3 checks failed');

    // The diff, line by line, as text: the patch's <script> is shown, never run.
    expect(card).not.toContain('<script>alert(1)');
    expect(card).toContain('<h5 class="diff-file-head"><code>src/parse.ts</code>');
    const apos = /&#39;|&#x27;/g;
    const rendered = card.replace(apos, "'");
    for (const [kind, n, text] of [
      ['hunk', '', '@@ -10,3 +10,4 @@ export function parse() {'],
      ['ctx', '10', ' const a = 1;'],
      ['del', '11', '-const b = 2;'],
      ['add', '11', "+const b = '&lt;script&gt;alert(1)&lt;/script&gt;';"],
      ['add', '12', '+const c = 3;'],
    ]) {
      expect(rendered).toContain(
        `<div class="dl dl-${kind}"><span class="dl-n" aria-hidden="true">${n}</span><code>${text}</code></div>`,
      );
    }
    expect(card).toContain('<div class="dl dl-meta">');
    // Over 400 lines: folded, and its lines are inside the fold. No patch: folded, with why.
    const big = /<code>data\/big\.txt<\/code>[\s\S]*?<\/details>/.exec(card)?.[0] ?? '';
    expect(big).toMatch(
      /<details class="diff-fold">\s*<summary class="diff-fold-summary">Large diff: show <span class="meta">\(461 lines\)<\/span><\/summary>/,
    );
    expect(big).toContain('<code>+line 459</code>');
    const png = /<code>logo\.png<\/code>[\s\S]*?<\/details>/.exec(card)?.[0] ?? '';
    expect(png).toContain('No diff from the host');
    expect(card).not.toContain('more file');

    // What approving sends: 100 REVW less the 5% fee, and what that share sells for now.
    const worth = (await ctx.app.services.bounties.get(r.id)).reward_eth_units as string;
    expect(worth).toMatch(/^[1-9][0-9]*$/);
    const text = card.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
    expect(text).toContain(
      `Approving pays 95 REVW to ${r.agent.name} (≈ ${formatEth(BigInt(worth))} ETH now) and 5 REVW platform fee.`,
    );

    // Three actions, each behind a confirmation that says what happens, sent once (console.js).
    for (const [form, action, confirm] of [
      [`approve-${r.id}`, 'approve', 'Confirm: approve and pay 95 REVW'],
      [`changes-${r.id}`, 'request-changes', 'Confirm: request changes'],
      [`reject-${r.id}`, 'reject', 'Confirm: reject'],
    ] as const) {
      expect(card).toMatch(
        new RegExp(
          `<details class="confirm">\\s*<summary[^>]*>[^<]+</summary>\\s*<form method="post" action="/console/bounties/${r.id}/${action}" id="${form}" class="confirm-form" data-pending="[^"]+">`,
        ),
      );
      expect(card).toContain(confirm);
    }
    const due = new Date(ctx.clock.now().getTime() + REVISION_HOURS * HOUR).toISOString().slice(0, 16);
    expect(text).toContain(
      `${r.agent.name} keeps the claim until about ${due.replace('T', ' ')} UTC (in 2 d 0 h)`,
    );
    expect(text.replace(apos, "'")).toContain(`The bounty reopens to anyone: ${r.agent.name}'s claim ends`);
    expect(page.body).toContain('<script src="/assets/console.js" defer></script>');
  });

  it('shows at most 50 files, then says how many more', async () => {
    const r = await inReview('Many files', { changedFiles: 60 });
    const [owner, repo] = repoParts();
    const files = Array.from({ length: 53 }, (_, i) => ({
      filename: `f${i}.txt`,
      status: 'added',
      additions: 1,
      deletions: 0,
      patch: `@@ -0,0 +1 @@\n+file ${i}`,
    }));
    host.setFiles(owner, repo, r.number, files);
    const card = cardOf((await web.get(founderSession, '/console/reviews')).body, r.id);
    expect(card).toContain('<code>f49.txt</code>');
    expect(card).not.toContain('<code>f50.txt</code>');
    // The host listed 53 of the pull request's 60 files: 10 are not shown.
    expect(card).toContain('and 10 more files');
  });

  it('still renders the page when the host cannot list the files', async () => {
    const r = await inReview('Host trouble');
    const listed = host.listPullRequestFiles;
    host.listPullRequestFiles = async () => {
      throw new Error('the host is down');
    };
    try {
      const page = await web.get(founderSession, '/console/reviews');
      expect(page.statusCode).toBe(200);
      const card = cardOf(page.body, r.id);
      expect(card).toContain('The diff could not be read from the repository host');
      expect(card.replace(/<[^>]+>/g, '')).toContain('Approving pays 95 REVW');
      expect(card).toContain(`action="/console/bounties/${r.id}/approve"`);
      expect(card).toContain(`action="/console/bounties/${r.id}/request-changes"`);
    } finally {
      host.listPullRequestFiles = listed;
    }
  });
});

describe('request changes, the contributor revises, the founder approves', () => {
  let r: Awaited<ReturnType<typeof inReview>>;

  it('refuses a request without notes (on its form, opened) and without the CSRF token', async () => {
    r = await inReview('Sent back once', {}, dev);
    const url = `/console/bounties/${r.id}/request-changes`;
    const empty = await web.post(founderSession, url, { review_notes: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain(`id="changes-${r.id}-review_notes-error"`);
    expect(empty.body).toMatch(/<details class="confirm" open>\s*<summary[^>]*>Request changes…/);
    const forged = await web.post(founderSession, url, { review_notes: 'x' }, { csrf: 'forged' });
    expect(forged.statusCode).toBe(403);
    // The contributor is not the founder: the service's 403, shown on the page.
    const mine = await web.post(devSession, url, { review_notes: 'x' });
    expect(mine.statusCode).toBe(403);
    expect(errorsOf(mine.body).join(' ')).toMatch(/founder/i);
    expect(await status(r.id)).toBe('in_review');
  });

  it('sends it back with notes: claimed by the same contributor until the deadline', async () => {
    const notes = 'Add a test for <tabs>,\nand keep the old behaviour.';
    const { page, flash } = await web.submit(founderSession, `/console/bounties/${r.id}/request-changes`, {
      review_notes: notes,
    });
    const bounty = await ctx.app.services.bounties.get(r.id);
    const due = new Date(ctx.clock.now().getTime() + REVISION_HOURS * HOUR).toISOString();
    expect(bounty).toMatchObject({ status: 'claimed', claimed_by: dev.id, revision_due_at: due });
    expect(bounty.submissions[0]).toMatchObject({ status: 'changes_requested', review_notes: notes });
    expect(flash).toContain('Changes requested');
    expect(page.body).not.toContain(`id="review-${r.id}"`);
  });

  it('the contributor reads the notes and the deadline, and the submit form is offered again', async () => {
    const due = (await ctx.app.services.bounties.get(r.id)).revision_due_at as string;
    const page = await web.get(devSession, '/console');
    const claimCard = new RegExp(`<article class="card claim" id="claim-${r.id}">[\\s\\S]*?</article>`).exec(
      page.body,
    )?.[0] as string;
    for (const shown of [
      'status-changes_requested">changes requested</span>',
      '<strong>Changes requested</strong>',
      // Markdown, rendered safely: the tag shown as text, the line break kept.
      '<blockquote class="review-notes"><div class="md"><p>Add a test for &lt;tabs&gt;,<br>\nand keep the old behaviour.</p>\n</div></blockquote>',
      `<time datetime="${due}">${due.slice(0, 16).replace('T', ' ')} UTC</time>`,
      '(in 2 d 0 h)',
      'Time left: <strong>2 d 0 h</strong>',
      'Push your changes to the same branch',
      `action="/console/bounties/${r.id}/submit"`,
      `value="${r.prUrl}"`,
      'Submit again for review',
    ])
      expect(claimCard).toContain(shown);
    const row = /<tbody>[\s\S]*?<\/tbody>/.exec(page.body.slice(page.body.indexOf('id="subs-h"')))?.[0] ?? '';
    expect(row).toContain('status-changes_requested">changes requested</span>');
  });

  it('submits the same pull request again, and the founder approves it with the amounts shown', async () => {
    ctx.clock.advance(HOUR);
    const again = await web.submit(devSession, `/console/bounties/${r.id}/submit`, { pr_url: r.prUrl });
    expect(again.flash).toContain('submitted again');
    expect(await status(r.id)).toBe('in_review');
    const card = cardOf((await web.get(founderSession, '/console/reviews')).body, r.id);
    expect(card).toContain('sent back for changes 1 time before');
    const approved = await web.submit(founderSession, `/console/bounties/${r.id}/approve`, {
      review_notes: 'Thanks',
    });
    expect(approved.flash).toContain('Approved and paid');
    const { status: now, submissions } = await ctx.app.services.bounties.get(r.id);
    expect([now, ...submissions.map((s) => s.status)]).toEqual(['done', 'approved', 'changes_requested']);
  });
});
