import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectError, type TestContext } from './helpers/app.ts';
import { activity, approve, ok, reject } from './helpers/bounty-flows.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { setRepoLogin } from './helpers/repo-login.ts';
import { prPayload, type Scene, webhookKit } from './helpers/webhook-flows.ts';

/**
 * Who gets paid, and who decides, at the merge: a signed merge delivery is checked with the host,
 * recorded with who merged, and only the founder's own merge approves (and makes the reward owed).
 */

const lower = (a: string) => a.toLowerCase();

let ctx: TestContext;
let chain: FakeChain;
let host: FakeRepoHost;
let kit: ReturnType<typeof webhookKit>;

beforeAll(async () => {
  chain = new FakeChain();
  host = new FakeRepoHost();
  ctx = await buildTestApp({ chain, repoHost: host });
  kit = webhookKit(ctx, chain, host);
});
afterAll(() => ctx.close());

const transfersOf = (s: Scene) => chain.transfers.filter((t) => t.tokenAddress === lower(s.tokenAddress));
const mergedEvents = async (s: Scene) =>
  (await activity(ctx.app, { type: 'submission.merged', project_id: s.project.id })).filter(
    (e) => e.bounty_id === s.bounty.id,
  );

describe('merge webhook: only a merge by the founder approves', () => {
  it('a merge by the founder (login compared case-insensitively) pays, and is recorded', async () => {
    const s = await kit.inReview(50);
    kit.mergeOnHost(s, s.founderLogin.toUpperCase());
    const body = ok<Record<string, string>>(await kit.deliver(prPayload(s.prUrl)));
    expect(body).toMatchObject({ status: 'approved', bounty_id: s.bounty.id, submission_id: s.submissionId });
    expect(transfersOf(s).map((t) => t.status)).toEqual(['success', 'success']);
    const b = await kit.bountyState(s);
    expect(b).toMatchObject({ status: 'done', payment_owed: false });
    expect(b.submissions[0]).toMatchObject({
      status: 'approved',
      merged_at: ctx.clock.now().toISOString(),
      merged_by: s.founderLogin.toUpperCase(),
      founder_merged: true,
    });
    expect(await mergedEvents(s)).toEqual([
      expect.objectContaining({
        agent_id: s.dev.id,
        data: {
          submission_id: s.submissionId,
          pr_url: s.prUrl,
          merged_by: s.founderLogin.toUpperCase(),
          by_founder: true,
        },
      }),
    ]);
  });

  it('a merge by anyone else pays nothing, is recorded, and waits for the founder, who can approve', async () => {
    const s = await kit.inReview(40);
    kit.mergeOnHost(s, s.devLogin);
    const id = randomUUID();
    expect(ok(await kit.deliver(prPayload(s.prUrl), { id }))).toEqual({
      status: 'merged',
      bounty_id: s.bounty.id,
      submission_id: s.submissionId,
      merged_by: s.devLogin,
    });
    expect(await kit.recorded(id)).toBe(true);
    expect(chain.signed.filter((t) => t.tokenAddress === lower(s.tokenAddress))).toEqual([]);
    const b = await kit.bountyState(s);
    expect(b).toMatchObject({ status: 'in_review', payment_owed: false });
    expect(b.submissions[0]).toMatchObject({
      status: 'pending',
      merged_by: s.devLogin,
      merged_at: ctx.clock.now().toISOString(),
      founder_merged: false,
    });
    expect((await mergedEvents(s)).map((e) => e.data)).toEqual([
      { submission_id: s.submissionId, pr_url: s.prUrl, merged_by: s.devLogin, by_founder: false },
    ]);
    // Another delivery of the same merge records nothing more and still pays nothing.
    expect(ok(await kit.deliver(prPayload(s.prUrl))).status).toBe('merged');
    expect(await mergedEvents(s)).toHaveLength(1);
    expect(transfersOf(s)).toEqual([]);

    expect(ok(await approve(ctx.app, s.founder, s.bounty.id)).status).toBe('done');
    expect(transfersOf(s).map((t) => t.status)).toEqual(['success', 'success']);
  });

  it('a merge by someone else does not block reject', async () => {
    const s = await kit.inReview(10);
    kit.mergeOnHost(s, 'someone-else');
    expect(ok(await kit.deliver(prPayload(s.prUrl))).status).toBe('merged');
    ok(await reject(ctx.app, s.founder, s.bounty.id));
    expect(await kit.bountyState(s)).toMatchObject({ status: 'open', payment_owed: false });
    expect(transfersOf(s)).toEqual([]);
  });

  it('a founder without a repo_login, or a host that does not say who merged, never auto-approves', async () => {
    const a = await kit.inReview(10);
    await setRepoLogin(ctx, a.founder.id, null);
    kit.mergeOnHost(a, a.founderLogin);
    expect(ok(await kit.deliver(prPayload(a.prUrl))).status).toBe('merged');
    const b = await kit.inReview(10);
    kit.mergeOnHost(b, null);
    expect(ok(await kit.deliver(prPayload(b.prUrl)))).toMatchObject({ status: 'merged', merged_by: null });
    for (const s of [a, b]) {
      expect(await kit.bountyState(s)).toMatchObject({ status: 'in_review', payment_owed: false });
      expect(transfersOf(s)).toEqual([]);
    }
  });

  it('a signed delivery claiming a merge the host does not report pays and records nothing', async () => {
    const s = await kit.inReview(30);
    host.setPullRequest(s.prUrl, { state: 'open', merged: false, authorLogin: s.devLogin });
    const id = randomUUID();
    expect(ok(await kit.deliver(prPayload(s.prUrl), { id }))).toEqual({ status: 'ignored' });
    expect(await kit.recorded(id)).toBe(true);
    host.removePullRequest(s.prUrl);
    expect(ok(await kit.deliver(prPayload(s.prUrl)))).toEqual({ status: 'ignored' });
    const b = await kit.bountyState(s);
    expect(b).toMatchObject({ status: 'in_review', payment_owed: false });
    expect(b.submissions[0]).toMatchObject({ merged_at: null, merged_by: null, founder_merged: false });
    expect(await mergedEvents(s)).toEqual([]);
    expect(chain.signed.filter((t) => t.tokenAddress === lower(s.tokenAddress))).toEqual([]);
  });
});

