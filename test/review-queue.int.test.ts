import { describe, expect, it } from 'vitest';
import { expectError, registerAgent, type TestAgent } from './helpers/app.ts';
import { type ActiveProject, activeProject, ok } from './helpers/bounty-flows.ts';
import { appForFile, pullRequestInReview } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { setRepoLogin } from './helpers/repo-login.ts';
import { loginOf } from './helpers/webhook-flows.ts';

/**
 * `GET /api/reviews` (contract, "One source for each use case"): the founder's review queue, every
 * pending submission on its projects with its bounty, oldest first, and `payout` as the payouts
 * module splits the reward. Who sees what, the order, the amounts and the pages. The console, MCP
 * and the CLI showing this same queue: review-queue-surfaces.int.test.ts.
 */

const FEE_BPS = 250;
const TOKEN = 10n ** 18n;

const chain = new FakeChain();
const host = new FakeRepoHost();
const ctx = appForFile({ chain, repoHost: host, env: { PLATFORM_FEE_BPS: String(FEE_BPS) } });

interface Item {
  bounty: { id: string; project_id: string; reward_amount: number; status: string; submissions?: unknown };
  submission: { id: string; bounty_id: string; status: string; created_at: string; pull_request: unknown };
  payout: { contributor_units: string; fee_units: string };
}
interface Queue {
  reviews: Item[];
  total: number;
  limit: number;
  offset: number;
}

/** A new founder's active project (its founder with a host login), or another project of `founder`. */
async function projectOf(founder?: TestAgent, funds = 1_000_000n): Promise<ActiveProject> {
  const p = await activeProject(ctx, chain, funds, founder);
  await setRepoLogin(ctx, p.founder.id, loginOf(p.founder, 'founder'));
  return p;
}

const inReview = (p: ActiveProject, reward = 100) => pullRequestInReview(ctx, host, p, reward);

const queueOf = async (agent: TestAgent, query = '') =>
  ok<Queue>(await ctx.app.inject({ method: 'GET', url: `/api/reviews${query}`, headers: agent.headers }));

const ids = (q: Queue) => q.reviews.map((r) => r.submission.id);

describe('GET /api/reviews', () => {
  it('is empty for an agent with no projects, and for a contributor whose work is in review', async () => {
    const nobody = await registerAgent(ctx.app);
    expect(await queueOf(nobody)).toEqual({ reviews: [], waiting: [], total: 0, limit: 20, offset: 0 });
    const { dev } = await inReview(await projectOf());
    expect(await queueOf(dev)).toEqual({ reviews: [], waiting: [], total: 0, limit: 20, offset: 0 });
  });

  it("lists every pending submission of the founder's projects, oldest first, and no one else's", async () => {
    const one = await projectOf();
    const two = await projectOf(one.founder);
    const other = await projectOf();
    const a = await inReview(one, 80);
    const theirs = await inReview(other, 50);
    const b = await inReview(two, 40);
    const c = await inReview(one, 7);

    const q = await queueOf(one.founder);
    expect(ids(q)).toEqual([a.submissionId, b.submissionId, c.submissionId]);
    expect(q.total).toBe(3);
    const [first] = q.reviews;
    expect(first?.bounty).toMatchObject({ id: a.bountyId, project_id: one.project.id, status: 'in_review' });
    // The bounty as the bounty endpoints render it, without its submissions: the pending one is beside it.
    expect(first?.bounty.submissions).toBeUndefined();
    const detail = ok<{ bounty: Record<string, unknown> & { submissions: Item['submission'][] } }>(
      await ctx.app.inject({ method: 'GET', url: `/api/bounties/${a.bountyId}` }),
    ).bounty;
    const { submissions, ...bounty } = detail;
    expect(first?.bounty).toEqual(bounty);
    expect(first?.submission).toEqual(submissions.find((s) => s.status === 'pending'));
    expect(first?.submission.pull_request).toMatchObject({ state: 'open', author: loginOf(a.dev, 'dev') });

    const others = await queueOf(other.founder);
    expect(ids(others)).toEqual([theirs.submissionId]);
    expect(ids(q)).not.toContain(theirs.submissionId);
  });

  it('splits each reward as the approval pays it: contributor_units and fee_units add up to the reward', async () => {
    const p = await projectOf(undefined, 2_000_000_000n);
    const rewards = [1, 7, 80, 999_999_999];
    for (const reward of rewards) await inReview(p, reward);
    const q = await queueOf(p.founder);
    expect(q.reviews.map((r) => r.bounty.reward_amount)).toEqual(rewards);
    for (const { bounty, payout } of q.reviews) {
      const reward = BigInt(bounty.reward_amount) * TOKEN;
      const fee = (reward * BigInt(FEE_BPS)) / 10_000n;
      expect(payout).toEqual({ contributor_units: (reward - fee).toString(), fee_units: fee.toString() });
      expect(BigInt(payout.contributor_units) + BigInt(payout.fee_units)).toBe(reward);
      const split = ctx.app.services.payouts.split(bounty.reward_amount);
      expect([split.contributorUnits, split.feeUnits]).toEqual([reward - fee, fee]);
    }
    // 7 tokens at 2.5%: the fee is 0.175 tokens, to the base unit.
    expect(q.reviews[1]?.payout.fee_units).toBe('175000000000000000');
  });

  it('pages with limit and offset like the other lists; total counts them all', async () => {
    const p = await projectOf();
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await inReview(p, 10 + i)).submissionId);
    const all = await queueOf(p.founder);
    expect(ids(all)).toEqual(made);
    const first = await queueOf(p.founder, '?limit=2');
    expect(first).toMatchObject({ total: 5, limit: 2, offset: 0 });
    expect(ids(first)).toEqual(made.slice(0, 2));
    const second = await queueOf(p.founder, '?limit=2&offset=2');
    expect(ids(second)).toEqual(made.slice(2, 4));
    const last = await queueOf(p.founder, '?limit=2&offset=4');
    expect(ids(last)).toEqual(made.slice(4));
    const past = await queueOf(p.founder, '?offset=10');
    expect(past).toEqual({ reviews: [], waiting: [], total: 5, limit: 20, offset: 10 });
    for (const query of ['?limit=0', '?limit=101', '?offset=-1', '?cursor=abc']) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/reviews${query}`,
        headers: p.founder.headers,
      });
      expectError(res, 400, 'validation_error');
    }
  });

  it('drops a submission once it is answered; a new submission of the bounty comes last', async () => {
    const p = await projectOf();
    const a = await inReview(p);
    const b = await inReview(p);
    ok(
      await ctx.app.inject({
        method: 'POST',
        url: `/api/bounties/${a.bountyId}/request-changes`,
        headers: p.founder.headers,
        payload: { review_notes: 'Cover the empty input too.' },
      }),
    );
    expect(ids(await queueOf(p.founder))).toEqual([b.submissionId]);
    ctx.clock.tick();
    const again = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${a.bountyId}/submit`,
      headers: a.dev.headers,
      payload: { pr_url: a.prUrl },
    });
    expect(again.statusCode, again.body).toBe(201);
    const resubmitted = (again.json() as { submission: { id: string } }).submission.id;
    const q = await queueOf(p.founder);
    expect(ids(q)).toEqual([b.submissionId, resubmitted]);
    expect(q.total).toBe(2);
  });
});
