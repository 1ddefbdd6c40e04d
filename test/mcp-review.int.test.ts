import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenStates } from '../src/infra/db/schema.ts';
import { worthOf } from '../src/lib/curve.ts';
import { registerAgent, type TestAgent } from './helpers/app.ts';
import { listening, webhookApp } from './helpers/builders.ts';
import { FakeRepoHost, fakeHeadSha } from './helpers/fake-repo-host.ts';
import type { Scene } from './helpers/webhook-flows.ts';

/**
 * The founder's review on MCP, on a fake chain and repository host: request_changes sends the work
 * back to its claimant, review_queue carries each pull request's report and what approving pays.
 */

const REVISION_HOURS = 24;
const FEE_BPS = 250;
const TOKEN = 10n ** 18n;

const clients: Client[] = [];

const { host, ctx, kit } = webhookApp(new FakeRepoHost(), {
  REVISION_HOURS: String(REVISION_HOURS),
  PLATFORM_FEE_BPS: String(FEE_BPS),
});
const base = listening(ctx);
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
});

// biome-ignore lint/suspicious/noExplicitAny: tool results, read field by field
type Json = Record<string, any>;

async function as(agent: TestAgent): Promise<Client> {
  const client = new Client({ name: 'mcp-review-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base()}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${agent.apiKey}` } },
    }),
  );
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Json> {
  const res = await call(client, name, args);
  expect(res.isError ?? false, `${name}: ${JSON.stringify(res.content)}`).toBe(false);
  return res.structuredContent as Json;
}

const queueOf = async (s: Scene) =>
  ((await ok(await as(s.founder), 'review_queue')).reviews as Json[]).filter(
    (r) => r.bounty.project_id === s.project.id,
  );

describe('request_changes', () => {
  it('sends the pending submission back: the bounty is claimed by the same agent until revision_due_at', async () => {
    const s = await kit.inReview(40);
    const founder = await as(s.founder);
    const now = ctx.clock.tick();
    const due = new Date(now.getTime() + REVISION_HOURS * 3_600_000).toISOString();
    const sent = await ok(founder, 'request_changes', {
      bounty_id: s.bounty.id,
      review_notes: 'Cover the empty input too.',
    });
    expect(sent).toEqual({
      bounty_id: s.bounty.id,
      status: 'claimed',
      submission_id: s.submissionId,
      revision_due_at: due,
    });
    const { bounty } = await ok(founder, 'get_bounty', { bounty_id: s.bounty.id });
    expect(bounty).toMatchObject({ status: 'claimed', claimed_by: s.dev.id, revision_due_at: due });
    expect(bounty.submissions[0]).toMatchObject({
      id: s.submissionId,
      status: 'changes_requested',
      review_notes: 'Cover the empty input too.',
    });
    // Out of the queue until it is submitted again; a second request finds nothing in review.
    expect(await queueOf(s)).toEqual([]);
    const again = await call(founder, 'request_changes', { bounty_id: s.bounty.id, review_notes: 'More.' });
    expect(again).toMatchObject({ isError: true, structuredContent: { code: 'not_in_review' } });
  });

  it("is the founder's alone: forbidden to the contributor and to anyone else; the notes are checked", async () => {
    const s = await kit.inReview();
    const stranger = await registerAgent(ctx.app);
    for (const agent of [s.dev, stranger]) {
      const res = await call(await as(agent), 'request_changes', {
        bounty_id: s.bounty.id,
        review_notes: 'Not mine to ask.',
      });
      expect(res.isError).toBe(true);
      expect(res.structuredContent).toMatchObject({ code: 'forbidden' });
    }
    const founder = await as(s.founder);
    for (const review_notes of ['', 'x'.repeat(5001)]) {
      const res = await call(founder, 'request_changes', { bounty_id: s.bounty.id, review_notes });
      expect(res.structuredContent).toMatchObject({
        code: 'validation_error',
        details: [expect.objectContaining({ field: expect.stringContaining('review_notes') })],
      });
    }
    expect((await ok(founder, 'get_bounty', { bounty_id: s.bounty.id })).bounty.status).toBe('in_review');
    const listed = (await (await as(s.founder)).listTools()).tools.find((t) => t.name === 'request_changes');
    expect(listed?.annotations).toMatchObject({ destructiveHint: true });
    expect(listed?.inputSchema.required).toEqual(['bounty_id', 'review_notes']);
  });
});

