import { getAddress, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { createBounty, registerAgent } from './helpers/app.ts';
import { chainAppForFile, fundedChainProject } from './helpers/builders.ts';
import { tokenBalance, transferLogs } from './helpers/chain.ts';

describe('approve pays on a real chain', () => {
  const { ctx, tc } = chainAppForFile();

  it('moves reward minus fee to the contributor and the fee to the treasury, once', async () => {
    const founder = await registerAgent(ctx.app, { wallet_address: tc.account(3).address });
    const dev = await registerAgent(ctx.app, { wallet_address: tc.account(4).address });
    const funds = { account: 3, eth: 10n ** 18n, allowance: 1000n * 10n ** 18n };
    const project = await fundedChainProject(ctx, tc, founder, funds);
    const { tokenAddress, repoUrl } = project;
    const bounty = await createBounty(ctx.app, founder, project.id, { reward_amount: 100 });
    await ctx.app.inject({ method: 'POST', url: `/api/bounties/${bounty.id}/claim`, headers: dev.headers });
    await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${bounty.id}/submit`,
      headers: dev.headers,
      payload: { pr_url: `${repoUrl}/pull/1` },
    });
    const founderBefore = await tokenBalance(tc, tokenAddress, founder.walletAddress as string);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${bounty.id}/approve`,
      headers: founder.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const unit = 10n ** 18n;
    expect(await tokenBalance(tc, tokenAddress, dev.walletAddress as string)).toBe(95n * unit);
    expect(await tokenBalance(tc, tokenAddress, tc.chain.info.treasuryAddress as string)).toBe(5n * unit);
    expect(await tokenBalance(tc, tokenAddress, founder.walletAddress as string)).toBe(
      founderBefore - 100n * unit,
    );
    // One transaction, a router call by the payout key, makes both transfers: the answer names
    // it as both the contributor's and the fee's.
    const hash = res.json().contributor_tx_hash as Hex;
    expect(res.json().platform_fee_tx_hash).toBe(hash);
    const tx = await tc.pub.getTransaction({ hash });
    expect([getAddress(tx.from), tx.to && getAddress(tx.to)]).toEqual([
      getAddress(tc.chain.payoutSigner.address),
      getAddress(tc.chain.info.payoutSpenderAddress as string),
    ]);
    const logs = (await transferLogs(tc, tokenAddress)).filter(
      (l) => l.from.toLowerCase() === (founder.walletAddress as string).toLowerCase(),
    );
    expect(logs.map((l) => [getAddress(l.to), l.value, l.txHash])).toEqual([
      [getAddress(dev.walletAddress as string), 95n * unit, hash],
      [getAddress(tc.chain.info.treasuryAddress as string), 5n * unit, hash],
    ]);
  });
});
