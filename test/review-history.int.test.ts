import { describe, expect, it } from 'vitest';
import type { CommitComparison } from '../src/infra/repo-host/repo-host.ts';
import { expectError, registerAgent, type TestAgent } from './helpers/app.ts';
import { ok } from './helpers/bounty-flows.ts';
import { webhookApp } from './helpers/builders.ts';
import { FakeRepoHost, fakeHeadSha } from './helpers/fake-repo-host.ts';
import { prPayload, type Scene } from './helpers/webhook-flows.ts';

/**
 * The review's history (contract, "Review as on GitHub"): a resubmission's `pull_request` names the
 * head the founder last reviewed (`reviewed_head_sha`), kept through the host's refreshes of the
 * submission sent back; the queue lists each item's earlier rounds (`earlier_reviews`) and the
 * bounties waiting for their contributor (`waiting`); the changes since the reviewed head are the
 * host's compare of the two heads.
 */

const { host, ctx, kit } = webhookApp(new FakeRepoHost());

interface Report {
  head_sha: string | null;
  reviewed_head_sha: string | null;
  body: string | null;
}
interface Sub {
  id: string;
  status: string;
  review_notes: string | null;
  reviewed_at: string | null;
  pull_request: Report | null;
}
interface Queue {
  reviews: { bounty: { id: string }; submission: Sub; earlier_reviews: Record<string, unknown>[] }[];
  waiting: { bounty: { id: string; status: string; revision_due_at: string | null }; submission: Sub }[];
}

const requestChanges = (s: Scene, notes: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/bounties/${s.bounty.id}/request-changes`,
    headers: s.founder.headers,
    payload: { review_notes: notes },
  });
const resubmit = async (s: Scene) => {
  ctx.clock.tick();
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/bounties/${s.bounty.id}/submit`,
    headers: s.dev.headers,
    payload: { pr_url: s.prUrl },
  });
  return ok<{ submission: Sub }>(res, 201).submission;
};
const submissionsOf = async (s: Scene) =>
  ok<{ bounty: { submissions: Sub[] } }>(
    await ctx.app.inject({ method: 'GET', url: `/api/bounties/${s.bounty.id}` }),
  ).bounty.submissions;
const queueOf = async (who: TestAgent) =>
  ok<Queue>(await ctx.app.inject({ method: 'GET', url: '/api/reviews?limit=100', headers: who.headers }));
