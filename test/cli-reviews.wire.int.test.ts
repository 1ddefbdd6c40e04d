import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, registerAgent, type TestContext } from './helpers/app.ts';
import { cliEnv, configDirs, runBounty } from './helpers/cli.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost, fakeHeadSha } from './helpers/fake-repo-host.ts';
import { webhookKit } from './helpers/webhook-flows.ts';

/**
 * The founder's review commands through the CLI against a real app on a fake chain and repository
 * host: the queue with checks and amounts, request-changes, show, and the review history.
 */

const freshConfig = configDirs();

describe('bounty reviews, request-changes and show', () => {
  const REVISION_HOURS = 36;
  let review: TestContext;
  let reviewBase: string;
  let kit: ReturnType<typeof webhookKit>;
  let host: FakeRepoHost;

  beforeAll(async () => {
    const chain = new FakeChain();
    host = new FakeRepoHost();
    review = await buildTestApp({ chain, repoHost: host, env: { REVISION_HOURS: String(REVISION_HOURS) } });
    kit = webhookKit(review, chain, host);
    reviewBase = await review.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => review?.close());

  it('the queue shows the checks and the amounts; request-changes sends it back; show prints the report', async () => {
    const s = await kit.inReview(100);
    const env = (key: string) => cliEnv(reviewBase, freshConfig(), key);
    host.setPullRequest(s.prUrl, {
      state: 'open',
      authorLogin: s.devLogin,
      title: 'Handle empty input',
      additions: 10,
      deletions: 2,
      changedFiles: 3,
    });
    host.setChecks(fakeHeadSha(s.prUrl), { state: 'success', total: 3, failed: 0 });
    await review.app.services.submissions.refreshReports({ prUrl: s.prUrl });
    const number = s.prUrl.split('/').pop();
    const report = `PR #${number} 'Handle empty input' by ${s.devLogin} · open · +10 −2 in 3 files · mergeable: yes`;

    // The founder's queue: 95 tokens to the contributor and 5 of fee (the default 5%), checks passed.
    const queue = await runBounty(['reviews'], env(s.founder.apiKey));
    expect(queue.code, queue.stderr).toBe(0);
    expect(queue.stdout).toMatch(/REWARD\s+TO CONTRIBUTOR\s+FEE\s+OWED\s+.*\s+CHECKS\s+MERGEABLE\s+PR/);
    // No ETH figure: the fake chain's curve is never read.
    expect(queue.stdout).toMatch(new RegExp(`${s.bounty.id}\\s+100\\s+95\\s+5\\s+no\\s+`));
    expect(queue.stdout).toMatch(
      new RegExp(`${s.submissionId}\\s.*\\ssuccess \\(3/3\\)\\s+yes\\s+${s.prUrl}`),
    );
    // --json prints GET /api/reviews as the service answers it.
    const json = await runBounty(['reviews', '--json'], env(s.founder.apiKey));
    const answered = await review.app.inject({
      method: 'GET',
      url: '/api/reviews',
      headers: s.founder.headers,
    });
    expect(JSON.parse(json.stdout)).toEqual(answered.json());
    expect(JSON.parse(json.stdout).reviews).toEqual([
      expect.objectContaining({
        payout: {
          fee_units: (5n * 10n ** 18n).toString(),
          contributor_units: (95n * 10n ** 18n).toString(),
        },
      }),
    ]);
    const pending = await runBounty(['show', s.bounty.id], env(s.dev.apiKey));
    expect(pending.stdout).toContain(`${report} · checks: success (3/3)`);
    expect(pending.stdout).not.toContain('changes requested');

    // Only the founder sends it back.
    const refused = await runBounty(['request-changes', s.bounty.id, '--notes', 'Mine?'], env(s.dev.apiKey));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: forbidden: /);
    const sent = await runBounty(
      ['request-changes', s.bounty.id, '--notes', 'Cover the empty case.', '--json'],
      env(s.founder.apiKey),
    );
    expect(sent.code, sent.stderr).toBe(0);
    const answer = JSON.parse(sent.stdout);
    expect(answer).toMatchObject({
      bounty_id: s.bounty.id,
      status: 'claimed',
      submission_id: s.submissionId,
    });
    const due = `${answer.revision_due_at.slice(0, 16).replace('T', ' ')} UTC`;
    const again = await runBounty(
      ['request-changes', s.bounty.id, '--notes', 'More.'],
      env(s.founder.apiKey),
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: not_in_review: /);

    // New commits fail a check: `bounty show` (and `bounty bounty`) print the report, deadline and notes.
    host.setChecks(fakeHeadSha(s.prUrl), { state: 'failure', total: 3, failed: 1 });
    await review.app.services.submissions.refreshReports({ prUrl: s.prUrl });
    for (const cmd of ['show', 'bounty']) {
      const shown = await runBounty([cmd, s.bounty.id], env(s.dev.apiKey));
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/status:\s+claimed/);
      expect(shown.stdout).toContain(`${report} · checks: failure (1 of 3 failed)`);
      expect(shown.stdout).toMatch(new RegExp(`review:\\s+changes requested: resubmit by ${due}`));
      expect(shown.stdout).toMatch(/review notes:\s+Cover the empty case\./);
      expect(shown.stdout).toMatch(new RegExp(`${s.submissionId}\\s+changes_requested`));
    }
    const empty = await runBounty(['reviews'], env(s.founder.apiKey));
    expect(empty.stdout).toContain('(nothing to review)');
  });

  it('reviews lists the bounties waiting for their contributor, then the earlier review; changes shows the diff since', async () => {
    const s = await kit.inReview(100);
    const env = (key: string) => cliEnv(reviewBase, freshConfig(), key);
    const sent = await review.app.inject({
      method: 'POST',
      url: `/api/bounties/${s.bounty.id}/request-changes`,
      headers: s.founder.headers,
      payload: { review_notes: 'Cover the empty case.\nAnd the docs.' },
    });
    const due = `${sent.json().revision_due_at.slice(0, 16).replace('T', ' ')} UTC`;
    const waiting = await runBounty(['reviews'], env(s.founder.apiKey));
    expect(waiting.code, waiting.stderr).toBe(0);
    expect(waiting.stdout).toContain('Waiting for the contributor');
    expect(waiting.stdout).toMatch(new RegExp(`${s.bounty.id}\\s.*\\s${due}\\s+Cover the empty case\\.\\n`));

    const reviewed = fakeHeadSha(s.prUrl);
    const pushed = 'e'.repeat(40);
    host.setPullRequest(s.prUrl, { state: 'open', authorLogin: s.devLogin, headSha: pushed });
    const [owner = '', repo = ''] = new URL(s.repoUrl).pathname.slice(1).split('/');
    host.setComparison(owner, repo, reviewed, pushed, {
      totalCommits: 1,
      commits: [{ sha: pushed, authorName: 'Dev', message: 'Cover the empty case' }],
      files: [
        {
          filename: 'src/empty.ts',
          status: 'modified',
          additions: 1,
          deletions: 0,
          patch: '@@ -1 +1,2 @@\n a\n+empty',
        },
      ],
    });
    const resubmitted = await review.app.inject({
      method: 'POST',
      url: `/api/bounties/${s.bounty.id}/submit`,
      headers: s.dev.headers,
      payload: { pr_url: s.prUrl },
    });
    expect(resubmitted.statusCode, resubmitted.body).toBe(201);
    const queue = await runBounty(['reviews'], env(s.founder.apiKey));
    expect(queue.stdout).toContain('(nothing sent back)');
    expect(queue.stdout).toMatch(
      new RegExp(
        `${s.bounty.id}\\s+${s.submissionId}\\s.*\\s${reviewed.slice(0, 7)}\\s+Cover the empty case\\.`,
      ),
    );
    const changes = await runBounty(['changes', s.bounty.id], env(s.founder.apiKey));
    expect(changes.code, changes.stderr).toBe(0);
    expect(changes.stdout).toContain(
      `Since ${reviewed.slice(0, 7)} (your last review) to eeeeeee: 1 commit, 1 file`,
    );
    expect(changes.stdout).toContain('src/empty.ts (modified +1 −0)\n@@ -1 +1,2 @@\n a\n+empty');
    const stranger = await runBounty(['changes', s.bounty.id], env((await registerAgent(review.app)).apiKey));
    expect(stranger.stderr).toMatch(/^error: forbidden: /);
  });
});