describe('a founder merge that cannot pay', () => {
  it('records payout.failed for founder and contributor, answers 2xx; reject is 409 until the founder pays', async () => {
    const s = await kit.inReview(25);
    chain.setFunds(s.tokenAddress, s.founder.walletAddress as string, 1_000_000n, 0n);
    kit.mergeOnHost(s);
    const id = randomUUID();
    expect(ok(await kit.deliver(prPayload(s.prUrl), { id }))).toEqual({
      status: 'payout_failed',
      bounty_id: s.bounty.id,
      submission_id: s.submissionId,
      reason: 'insufficient_funds',
    });
    expect(await kit.recorded(id)).toBe(true);
    const failures = await kit.eventsOf(s, 'payout.failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]?.recipients?.toSorted()).toEqual([s.founder.id, s.dev.id].toSorted());
    expect(failures[0]?.data).toEqual({
      submission_id: s.submissionId,
      reason: 'insufficient_funds',
      message: expect.stringContaining('allowance'),
    });
    // Personal: never in the public feed.
    expect((await activity(ctx.app, { project_id: s.project.id })).map((e) => e.type)).not.toContain(
      'payout.failed',
    );

    const refused = expectError(await reject(ctx.app, s.founder, s.bounty.id), 409, 'invalid_state');
    expect(refused.message).toMatch(/owe/);
    expect(refused.message).toMatch(/approve/);
    const b = await kit.bountyState(s);
    expect(b).toMatchObject({ status: 'in_review', payment_owed: true });
    expect(b.submissions[0]).toMatchObject({ status: 'pending', founder_merged: true });

    // Funded, the founder approves and pays; nothing is owed any more.
    chain.setFunds(s.tokenAddress, s.founder.walletAddress as string, 1_000_000n);
    expect(ok(await approve(ctx.app, s.founder, s.bounty.id)).status).toBe('done');
    expect(transfersOf(s).map((t) => t.status)).toEqual(['success', 'success']);
    expect(await kit.bountyState(s)).toMatchObject({ status: 'done', payment_owed: false });
  });

  it('a reject racing the founder merge: either the reject wins and the merge is ignored, or the reward is owed', async () => {
    const s = await kit.inReview(15);
    chain.setFunds(s.tokenAddress, s.founder.walletAddress as string, 1_000_000n, 0n);
    kit.mergeOnHost(s);
    const [delivery, rejected] = await Promise.all([
      kit.deliver(prPayload(s.prUrl)),
      reject(ctx.app, s.founder, s.bounty.id),
    ]);
    const b = await kit.bountyState(s);
    if (rejected.statusCode === 200) {
      expect(ok(delivery).status).toBe('ignored');
      expect(b).toMatchObject({ status: 'open', payment_owed: false });
      expect(await mergedEvents(s)).toEqual([]);
    } else {
      // Refused as owed, or met the auto-approval's lease while it checked the founder's funds.
      expect(rejected.statusCode, rejected.body).toBe(409);
      expect(['invalid_state', 'operation_in_progress']).toContain(rejected.json().error.code);
      expect(ok(delivery).status).toBe('payout_failed');
      expect(b).toMatchObject({ status: 'in_review', payment_owed: true });
    }
    expect(transfersOf(s)).toEqual([]);
  });
});