const changesOf = (s: Scene, submissionId: string, who: TestAgent = s.founder) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/bounties/${s.bounty.id}/submissions/${submissionId}/changes`,
    headers: who.headers,
  });

/** The contributor pushes a new head to the pull request; the host's synchronize delivery follows. */
async function push(s: Scene, head: string, body: string | null = null) {
  host.setPullRequest(s.prUrl, { state: 'open', authorLogin: s.devLogin, headSha: head, body });
  ok(await kit.deliver(prPayload(s.prUrl, { action: 'synchronize', merged: false })));
}

const partsOf = (s: Scene) => {
  const [owner = '', repo = ''] = new URL(s.repoUrl).pathname.slice(1).split('/');
  return { owner, repo };
};

describe('reviewed_head_sha and the description on the pull request report', () => {
  it('names the head sent back on the resubmission, kept through refreshes of the submission sent back', async () => {
    const s = await kit.inReview();
    const first = fakeHeadSha(s.prUrl);
    const [initial] = await submissionsOf(s);
    expect(initial?.pull_request).toMatchObject({ head_sha: first, reviewed_head_sha: null, body: null });

    ok(await requestChanges(s, 'Handle the empty list.'));
    const second = 'a'.repeat(40);
    await push(s, second, 'Fixes the empty list.\nAnd adds a test.');
    // The submission sent back follows the new head, but remembers the head reviewed.
    const [sentBack] = await submissionsOf(s);
    expect(sentBack).toMatchObject({ status: 'changes_requested' });
    expect(sentBack?.pull_request).toMatchObject({ head_sha: second, reviewed_head_sha: first });

    const again = await resubmit(s);
    expect(again.pull_request).toMatchObject({
      head_sha: second,
      reviewed_head_sha: first,
      body: 'Fixes the empty list.\nAnd adds a test.',
    });
    // A refresh of the pending resubmission keeps it too.
    await push(s, 'b'.repeat(40));
    expect((await submissionsOf(s))[0]?.pull_request).toMatchObject({
      head_sha: 'b'.repeat(40),
      reviewed_head_sha: first,
      body: null,
    });

    // A second round: the head the founder reviewed last.
    ok(await requestChanges(s, 'One more thing.'));
    await push(s, 'c'.repeat(40));
    expect((await resubmit(s)).pull_request).toMatchObject({
      head_sha: 'c'.repeat(40),
      reviewed_head_sha: 'b'.repeat(40),
    });
  });
});

describe('the review queue: earlier reviews and the bounties waiting for their contributor', () => {
  it('lists a sent-back bounty as waiting until it is submitted again, then its earlier rounds on the item', async () => {
    const s = await kit.inReview();
    const first = fakeHeadSha(s.prUrl);
    const before = await queueOf(s.founder);
    expect(before.reviews.find((r) => r.bounty.id === s.bounty.id)?.earlier_reviews).toEqual([]);
    expect(before.waiting).toEqual([]);

    const sent = ok<{ revision_due_at: string }>(await requestChanges(s, 'Rename the flag.'));
    const waiting = await queueOf(s.founder);
    expect(waiting.reviews.map((r) => r.bounty.id)).not.toContain(s.bounty.id);
    expect(waiting.waiting).toHaveLength(1);
    expect(waiting.waiting[0]?.bounty).toMatchObject({
      id: s.bounty.id,
      status: 'claimed',
      revision_due_at: sent.revision_due_at,
    });
    expect(waiting.waiting[0]?.submission).toMatchObject({
      id: s.submissionId,
      status: 'changes_requested',
      review_notes: 'Rename the flag.',
    });
    // Neither the contributor nor another founder sees it.
    expect((await queueOf(s.dev)).waiting).toEqual([]);
    const other = await kit.inReview();
    expect((await queueOf(other.founder)).waiting).toEqual([]);
    expect((await queueOf(other.founder)).reviews.map((r) => r.bounty.id)).toEqual([other.bounty.id]);

    await push(s, 'd'.repeat(40));
    const again = await resubmit(s);
    const after = await queueOf(s.founder);
    expect(after.waiting).toEqual([]);
    const item = after.reviews.find((r) => r.bounty.id === s.bounty.id);
    expect(item?.submission.id).toBe(again.id);
    const [sentBack] = (await submissionsOf(s)).filter((x) => x.status === 'changes_requested');
    expect(item?.earlier_reviews).toEqual([
      {
        id: s.submissionId,
        pr_url: s.prUrl,
        review_notes: 'Rename the flag.',
        reviewed_at: sentBack?.reviewed_at,
        head_sha: first,
      },
    ]);

    // A second round lists both, newest first.
    ok(await requestChanges(s, 'Now the docs.'));
    expect((await queueOf(s.founder)).waiting.map((w) => w.submission.id)).toEqual([again.id]);
    await resubmit(s);
    const rounds = (await queueOf(s.founder)).reviews.find(
      (r) => r.bounty.id === s.bounty.id,
    )?.earlier_reviews;
    expect(rounds?.map((r) => [r.id, r.review_notes, r.head_sha])).toEqual([
      [again.id, 'Now the docs.', 'd'.repeat(40)],
      [s.submissionId, 'Rename the flag.', first],
    ]);
    expect((await queueOf(other.founder)).reviews.every((r) => r.earlier_reviews.length === 0)).toBe(true);
  });
});

describe('GET /api/bounties/{id}/submissions/{submission_id}/changes', () => {
  const comparison: CommitComparison = {
    totalCommits: 1,
    commits: [{ sha: 'e'.repeat(40), authorName: 'Dev', message: 'Handle the empty list' }],
    files: [
      {
        filename: 'src/list.ts',
        status: 'modified',
        additions: 2,
        deletions: 1,
        patch: '@@ -1 +1,2 @@\n-a\n+b\n+c',
      },
    ],
  };

  it("answers the host's compare of the reviewed head with the head now, to the founder and the author", async () => {
    const s = await kit.inReview();
    // A first submission: nothing reviewed before it.
    expect(ok(await changesOf(s, s.submissionId))).toEqual({
      submission_id: s.submissionId,
      reviewed_head_sha: null,
      head_sha: fakeHeadSha(s.prUrl),
      changes: null,
    });
    ok(await requestChanges(s, 'Handle the empty list.'));
    await push(s, 'e'.repeat(40));
    const again = await resubmit(s);
    const { owner, repo } = partsOf(s);
    host.setComparison(owner, repo, fakeHeadSha(s.prUrl), 'e'.repeat(40), comparison);
    const expected = {
      submission_id: again.id,
      reviewed_head_sha: fakeHeadSha(s.prUrl),
      head_sha: 'e'.repeat(40),
      changes: {
        total_commits: 1,
        commits: [{ sha: 'e'.repeat(40), author_name: 'Dev', message: 'Handle the empty list' }],
        files: comparison.files,
      },
    };
    expect(ok(await changesOf(s, again.id))).toEqual(expected);
    expect(ok(await changesOf(s, again.id, s.dev))).toEqual(expected);
    // The host no longer has the reviewed commit.
    host.setComparison(owner, repo, fakeHeadSha(s.prUrl), 'e'.repeat(40), null);
    expect(ok<{ changes: unknown }>(await changesOf(s, again.id)).changes).toBeNull();
  });

  it('is 403 for anyone else, 404 for a submission of another bounty, 401 without a key', async () => {
    const s = await kit.inReview();
    const other = await kit.inReview();
    const stranger = await registerAgent(ctx.app);
    expectError(await changesOf(s, s.submissionId, stranger), 403, 'forbidden');
    expectError(await changesOf(s, s.submissionId, other.founder), 403, 'forbidden');
    expectError(await changesOf(s, other.submissionId), 404, 'not_found');
    expectError(await changesOf(s, 'sub_nope'), 404, 'not_found');
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: `/api/bounties/${s.bounty.id}/submissions/${s.submissionId}/changes`,
    });
    expectError(anonymous, 401, 'unauthorized');
  });
});
