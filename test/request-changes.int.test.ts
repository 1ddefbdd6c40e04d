import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activityEvents } from '../src/infra/db/schema.ts';
import { createBounty, expectError, registerAgent } from './helpers/app.ts';
import { activity, claim, ok } from './helpers/bounty-flows.ts';
import { webhookApp } from './helpers/builders.ts';
import { FakeRepoHost, fakeHeadSha } from './helpers/fake-repo-host.ts';
import { prPayload, type Scene } from './helpers/webhook-flows.ts';

const HOUR = 3_600_000;
const REVISION_HOURS = 48;

const { host, ctx, kit } = webhookApp(new FakeRepoHost(), { REVISION_HOURS: String(REVISION_HOURS) });

const requestChanges = (
  s: Scene,
  who = s.founder,
  payload: unknown = { review_notes: 'Add a test for the empty case.' },
) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/bounties/${s.bounty.id}/request-changes`,
    headers: who.headers,
    payload: payload as object,
  });
const submit = (s: Scene, prUrl: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/bounties/${s.bounty.id}/submit`,
    headers: s.dev.headers,
    payload: { pr_url: prUrl },
  });

describe('POST /api/bounties/{id}/request-changes', () => {
  it('sends the submission back: changes_requested, the bounty claimed by the same agent until the deadline, an event', async () => {
    const s = await kit.inReview(80);
    const now = ctx.clock.tick();
    const due = new Date(now.getTime() + REVISION_HOURS * HOUR).toISOString();
    const body = ok<Record<string, string>>(await requestChanges(s));
    expect(body).toEqual({
      bounty_id: s.bounty.id,
      status: 'claimed',
      submission_id: s.submissionId,
      revision_due_at: due,
    });
    const bounty = (await ctx.app.inject({ method: 'GET', url: `/api/bounties/${s.bounty.id}` })).json()
      .bounty;
    expect(bounty).toMatchObject({ status: 'claimed', claimed_by: s.dev.id, revision_due_at: due });
    expect(bounty.submissions[0]).toMatchObject({
      id: s.submissionId,
      status: 'changes_requested',
      review_notes: 'Add a test for the empty case.',
      reviewed_at: now.toISOString(),
    });
    const events = await activity(ctx.app, {
      type: 'submission.changes_requested',
      project_id: s.project.id,
    });
    expect(events).toEqual([
      expect.objectContaining({
        agent_id: s.dev.id,
        bounty_id: s.bounty.id,
        data: {
          submission_id: s.submissionId,
          review_notes: 'Add a test for the empty case.',
          revision_due_at: due,
        },
      }),
    ]);
    expect(await kit.reviewStats(s)).toMatchObject({ changes_requested: 1, reviewed: 1, awaiting_review: 0 });
    // The claim still counts: one active claim per agent per project.
    const other = await createBounty(ctx.app, s.founder, s.project.id, { reward_amount: 5 });
    expectError(await claim(ctx.app, s.dev, other.id), 409, 'claim_limit');
  });

  it('is the founder’s: 403 for the contributor and for anyone else; 400 without notes', async () => {
    const s = await kit.inReview();
    expectError(await requestChanges(s, s.dev), 403, 'forbidden');
    const stranger = await registerAgent(ctx.app);
    expectError(await requestChanges(s, stranger), 403, 'forbidden');
    expectError(
      await ctx.app.inject({
        method: 'POST',
        url: `/api/bounties/${s.bounty.id}/request-changes`,
        payload: { review_notes: 'x' },
      }),
      401,
      'unauthorized',
    );
    for (const payload of [{}, { review_notes: '' }, { review_notes: 'x'.repeat(5001) }]) {
      expectError(await requestChanges(s, s.founder, payload), 400, 'validation_error');
    }
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/bounties/${s.bounty.id}` })).json().bounty.status,
    ).toBe('in_review');
  });

  it('is 400 on a bounty not in review, and 409 payment_owed once the founder merged', async () => {
    const s = await kit.inReview();
    ok(await requestChanges(s));
    // Claimed again (by the same agent): nothing is in review.
    expectError(await requestChanges(s), 400, 'not_in_review');
    const merged = await kit.inReview();
    kit.mergeOnHost(merged);
    const nudges = kit.holdNudges();
    ok(await kit.deliver(prPayload(merged.prUrl)));
    nudges.release();
    expectError(await requestChanges(merged), 409, 'payment_owed');
  });

  it('takes the same pull request again with new commits, or a new one', async () => {
    const s = await kit.inReview();
    ok(await requestChanges(s));
    const again = ok<{ submission: { id: string; status: string; pr_url: string } }>(
      await submit(s, s.prUrl),
      201,
    ).submission;
    expect(again).toMatchObject({ status: 'pending', pr_url: s.prUrl });
    expect(again.id).not.toBe(s.submissionId);
    const bounty = (await ctx.app.inject({ method: 'GET', url: `/api/bounties/${s.bounty.id}` })).json()
      .bounty;
    expect(bounty).toMatchObject({ status: 'in_review', revision_due_at: null });
    expect(bounty.submissions.map((x: { status: string }) => x.status)).toEqual([
      'pending',
      'changes_requested',
    ]);

    ok(await requestChanges(s, s.founder, { review_notes: 'Start over, smaller.' }));
    const fresh = `${s.repoUrl}/pull/9${Date.now() % 100000}`;
    host.setPullRequest(fresh, { state: 'open', authorLogin: s.devLogin });
    expect(ok<{ submission: { pr_url: string } }>(await submit(s, fresh), 201).submission.pr_url).toBe(fresh);
  });

  it('lets the claim lapse at the revision deadline through the claim sweep, after a claim.expiring warning', async () => {
    const s = await kit.inReview();
    ok(await requestChanges(s));
    const sweep = () => ctx.app.services.bounties.expireClaims();
    // Long past claimed_at + CLAIM_TTL_HOURS would not matter: the deadline is what counts.
    ctx.clock.advance(REVISION_HOURS * HOUR - 10 * HOUR);
    await sweep();
    let bounty = (await ctx.app.inject({ method: 'GET', url: `/api/bounties/${s.bounty.id}` })).json().bounty;
    expect(bounty.status).toBe('claimed');
    // Within the warning lead (min(a third of REVISION_HOURS, 24 h) = 16 h): warned once, to the claimant.
    const warnings = await ctx.database.db
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.type, 'claim.expiring'), eq(activityEvents.bountyId, s.bounty.id)));
    expect(warnings).toEqual([
      expect.objectContaining({
        recipients: [s.dev.id],
        data: expect.objectContaining({ expires_at: bounty.revision_due_at, revision: true }),
      }),
    ]);
    ctx.clock.advance(10 * HOUR + 1);
    await sweep();
    bounty = (await ctx.app.inject({ method: 'GET', url: `/api/bounties/${s.bounty.id}` })).json().bounty;
    expect(bounty).toMatchObject({ status: 'open', claimed_by: null, revision_due_at: null });
    const expired = await activity(ctx.app, { type: 'bounty.claim_expired', project_id: s.project.id });
    expect(expired.map((e) => e.bounty_id)).toContain(s.bounty.id);
  });
});

describe('the pull-request report on a submission', () => {
  const detail = async (s: Scene) =>
    (await ctx.app.inject({ method: 'GET', url: `/api/bounties/${s.bounty.id}` })).json().bounty
      .submissions[0];

  it('is read from the host at submit, and refreshed when the host reports checks or new commits', async () => {
    const s = await kit.inReview();
    const sha = fakeHeadSha(s.prUrl);
    const number = Number(s.prUrl.split('/').pop());
    expect((await detail(s)).pull_request).toEqual({
      number,
      title: 'Work',
      author: s.devLogin,
      state: 'open',
      head_sha: sha,
      additions: null,
      deletions: null,
      changed_files: null,
      mergeable: true,
      body: null,
      reviewed_head_sha: null,
      checks: { state: 'none', total: 0, failed: 0, by_author: { state: 'none', total: 0, failed: 0 } },
    });
    // The agent's CI reports on the head commit: a signed status delivery refreshes the report.
    host.setChecks(sha, { state: 'failure', total: 3, failed: 1 });
    const fullName = new URL(s.repoUrl).pathname.slice(1);
    ok(
      await kit.deliver(
        { sha, state: 'failure', context: 'ci', repository: { full_name: fullName } },
        { event: 'status' },
      ),
    );
    expect((await detail(s)).pull_request.checks).toEqual({
      state: 'failure',
      total: 3,
      failed: 1,
      by_author: { state: 'none', total: 0, failed: 0 },
    });
    // New commits: the host's synchronize delivery carries the pull request; the report follows the new head.
    host.setPullRequest(s.prUrl, {
      state: 'open',
      authorLogin: s.devLogin,
      headSha: 'f'.repeat(40),
      additions: 12,
      deletions: 3,
      changedFiles: 2,
      mergeable: false,
    });
    host.setChecks('f'.repeat(40), { state: 'success', total: 3, failed: 0 });
    ok(await kit.deliver(prPayload(s.prUrl, { action: 'synchronize', merged: false })));
    expect((await detail(s)).pull_request).toMatchObject({
      head_sha: 'f'.repeat(40),
      additions: 12,
      deletions: 3,
      changed_files: 2,
      mergeable: false,
      checks: { state: 'success', total: 3, failed: 0 },
    });
  });

  it('follows a submission sent back for changes, and shows a merge', async () => {
    const s = await kit.inReview();
    ok(await requestChanges(s));
    host.setChecks(fakeHeadSha(s.prUrl), { state: 'pending', total: 1, failed: 0 });
    const fullName = new URL(s.repoUrl).pathname.slice(1);
    ok(
      await kit.deliver(
        { sha: fakeHeadSha(s.prUrl), state: 'pending', repository: { full_name: fullName } },
        { event: 'status' },
      ),
    );
    expect(await detail(s)).toMatchObject({
      status: 'changes_requested',
      pull_request: { checks: { state: 'pending' } },
    });
  });
});
