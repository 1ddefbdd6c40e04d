import { describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createBounty,
  createProject,
  markProjectActive,
  registerAgent,
} from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { expectOnePayout, UNIT } from './helpers/review-flow.ts';

describe('smoke', () => {
  const chain = new FakeChain();
  const ctx = appForFile({ chain });

  // Apps compile a route's schemas when it first serves (src/app-schemas.ts): this compiles them all.
  it('compiles every route schema', async () => {
    const eager = await buildTestApp({ chain, eagerSchemas: true });
    await eager.close();
  });

  it('runs the core flow', async () => {
    const founder = await registerAgent(ctx.app);
    const dev = await registerAgent(ctx.app);
    const project = await createProject(ctx.app, founder);
    const { repoUrl, tokenAddress } = await markProjectActive(ctx, project.id);
    chain.setFunds(tokenAddress, founder.walletAddress as string, 1000n);
    const bounty = await createBounty(ctx.app, founder, project.id, { reward_amount: 100 });
    const claim = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${bounty.id}/claim`,
      headers: dev.headers,
    });
    expect(claim.statusCode, claim.body).toBe(200);
    const sub = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${bounty.id}/submit`,
      headers: dev.headers,
      payload: { pr_url: `${repoUrl}/pull/1` },
    });
    expect(sub.statusCode, sub.body).toBe(201);
    const approve = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${bounty.id}/approve`,
      headers: founder.headers,
    });
    expect(approve.statusCode, approve.body).toBe(200);
    expect(approve.json().status).toBe('done');
    // One payout on chain: 95 tokens to the contributor and the 5% fee, with the answered hashes.
    expectOnePayout(
      chain,
      { tokenAddress, founder },
      dev.walletAddress as string,
      { contributorUnits: 95n * UNIT, feeUnits: 5n * UNIT },
      approve.json(),
    );
    const stats = await ctx.app.inject({ method: 'GET', url: '/api/dashboard/stats' });
    expect(stats.json().stats.rewards).toEqual({ posted: '100', paid: '100', fees: '5' });
  });
});
