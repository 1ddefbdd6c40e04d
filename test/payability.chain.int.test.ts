import { and, eq, inArray } from 'drizzle-orm';
import { createWalletClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';
import { activityEvents, chainCursors } from '../src/infra/db/schema.ts';
import { WATCHER_CURSOR } from '../src/modules/payability/chain-watcher.ts';
import {
  buildTestApp,
  createBounty,
  createProject,
  registerAgent,
  type TestAgent,
  type TestContext,
} from './helpers/app.ts';
import { chainAppForFile } from './helpers/builders.ts';
import { activateOnChain } from './helpers/chain.ts';
import { ETH, faucet, newVault, ok, post, privateKeyOf, TOKEN } from './helpers/wallets.ts';

describe('payability on a real chain', () => {
  const vault = newVault();
  const { ctx, tc } = chainAppForFile((tc) => ({ chain: tc.chain, vault }));
  let founder: TestAgent;
  let project: { id: string; token: string };
  let bounties: { id: string }[];
  const others: TestContext[] = [];

  beforeAll(async () => {
    founder = await registerAgent(ctx.app, { wallet_address: null });
    await faucet(ctx.app, founder, 10n * ETH);
    const p = await createProject(ctx.app, founder);
    const deployed = await activateOnChain(ctx, tc, p.id, p.token_symbol);
    project = { id: p.id, token: deployed.tokenAddress };
    ok(await post(ctx.app, founder, `/api/projects/${p.id}/buy`, { eth_units: ETH.toString() }));
    ok(await post(ctx.app, founder, `/api/projects/${p.id}/allowance`, { amount: 500 }));
    bounties = [
      await createBounty(ctx.app, founder, p.id, { reward_amount: 300 }),
      await createBounty(ctx.app, founder, p.id, { reward_amount: 200 }),
    ];
  });
  afterAll(async () => {
    for (const o of others) await o.close();
  });

  const flags = async () =>
    Promise.all(
      bounties.map(async (b) => {
        const res = await ctx.app.inject({ method: 'GET', url: `/api/bounties/${b.id}` });
        return res.json().bounty.payable as boolean;
      }),
    );
  const events = async (type: string) =>
    (
      await ctx.database.db
        .select()
        .from(activityEvents)
        .where(
          and(
            eq(activityEvents.type, type),
            inArray(
              activityEvents.bountyId,
              bounties.map((b) => b.id),
            ),
          ),
        )
        .orderBy(activityEvents.id)
    ).map((e) => [e.bountyId, e.recipients]);
  const cursor = async () =>
    (await ctx.database.db.select().from(chainCursors).where(eq(chainCursors.name, WATCHER_CURSOR)))[0];

  /** The founder's own key signs approve(payoutRouter, tokens) straight to the chain, bypassing the service. */
  async function approveDirectly(tokens: bigint): Promise<bigint> {
    const account = privateKeyToAccount(await privateKeyOf(ctx, vault, founder.id));
    const wallet = createWalletClient({ account, chain: foundry, transport: http(tc.rpcUrl) });
    const hash = await wallet.writeContract({
      address: getAddress(project.token),
      abi: projectTokenAbi,
      functionName: 'approve',
      args: [getAddress(tc.chain.info.payoutSpenderAddress as string), tokens * TOKEN],
    });
    return (await tc.pub.waitForTransactionReceipt({ hash })).blockNumber;
  }

  /** What the founder lets `spender` move, read from the token itself. */
  function allowanceFor(spender: string): Promise<bigint> {
    return tc.pub.readContract({
      address: getAddress(project.token),
      abi: projectTokenAbi,
      functionName: 'allowance',
      args: [getAddress(founder.walletAddress as string), getAddress(spender)],
    });
  }

  it("follows the service's own allowance change at once", async () => {
    // The service's allowance names the payout router, the spender that pays both reward and fee
    // in one transaction; the payout key itself is never approved.
    expect(await allowanceFor(tc.chain.info.payoutSpenderAddress as string)).toBe(500n * TOKEN);
    expect(await allowanceFor(tc.chain.payoutSigner.address)).toBe(0n);
    expect(getAddress(tc.chain.info.payoutSpenderAddress as string)).not.toBe(
      getAddress(tc.chain.payoutSigner.address),
    );
    expect(await flags()).toEqual([true, true]);
    ok(await post(ctx.app, founder, `/api/projects/${project.id}/allowance`, { amount: 400 }));
    expect(await allowanceFor(tc.chain.info.payoutSpenderAddress as string)).toBe(400n * TOKEN);
    expect(await flags()).toEqual([true, false]);
    expect(await events('bounty.unpayable')).toEqual([[bounties[1]?.id, [founder.id]]]);
    ok(await post(ctx.app, founder, `/api/projects/${project.id}/allowance`, { amount: 500 }));
    expect(await flags()).toEqual([true, true]);
  });

  it('flips payable and records bounty.unpayable within 30 s of an allowance revoked on chain directly', async () => {
    const watcher = ctx.app.services.chainWatcher;
    expect(await watcher.poll()).toMatchObject({ status: 'polled' });
    const before = await events('bounty.unpayable');
    const block = await approveDirectly(0n);
    // The service has not been told: only the chain knows.
    expect(await flags()).toEqual([true, true]);

    const deadline = Date.now() + 30_000;
    while ((await flags()).some(Boolean) && Date.now() < deadline) {
      await watcher.poll();
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await flags()).toEqual([false, false]);
    expect((await events('bounty.unpayable')).slice(before.length)).toEqual(
      bounties.map((b) => [b.id, [founder.id]]),
    );
    expect(BigInt((await cursor())?.blockNumber ?? 0)).toBeGreaterThanOrEqual(block);
  }, 60_000);

  it('polls only in the lease holder, and a new instance resumes from the stored cursor', async () => {
    const next = await buildTestApp({ chain: tc.chain, database: ctx.database, clock: ctx.clock, vault });
    others.push(next);
    expect(await next.app.services.chainWatcher.poll()).toEqual({ status: 'standby' });

    // The holder shuts down; while nobody follows the chain the founder restores the allowance.
    await ctx.app.services.chainWatcher.release();
    const stopped = BigInt((await cursor())?.blockNumber ?? 0);
    const block = await approveDirectly(500n);
    expect(await flags()).toEqual([false, false]);

    const result = await next.app.services.chainWatcher.poll();
    expect(result).toMatchObject({ status: 'polled', fromBlock: stopped + 1n, projects: [project.id] });
    expect(result.status === 'polled' && result.toBlock >= block).toBe(true);
    expect(await flags()).toEqual([true, true]);
    expect((await events('bounty.payable')).slice(-2)).toEqual(bounties.map((b) => [b.id, [founder.id]]));
  });
});
