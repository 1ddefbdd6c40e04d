import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { payouts } from '../src/infra/db/schema.ts';
import { buildTestApp, expectError, registerAgent, type TestContext } from './helpers/app.ts';
import { approve, claim, ok, reject, submit } from './helpers/bounty-flows.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { setRepoLogin } from './helpers/repo-login.ts';
import { loginOf, prPayload, type Scene, webhookKit } from './helpers/webhook-flows.ts';

/**
 * "A payout whose contributor leg cannot succeed never wedges a bounty: the founder can still
 * reject it, and the committed reward is released", even after the founder merged the work.
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
afterEach(() => {
  chain.revertNextTo = null;
});

const legsOf = (s: Scene) =>
  chain.transfers
    .filter((t) => t.tokenAddress === lower(s.tokenAddress))
    .map((t) => [t.to === lower(chain.info.treasuryAddress) ? 'fee' : t.to, t.status]);

async function committed(s: Scene): Promise<string> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/projects/${s.project.id}/approval-status`,
    headers: s.founder.headers,
  });
  return ok<{ committed: string }>(res).committed;
}

async function payoutOf(submissionId: string) {
  const [row] = await ctx.database.db.select().from(payouts).where(eq(payouts.submissionId, submissionId));
  return row;
}

/**
 * The reward, released from the rejected submission, backs the bounty again: another agent claims
 * it and is paid in full; the first contributor never is.
 */
async function expectReleased(s: Scene, reward: number) {
  expect(await committed(s)).toBe(String(reward));
  const next = await registerAgent(ctx.app);
  await setRepoLogin(ctx, next.id, loginOf(next, 'next'));
  ok(await claim(ctx.app, next, s.bounty.id));
  const pr = 900 + Number(s.prUrl.split('/').pop());
  host.setPullRequest(`${s.repoUrl}/pull/${pr}`, { state: 'open', authorLogin: loginOf(next, 'next') });
  ok(await submit(ctx.app, next, s.bounty.id, s.repoUrl, pr), 201);
  expect(ok(await approve(ctx.app, s.founder, s.bounty.id)).status).toBe('done');
  expect(await committed(s)).toBe('0');
  expect(
    legsOf(s).filter(([to, status]) => to === lower(s.dev.walletAddress as string) && status === 'success'),
  ).toEqual([]);
  expect(
    legsOf(s).filter(([to, status]) => to === lower(next.walletAddress as string) && status === 'success'),
  ).toHaveLength(1);
}

describe('reject when the contributor leg cannot succeed', () => {
  it('rejects a bounty whose contributor leg reverted (its fee leg mined); the reward is released', async () => {
    const s = await kit.inReview(40);
    expect(await committed(s)).toBe('40');
    chain.revertNextTo = s.dev.walletAddress;
    expectError(await approve(ctx.app, s.founder, s.bounty.id), 502, 'upstream_error');
    expect(legsOf(s)).toEqual([
      [lower(s.dev.walletAddress as string), 'reverted'],
      ['fee', 'success'],
    ]);
    const body = ok(await reject(ctx.app, s.founder, s.bounty.id, 'The reward cannot reach you.'));
    expect(body).toEqual({ bounty_id: s.bounty.id, status: 'open', submission_id: s.submissionId });
    expect(await kit.bountyState(s)).toMatchObject({ status: 'open', payment_owed: false });
    // Closed: nothing will ever be signed for the rejected submission again.
    expect(await payoutOf(s.submissionId)).toMatchObject({
      status: 'failed',
      lastError: 'submission rejected',
    });
    await expectReleased(s, 40);
  });

  it('rejects after the founder merged, when the contributor leg reverted: liveness wins over the owed flag', async () => {
    const s = await kit.inReview(30);
    kit.mergeOnHost(s);
    chain.revertNextTo = s.dev.walletAddress;
    expect(ok(await kit.deliver(prPayload(s.prUrl)))).toMatchObject({
      status: 'payout_failed',
      reason: 'upstream_error',
    });
    expect(await kit.bountyState(s)).toMatchObject({ status: 'in_review', payment_owed: true });
    ok(await reject(ctx.app, s.founder, s.bounty.id, 'Your wallet cannot receive the reward.'));
    const b = await kit.bountyState(s);
    expect(b).toMatchObject({ status: 'open', payment_owed: false });
    expect(b.submissions[0]).toMatchObject({ status: 'rejected', founder_merged: true });
    await expectReleased(s, 30);
  });
});
