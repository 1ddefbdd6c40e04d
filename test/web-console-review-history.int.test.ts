import { beforeAll, describe, expect, it } from 'vitest';
import type { PullRequestFile } from '../src/infra/repo-host/repo-host.ts';
import { createBounty, registerAgent, type TestAgent } from './helpers/app.ts';
import { claim, ok } from './helpers/bounty-flows.ts';
import { appForFile, fundedProject } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost, fakeHeadSha } from './helpers/fake-repo-host.ts';
import { type Browserless, browserless } from './helpers/web-forms.ts';

/**
 * The review's history on the console's review page: a resubmission's card shows the founder's
 * earlier notes, the diff of only what changed since the head it reviewed (the host's compare),
 * the whole diff below it, and the pull request's description as safe Markdown; bounties sent back
 * wait in their own list with their deadline and notes until submitted again.
 */

const chain = new FakeChain();
const host = new FakeRepoHost();
const ctx = appForFile({ chain, repoHost: host });
let web: Browserless;
let founder: TestAgent;
let session: string;
let projectId: string;
let repoUrl: string;

beforeAll(async () => {
  web = browserless(ctx.app);
  const active = await fundedProject(ctx, chain, {
    name: 'History Works',
    token_symbol: 'HIST',
    funds: 5000n,
  });
  founder = active.founder;
  projectId = active.project.id;
  repoUrl = active.repoUrl;
  session = await web.signIn(founder.apiKey);
});

const file = (filename: string, patch: string): PullRequestFile => ({
  filename,
  status: 'modified',
  additions: 1,
  deletions: 1,
  patch,
});
const cardOf = (html: string, id: string) =>
  new RegExp(`<article class="card review" id="review-${id}">[\\s\\S]*?</article>`).exec(html)?.[0] ?? '';
const waitingOf = (html: string) =>
  /<section class="console-section" id="waiting"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';

describe('a resubmission on the review page', () => {
  it('shows the earlier notes, only what changed since the reviewed head, and the description; the waiting list meanwhile', async () => {
    const dev = await registerAgent(ctx.app);
    const login = (await ctx.app.services.directory.require(dev.id)).repoLogin as string;
    const bounty = await createBounty(ctx.app, founder, projectId, {
      title: 'Parse tabs',
      reward_amount: 50,
    });
    ok(await claim(ctx.app, dev, bounty.id));
    const prUrl = `${repoUrl}/pull/1`;
    const [owner = '', repo = ''] = repoUrl.split('/').slice(-2);
    const reviewed = fakeHeadSha(prUrl);
    host.setPullRequest(prUrl, { authorLogin: login, title: 'Parse tabs' });
    host.setFiles(owner, repo, 1, [file('src/old.ts', '@@ -1 +1 @@\n-old one\n+old two')]);
    const submit = () =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/bounties/${bounty.id}/submit`,
        headers: dev.headers,
        payload: { pr_url: prUrl },
      });
    ok(await submit(), 201);
    const first = await web.get(session, '/console/reviews');
    expect(cardOf(first.body, bounty.id)).not.toContain('Changed since your last review');
    expect(cardOf(first.body, bounty.id)).not.toContain('earlier review');
    expect(first.body).not.toContain('id="waiting"');

    ok(
      await ctx.app.inject({
        method: 'POST',
        url: `/api/bounties/${bounty.id}/request-changes`,
        headers: founder.headers,
        payload: { review_notes: 'Tabs <b>inside</b> strings too.' },
      }),
    );
    // Waiting for the contributor: the bounty, the notes (escaped) and the deadline.
    const sentBack = waitingOf((await web.get(session, '/console/reviews')).body);
    expect(sentBack).toContain(`href="/bounties/${bounty.id}"`);
    expect(sentBack).toContain('Tabs &lt;b&gt;inside&lt;/b&gt; strings too.');
    expect(sentBack).toMatch(/submit again by <time datetime="[^"]+">/);
    expect(cardOf((await web.get(session, '/console/reviews')).body, bounty.id)).toBe('');

    // The contributor pushes one commit and describes the pull request; the host reports it.
    const pushed = 'e'.repeat(40);
    host.setPullRequest(prUrl, {
      authorLogin: login,
      title: 'Parse tabs',
      headSha: pushed,
      body: 'Handles tabs <script>x</script>\nin strings too.',
    });
    await ctx.app.services.submissions.refreshReports({ prUrl });
    host.setFiles(owner, repo, 1, [
      file('src/old.ts', '@@ -1 +1 @@\n-old one\n+old two'),
      file('src/strings.ts', '@@ -1 +1 @@\n-no tabs\n+tabs in strings'),
    ]);
    host.setComparison(owner, repo, reviewed, pushed, {
      totalCommits: 1,
      commits: [{ sha: pushed, authorName: 'Dev', message: 'Tabs in strings' }],
      files: [file('src/strings.ts', '@@ -1 +1 @@\n-no tabs\n+tabs in strings')],
    });
    ok(await submit(), 201);

    const page = await web.get(session, '/console/reviews');
    expect(page.body).not.toContain('id="waiting"');
    const card = cardOf(page.body, bounty.id);
    expect(card).toContain('Your earlier review of');
    expect(card).toContain('Tabs &lt;b&gt;inside&lt;/b&gt; strings too.');
    expect(card).toContain(`at <code>${reviewed.slice(0, 7)}</code>`);
    expect(card).toContain(
      '<div class="md"><p>Handles tabs &lt;script&gt;x&lt;/script&gt;<br>\nin strings too.</p>',
    );
    expect(card).not.toContain('<script>x');
    const sinceAt = card.indexOf(`Changed since your last review (${reviewed.slice(0, 7)}): 1 new commit`);
    const allAt = card.indexOf('All files changed');
    expect(sinceAt).toBeGreaterThan(-1);
    expect(allAt).toBeGreaterThan(sinceAt);
    // Only the new commit's file since the review; the whole pull request's files below.
    const since = card.slice(sinceAt, allAt);
    expect(since).toContain('src/strings.ts');
    expect(since).not.toContain('src/old.ts');
    expect(card.slice(allAt)).toContain('src/old.ts');
    expect(card.slice(allAt)).toContain('src/strings.ts');

    // The host lost the reviewed commit: the page says so and still shows the whole diff.
    host.setComparison(owner, repo, reviewed, pushed, null);
    const lost = cardOf((await web.get(session, '/console/reviews')).body, bounty.id);
    expect(lost).toContain('no longer has the head you reviewed');
    expect(lost).toContain('src/old.ts');
  });
});
