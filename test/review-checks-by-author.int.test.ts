import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pullRequestLine } from '../clients/cli/commands/review-report.ts';
import { submissions } from '../src/infra/db/schema.ts';
import type { CommitCheck } from '../src/infra/repo-host/repo-host.ts';
import { getBounty, ok } from './helpers/bounty-flows.ts';
import { webhookApp } from './helpers/builders.ts';
import { FakeRepoHost, fakeHeadSha } from './helpers/fake-repo-host.ts';
import { browserless } from './helpers/web-forms.ts';
import type { Scene } from './helpers/webhook-flows.ts';

/**
 * Closed to abuse, statuses with an author (issue 26): a submission's `pull_request.checks` counts
 * the founder's statuses and the repository's integrations' only; the contributor's own are
 * reported apart under `checks.by_author`, and anyone else's (a stranger with a pull request on
 * the same commit) nowhere. Every surface that shows checks shows them so.
 */

const { host, ctx, kit } = webhookApp(new FakeRepoHost());

const status = (name: string, state: CommitCheck['state'], creator: string | null): CommitCheck => ({
  kind: 'status',
  name,
  state,
  creator,
  integration: false,
});

/** The founder's CI passes, an app's run passes; the author says it fails; a stranger and nobody say so too. */
const checksOf = (s: Scene): CommitCheck[] => [
  status('founder-ci', 'success', s.founderLogin.toUpperCase()),
  { kind: 'check_run', name: 'build', state: 'success', creator: 'ci-app[bot]', integration: true },
  status('my-ci', 'failure', s.devLogin),
  status('forged', 'failure', 'stranger'),
  status('nameless', 'failure', null),
];

const COUNTED = {
  state: 'success',
  total: 2,
  failed: 0,
  by_author: { state: 'failure', total: 1, failed: 1 },
};

async function pullRequestOf(s: Scene) {
  const bounty = ok<{ bounty: { submissions: { id: string; pull_request: Record<string, unknown> }[] } }>(
    await getBounty(ctx.app, s.bounty.id),
  ).bounty;
  return bounty.submissions.find((x) => x.id === s.submissionId)?.pull_request;
}

describe("a submission's checks", () => {
  it("count the founder's and the integrations' statuses, and report the contributor's own under by_author", async () => {
    const s = await kit.inReview();
    const sha = fakeHeadSha(s.prUrl);
    expect((await pullRequestOf(s))?.checks).toEqual({
      state: 'none',
      total: 0,
      failed: 0,
      by_author: { state: 'none', total: 0, failed: 0 },
    });
    host.setCheckList(sha, checksOf(s));
    const fullName = new URL(s.repoUrl).pathname.slice(1);
    ok(
      await kit.deliver({ sha, state: 'failure', repository: { full_name: fullName } }, { event: 'status' }),
    );
    const pr = await pullRequestOf(s);
    expect(pr?.checks).toEqual(COUNTED);

    // The CLI's review line, the console's queue and the MCP review prompt say the same.
    expect(pullRequestLine(pr as never)).toContain(
      "checks: success (2/2) · author's own: failure (1 of 1 failed), not counted",
    );
    const web = browserless(ctx.app);
    const page = await web.get(await web.signIn(s.founder.apiKey), '/console/reviews');
    expect(page.body).toContain('<span aria-hidden="true">✓</span> 2 checks passed');
    expect(page.body).toMatch(
      /the contributor's own: <span aria-hidden="true">✗<\/span> 1 of 1 check failed \(not counted\)/,
    );
    const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'review-checks-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${s.founder.apiKey}` } },
      }),
    );
    try {
      const prompt = await client.getPrompt({
        name: 'review_submission',
        arguments: { bounty_id: s.bounty.id },
      });
      const text = prompt.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
      expect(text).toContain('checks success (2).');
      expect(text).toContain(
        'statuses the contributor set itself: failing (1 of 1) (its own claim, not counted)',
      );
    } finally {
      await client.close();
    }
  });

  it("are read with the founder's login at a resubmission, before any delivery", async () => {
    const s = await kit.inReview();
    ok(
      await ctx.app.inject({
        method: 'POST',
        url: `/api/bounties/${s.bounty.id}/request-changes`,
        headers: s.founder.headers,
        payload: { review_notes: 'Make the founder CI pass.' },
      }),
    );
    // Only the author now says it passes: that is no passing check.
    host.setCheckList(fakeHeadSha(s.prUrl), [
      status('founder-ci', 'failure', s.founderLogin),
      status('my-ci', 'success', s.devLogin),
    ]);
    const again = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${s.bounty.id}/submit`,
      headers: s.dev.headers,
      payload: { pr_url: s.prUrl },
    });
    const submission = ok<{ submission: { pull_request: { checks: unknown } } }>(again, 201).submission;
    expect(submission.pull_request.checks).toEqual({
      state: 'failure',
      total: 1,
      failed: 1,
      by_author: { state: 'success', total: 1, failed: 0 },
    });
  });

  it("stored before they had by_author, show none of the author's own", async () => {
    const s = await kit.inReview();
    await ctx.database.db
      .update(submissions)
      .set({
        pullRequest: sql`jsonb_set(${submissions.pullRequest}, '{checks}', (${submissions.pullRequest} -> 'checks') - 'by_author')`,
      })
      .where(eq(submissions.id, s.submissionId));
    const [row] = await ctx.database.db.select().from(submissions).where(eq(submissions.id, s.submissionId));
    expect(row?.pullRequest?.checks).not.toHaveProperty('by_author');
    expect((await pullRequestOf(s))?.checks).toEqual({
      state: 'none',
      total: 0,
      failed: 0,
      by_author: { state: 'none', total: 0, failed: 0 },
    });
  });
});