describe('review_queue', () => {
  it("carries the pull request's report and what an approval pays, at the configured fee", async () => {
    const s = await kit.inReview(80);
    // The host reports commits with a failing check; the report is read again as a webhook would.
    host.setPullRequest(s.prUrl, {
      state: 'open',
      authorLogin: s.devLogin,
      title: 'Handle empty input',
      additions: 10,
      deletions: 2,
      changedFiles: 3,
      mergeable: true,
    });
    host.setChecks(fakeHeadSha(s.prUrl), { state: 'failure', total: 3, failed: 1 });
    await ctx.app.services.submissions.refreshReports({ prUrl: s.prUrl });
    // The curve as last read: what the contributor's share sells for now.
    const curve = { a: 10n ** 12n, b: 10n ** 9n, supplyUnits: 10_000n * TOKEN };
    await ctx.database.db.insert(tokenStates).values({
      tokenAddress: s.tokenAddress,
      curveA: curve.a,
      curveB: curve.b,
      supplyUnits: curve.supplyUnits,
      blockNumber: 1n,
      updatedAt: ctx.clock.now(),
    });

    const [review, ...rest] = await queueOf(s);
    expect(rest).toEqual([]);
    expect(review?.bounty).toMatchObject({ id: s.bounty.id, status: 'in_review', reward_amount: 80 });
    expect(review?.bounty.submissions).toBeUndefined();
    expect(review?.submission).toMatchObject({ id: s.submissionId, status: 'pending', pr_url: s.prUrl });
    expect(review?.submission.pull_request).toEqual({
      number: Number(s.prUrl.split('/').pop()),
      title: 'Handle empty input',
      author: s.devLogin,
      state: 'open',
      head_sha: fakeHeadSha(s.prUrl),
      additions: 10,
      deletions: 2,
      changed_files: 3,
      mergeable: true,
      body: null,
      reviewed_head_sha: null,
      checks: { state: 'failure', total: 3, failed: 1, by_author: { state: 'none', total: 0, failed: 0 } },
    });
    // 2.5% of 80 tokens to the treasury, 78 to the contributor, worth what 78 sell for now.
    const contributor = 78n * TOKEN;
    expect(review?.payout).toEqual({
      fee_units: (2n * TOKEN).toString(),
      contributor_units: contributor.toString(),
    });
    expect(review?.bounty.reward_eth_units).toBe(worthOf(curve, contributor).toString());
    // Nobody else's queue shows it.
    expect((await ok(await as(s.dev), 'review_queue')).reviews).toEqual([]);
  });

  it('quotes no ETH before the curve is read, and no size before the host says it', async () => {
    const s = await kit.inReview(7);
    const [review] = await queueOf(s);
    const reward = 7n * TOKEN;
    const fee = (reward * BigInt(FEE_BPS)) / 10_000n;
    expect(review?.payout).toEqual({
      fee_units: fee.toString(),
      contributor_units: (reward - fee).toString(),
    });
    expect(review?.bounty.reward_eth_units).toBeNull();
    // The fake host's defaults: no checks, size unknown.
    expect(review?.submission.pull_request).toMatchObject({
      state: 'open',
      mergeable: true,
      additions: null,
      checks: { state: 'none', total: 0, failed: 0 },
    });
  });
});

describe('review history: waiting, earlier_reviews and review_changes', () => {
  it('lists the bounty sent back as waiting, then the resubmission with its earlier review and what changed since', async () => {
    const s = await kit.inReview(20);
    const founder = await as(s.founder);
    await ok(founder, 'request_changes', { bounty_id: s.bounty.id, review_notes: 'Cover the empty case.' });
    const waiting = ((await ok(founder, 'review_queue')).waiting as Json[]).filter(
      (w) => w.bounty.id === s.bounty.id,
    );
    expect(waiting).toHaveLength(1);
    expect(waiting[0]?.submission).toMatchObject({
      id: s.submissionId,
      review_notes: 'Cover the empty case.',
    });
    expect(waiting[0]?.bounty.revision_due_at).toEqual(expect.any(String));
    expect((await ok(await as(s.dev), 'review_queue')).waiting).toEqual([]);

    const reviewed = fakeHeadSha(s.prUrl);
    const pushed = 'e'.repeat(40);
    host.setPullRequest(s.prUrl, {
      state: 'open',
      authorLogin: s.devLogin,
      headSha: pushed,
      body: 'Now with tests.',
    });
    const [owner = '', repo = ''] = new URL(s.repoUrl).pathname.slice(1).split('/');
    const files = [
      {
        filename: 'test/empty.test.ts',
        status: 'added',
        additions: 3,
        deletions: 0,
        patch: '@@ -0,0 +1,3 @@\n+a\n+b\n+c',
      },
    ];
    host.setComparison(owner, repo, reviewed, pushed, {
      totalCommits: 1,
      commits: [{ sha: pushed, authorName: 'Dev', message: 'Add the test' }],
      files,
    });
    const again = (
      await ok(await as(s.dev), 'submit_pull_request', { bounty_id: s.bounty.id, pr_url: s.prUrl })
    ).submission as Json;
    const [review] = await queueOf(s);
    expect(review?.submission.pull_request).toMatchObject({
      reviewed_head_sha: reviewed,
      body: 'Now with tests.',
    });
    expect(review?.earlier_reviews).toEqual([
      expect.objectContaining({
        id: s.submissionId,
        review_notes: 'Cover the empty case.',
        head_sha: reviewed,
      }),
    ]);
    expect(await ok(founder, 'review_changes', { bounty_id: s.bounty.id, submission_id: again.id })).toEqual({
      submission_id: again.id,
      reviewed_head_sha: reviewed,
      head_sha: pushed,
      changes: {
        total_commits: 1,
        commits: [{ sha: pushed, author_name: 'Dev', message: 'Add the test' }],
        files,
      },
    });
    const stranger = await call(await as(await registerAgent(ctx.app)), 'review_changes', {
      bounty_id: s.bounty.id,
      submission_id: again.id,
    });
    expect(stranger.structuredContent).toMatchObject({ code: 'forbidden' });
  });
});
