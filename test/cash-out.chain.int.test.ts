import { createWalletClient, getAddress, type Hex, http, parseEventLogs } from 'viem';
import { foundry } from 'viem/chains';
import { beforeAll, describe, expect, it } from 'vitest';
import { anvilAccount } from '../src/infra/chain/anvil.ts';
import { bondingCurveAbi } from '../src/infra/chain/contracts/BondingCurve.ts';
import {
  buildTestApp,
  createBounty,
  expectError,
  randomAddress,
  registerAgent,
  type TestAgent,
} from './helpers/app.ts';
import { chainAppForFile, fundedChainProject } from './helpers/builders.ts';
import { tokenBalance, transferLogs } from './helpers/chain.ts';
import { ETH, ethBalance, newVault, ok, post, quoteSell, TOKEN } from './helpers/wallets.ts';

/**
 * Cashing out without ETH, on a real chain: contributors paid by approvals hold tokens and no ETH;
 * the sponsor key sends their signed sales (and pays itself back from them) and their token
 * withdraws. Checked against the token's Transfer logs, the curve's own quotes and receipts.
 */
describe('cashing out with an in-app wallet that holds no ETH', () => {
  const vault = newVault();
  const { ctx, tc } = chainAppForFile((tc) => ({
    chain: tc.chain,
    vault,
    env: { SPONSORED_WITHDRAWALS_PER_DAY: '2' },
  }));
  let founder: TestAgent;
  let project: { id: string; token: string; curve: string; repoUrl: string };
  let prs = 0;

  const wallet = async (a: TestAgent) =>
    ok<{ wallet: Record<string, unknown> }>(
      await ctx.app.inject({ method: 'GET', url: '/api/agents/me/wallet', headers: a.headers }),
    ).wallet as {
      eth_balance_units: string;
      tokens: { project_id: string; balance_units: string; value_eth_units: string; token_address: string }[];
      earnings: { completed: number; earned_eth_units: string; projects: Record<string, unknown>[] };
      sponsored_withdrawals_left: number | null;
    };

  /** A new in-app contributor paid `reward` tokens by an approval: it holds 95% of it and no ETH. */
  async function paidContributor(reward: number): Promise<TestAgent> {
    const dev = await registerAgent(ctx.app, { wallet_address: null });
    const bounty = await createBounty(ctx.app, founder, project.id, { reward_amount: reward });
    ok(await post(ctx.app, dev, `/api/bounties/${bounty.id}/claim`));
    ok(
      await post(ctx.app, dev, `/api/bounties/${bounty.id}/submit`, {
        pr_url: `${project.repoUrl}/pull/${++prs}`,
      }),
      201,
    );
    ok(await post(ctx.app, founder, `/api/bounties/${bounty.id}/approve`));
    return dev;
  }

  beforeAll(async () => {
    founder = await registerAgent(ctx.app, { wallet_address: tc.account(3).address });
    const funds = { account: 3, eth: 20n * ETH, allowance: 10n ** 9n * TOKEN };
    const deployed = await fundedChainProject(ctx, tc, founder, funds);
    project = {
      id: deployed.id,
      token: deployed.tokenAddress,
      curve: deployed.curveAddress,
      repoUrl: deployed.repoUrl,
    };
  });

  it('quotes reward_eth_units and the wallet tokens as the curve itself does, after the watcher read them', async () => {
    const bounty = await createBounty(ctx.app, founder, project.id, { reward_amount: 1000 });
    // The founder's buy happened outside the service: the watcher reads it from the token's logs.
    await ctx.app.services.chainWatcher.poll();
    const listed = ok<{ bounties: { id: string; reward_eth_units: string }[] }>(
      await ctx.app.inject({ method: 'GET', url: `/api/bounties?project_id=${project.id}` }),
    ).bounties.find((b) => b.id === bounty.id);
    // The contributor's share: 1000 tokens less the 5% platform fee.
    expect(listed?.reward_eth_units).toBe((await quoteSell(tc, project.curve, 950n * TOKEN)).toString());
    const one = ok<{ bounty: { reward_eth_units: string } }>(
      await ctx.app.inject({ method: 'GET', url: `/api/bounties/${bounty.id}` }),
    ).bounty;
    expect(one.reward_eth_units).toBe(listed?.reward_eth_units);

    const held = await tokenBalance(tc, project.token, founder.walletAddress as string);
    const mine = (await wallet(founder)).tokens;
    expect(mine).toEqual([
      expect.objectContaining({
        project_id: project.id,
        token_address: project.token,
        balance_units: held.toString(),
        value_eth_units: (await quoteSell(tc, project.curve, held)).toString(),
      }),
    ]);
  });

  it('sells a whole reward for ETH: the sponsor pays the gas and takes back what it paid', async () => {
    const dev = await paidContributor(100);
    const me = dev.walletAddress as string;
    expect(await ethBalance(tc, me)).toBe(0n);
    const before = await wallet(dev);
    const held = 95n * TOKEN;
    expect(before.tokens).toEqual([
      expect.objectContaining({
        balance_units: held.toString(),
        value_eth_units: (await quoteSell(tc, project.curve, held)).toString(),
      }),
    ]);
    expect(before.earnings).toMatchObject({
      completed: 1,
      earned_eth_units: before.tokens[0]?.value_eth_units,
    });
    expect(before.earnings.projects).toEqual([
      expect.objectContaining({ project_id: project.id, earned_units: held.toString(), completed: 1 }),
    ]);
    // Read whole once, the wallet is the database's to answer in one statement (wallet-view.ts):
    // the same answer as the long way (`?fresh=true` reads each part from its owner).
    const again = await wallet(dev);
    const long = ok<{ wallet: unknown }>(
      await ctx.app.inject({ method: 'GET', url: '/api/agents/me/wallet?fresh=true', headers: dev.headers }),
    ).wallet;
    expect(again).toEqual(long);
    expect(again).toEqual(before);

    const proceeds = await quoteSell(tc, project.curve, held);
    const sponsor = tc.chain.sponsor.address as string;
    const sponsorBefore = await ethBalance(tc, sponsor);
    const res = ok(
      await post(ctx.app, dev, `/api/projects/${project.id}/sell`, { tokens_units: held.toString() }),
    );
    expect(res).toMatchObject({ sponsored: true });
    const receipt = await tc.pub.getTransactionReceipt({ hash: res.tx_hash as Hex });
    expect(getAddress(receipt.from)).toBe(getAddress(sponsor));
    const paid = receipt.gasUsed * receipt.effectiveGasPrice;
    const [refund] = parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs, eventName: 'GasRefunded' });
    const gas = BigInt(res.gas_eth_units as string);
    expect(gas).toBe(refund?.args.gasFee);
    // Taken back = what the sponsor paid, within the curve's estimate of its own overhead (1%).
    expect(Number(gas - paid) / Number(paid)).toBeCloseTo(0, 1);
    expect(gas + BigInt(res.eth_units as string)).toBe(proceeds);
    expect(await ethBalance(tc, me)).toBe(BigInt(res.eth_units as string));
    expect(await tokenBalance(tc, project.token, me)).toBe(0n);
    expect((await ethBalance(tc, sponsor)) - sponsorBefore).toBe(gas - paid);
    // The burn is the wallet's only Transfer out: nothing else left it.
    const out = (await transferLogs(tc, project.token)).filter((l) => getAddress(l.from) === getAddress(me));
    expect(out.map((l) => [l.to, l.value, l.txHash])).toEqual([
      ['0x0000000000000000000000000000000000000000', held, res.tx_hash],
    ]);
    // Right after the sale, without waiting for the watcher: nothing held, the earnings stay.
    const after = await wallet(dev);
    expect(after.tokens).toEqual([]);
    expect(after.eth_balance_units).toBe(res.eth_units);
    expect(after.earnings.completed).toBe(1);
  });

  it('refuses a sale whose proceeds cannot cover its gas with 400 amount_too_small and the minimum', async () => {
    const dev = await paidContributor(10);
    const res = await post(ctx.app, dev, `/api/projects/${project.id}/sell`, { tokens_units: '1000' });
    expectError(res, 400, 'amount_too_small');
    const min = BigInt(/must be at least (\d+)/.exec(res.json().error.details[0].message)?.[1] ?? '0');
    expect(min).toBeGreaterThan(1000n);
    expect(await tokenBalance(tc, project.token, dev.walletAddress as string)).toBe((95n * TOKEN) / 10n);
    // The minimum it names does sell.
    ok(await post(ctx.app, dev, `/api/projects/${project.id}/sell`, { tokens_units: min.toString() }));
  });

  it('withdraws tokens to an outside address without ETH, up to the daily sponsored count', async () => {
    const dev = await paidContributor(100);
    const to = randomAddress();
    expect((await wallet(dev)).sponsored_withdrawals_left).toBe(2);
    for (const n of [1, 2]) {
      const res = ok(
        await post(ctx.app, dev, '/api/agents/me/wallet/withdraw', {
          to,
          amount_units: TOKEN.toString(),
          project_id: project.id,
        }),
      );
      expect(res).toMatchObject({ sponsored: true });
      expect(await tokenBalance(tc, project.token, to)).toBe(BigInt(n) * TOKEN);
      expect((await wallet(dev)).sponsored_withdrawals_left).toBe(2 - n);
    }
    const third = await post(ctx.app, dev, '/api/agents/me/wallet/withdraw', {
      to,
      amount_units: TOKEN.toString(),
      project_id: project.id,
    });
    expectError(third, 400, 'insufficient_eth');
    expect(await tokenBalance(tc, project.token, to)).toBe(2n * TOKEN);
    // Selling needs no ETH and no sponsored withdraw.
    ok(
      await post(ctx.app, dev, `/api/projects/${project.id}/sell`, {
        tokens_units: (10n * TOKEN).toString(),
      }),
    );
  });

  it('pays no gas for a withdraw worth less than SPONSORED_WITHDRAW_MIN_ETH_UNITS, and names the least that is', async () => {
    const dev = await paidContributor(10);
    const to = randomAddress();
    const dust = await post(ctx.app, dev, '/api/agents/me/wallet/withdraw', {
      to,
      amount_units: '1',
      project_id: project.id,
    });
    const err = expectError(dust, 400, 'amount_too_small');
    expect(err.details?.[0]?.field).toBe('amount_units');
    const least = BigInt(/must be at least (\d+)/.exec(err.details?.[0]?.message ?? '')?.[1] ?? '0');
    expect(least).toBeGreaterThan(1n);
    // Nothing moved, and the refusal did not use up the day's sponsored withdraws.
    expect(await tokenBalance(tc, project.token, to)).toBe(0n);
    expect((await wallet(dev)).sponsored_withdrawals_left).toBe(2);
    // The least it names is sponsored.
    const res = ok(
      await post(ctx.app, dev, '/api/agents/me/wallet/withdraw', {
        to,
        amount_units: least.toString(),
        project_id: project.id,
      }),
    );
    expect(res).toMatchObject({ sponsored: true });
    expect(await tokenBalance(tc, project.token, to)).toBe(least);
  });

  it('refuses a withdraw to the wallet itself or to any platform address or contract with invalid_destination', async () => {
    const dev = await paidContributor(10);
    const me = dev.walletAddress as string;
    const info = tc.chain.info;
    const sponsor = tc.chain.sponsor.address as string;
    const targets = [
      me,
      me.toUpperCase().replace('0X', '0x'),
      '0x0000000000000000000000000000000000000000',
      info?.payoutSpenderAddress,
      info?.factoryAddress,
      info?.treasuryAddress,
      info?.operatorAddress,
      sponsor,
      project.token,
      project.curve,
    ];
    for (const to of targets) {
      expect(to).toBeTruthy();
      for (const body of [
        { to, amount_units: TOKEN.toString(), project_id: project.id },
        { to, amount_units: '1' },
      ]) {
        const err = expectError(
          await post(ctx.app, dev, '/api/agents/me/wallet/withdraw', body),
          400,
          'invalid_destination',
        );
        expect(err.details?.[0]?.field).toBe('to');
      }
    }
    expect(await tokenBalance(tc, project.token, me)).toBe((95n * TOKEN) / 10n);
    expect((await wallet(dev)).sponsored_withdrawals_left).toBe(2);
  });

  it('answers 400 insufficient_eth, never a 502, for ETH the wallet lacks', async () => {
    const dev = await registerAgent(ctx.app, { wallet_address: null });
    for (const [url, body] of [
      ['/api/agents/me/wallet/withdraw', { to: randomAddress(), amount_units: '1' }],
      [`/api/projects/${project.id}/buy`, { eth_units: ETH.toString() }],
      [`/api/projects/${project.id}/allowance`, { amount: 5 }],
    ] as const) {
      const res = await post(ctx.app, dev, url, body);
      expectError(res, 400, 'insufficient_eth');
      expect(res.json().error.message).toMatch(/faucet/);
    }
  });

  it('moves nothing for a replayed or forged sale signature', async () => {
    const dev = await paidContributor(100);
    const me = dev.walletAddress as string;
    const res = ok(
      await post(ctx.app, dev, `/api/projects/${project.id}/sell`, { tokens_units: (5n * TOKEN).toString() }),
    );
    const sent = await tc.pub.getTransaction({ hash: res.tx_hash as Hex });
    const sponsorKey = anvilAccount(10);
    const relayer = createWalletClient({ account: sponsorKey, chain: foundry, transport: http(tc.rpcUrl) });
    const held = await tokenBalance(tc, project.token, me);
    const eth = await ethBalance(tc, me);
    // The same signed authorization again: its nonce is used.
    const replay = await relayer.sendTransaction({ to: sent.to as Hex, data: sent.input, gas: 300_000n });
    expect((await tc.pub.waitForTransactionReceipt({ hash: replay })).status).toBe('reverted');
    // Another holder's tokens under this holder's signature: the signer does not match.
    const other = await paidContributor(100);
    const forged = sent.input.replace(
      me.slice(2).toLowerCase(),
      (other.walletAddress as string).slice(2).toLowerCase(),
    ) as Hex;
    expect(forged).not.toBe(sent.input);
    const f = await relayer.sendTransaction({ to: sent.to as Hex, data: forged, gas: 300_000n });
    expect((await tc.pub.waitForTransactionReceipt({ hash: f })).status).toBe('reverted');
    expect(await tokenBalance(tc, project.token, me)).toBe(held);
    expect(await tokenBalance(tc, project.token, other.walletAddress as string)).toBe(95n * TOKEN);
    expect(await ethBalance(tc, me)).toBe(eth);
  });

  it('sells for many wallets at once, from two instances, each sponsor nonce used once', async () => {
    const devs = await Promise.all(Array.from({ length: 6 }, () => paidContributor(50)));
    const second = await buildTestApp({ chain: tc.chain, database: ctx.database, vault });
    try {
      const sponsor = tc.chain.sponsor.address as string;
      const apps = [ctx.app, second.app];
      const results = await Promise.all(
        devs.flatMap((d, i) => [
          post(apps[i % 2] as typeof ctx.app, d, `/api/projects/${project.id}/sell`, {
            tokens_units: (20n * TOKEN).toString(),
          }),
          post(apps[(i + 1) % 2] as typeof ctx.app, d, `/api/projects/${project.id}/sell`, {
            tokens_units: (20n * TOKEN).toString(),
          }),
        ]),
      );
      // Each wallet held 47.5 tokens: both of its 20-token sales go through, from either instance.
      for (const r of results) expect(r.statusCode, r.body).toBe(200);
      const txs = await Promise.all(
        results.map((r) => tc.pub.getTransaction({ hash: r.json().tx_hash as Hex })),
      );
      const nonces = txs.map((t) => t.nonce);
      expect(new Set(nonces).size).toBe(results.length);
      expect(txs.every((t) => getAddress(t.from) === getAddress(sponsor))).toBe(true);
      const logs = await transferLogs(tc, project.token);
      for (const d of devs) {
        const burns = logs.filter((l) => getAddress(l.from) === getAddress(d.walletAddress as string));
        expect(burns.map((l) => l.value)).toEqual([20n * TOKEN, 20n * TOKEN]);
        expect(await tokenBalance(tc, project.token, d.walletAddress as string)).toBe((75n * TOKEN) / 10n);
      }
    } finally {
      await second.close();
    }
  });
});
