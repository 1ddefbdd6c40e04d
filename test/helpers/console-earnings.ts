import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import { AppError } from '../../src/lib/errors.ts';
import { buildTestApp, createBounty, registerAgent, type TestAgent, type TestContext } from './app.ts';
import { fundedProject } from './builders.ts';
import { FakeChain } from './fake-chain.ts';
import { newVault, ok, post } from './wallets.ts';
import { type Browserless, browserless } from './web-forms.ts';

/**
 * The setup of the contributor's earnings tests (web-console-earnings*.int.test.ts). The
 * FakeChain's in-app wallet and sponsor are stubbed: a sale moves the tokens on its ledger.
 */

export const TOKEN = 10n ** 18n;
export const SPONSOR = '0x00000000000000000000000000000000000000E5';

export type Sale = { kind: 'own' | 'sponsored'; from: string; curve: string; units: bigint };
type ActiveProject = { id: string; token: string; curve: string };

/** What the stubbed wallet and sponsor read and record; the tests change it. */
export interface CashOutState {
  /** ETH per address; an address without any cannot pay gas (the real wallet's insufficient_eth). */
  eth: Map<string, bigint>;
  /** What the sponsor says a sale's gas costs (proceeds at or below it: amount_too_small). */
  sponsorGas: () => bigint;
  sales: Sale[];
}

export interface EarningsConsole {
  ctx: TestContext;
  chain: FakeChain;
  web: Browserless;
  founder: TestAgent;
  dev: TestAgent;
  devAddress: string;
  devSession: string;
  earned: ActiveProject;
  bought: ActiveProject;
  heldOf: (
    projectId: string,
  ) => Promise<
    Awaited<ReturnType<TestContext['app']['services']['wallets']['show']>>['tokens'][number] | undefined
  >;
}

function stubCashOut(c: FakeChain, projects: () => ActiveProject[], state: CashOutState) {
  let txs = 0;
  const nextTx = () => `0x${(++txs).toString(16).padStart(64, 'c')}`;
  const tokenOfCurve = (curve: string) => {
    const p = projects().find((x) => x.curve.toLowerCase() === curve.toLowerCase());
    if (!p) throw new Error(`no project has curve ${curve}`);
    return p.token;
  };
  const worth = async (curve: string, units: bigint) => {
    const s = await c.readCurve(curve);
    // A flat enough quote for these tests: the stored curve's price now, less 1%.
    return (((s.a + (s.b * s.supplyUnits) / TOKEN) * units) / TOKEN / 100n) * 99n;
  };
  const move = async (key: string, curve: string, units: bigint) => {
    const from = privateKeyToAccount(key as Hex).address;
    const token = tokenOfCurve(curve);
    const f = await c.readFunds(token, from);
    if (f.balanceUnits < units) throw new Error('the fake sale outran the balance check');
    c.setFundsUnits(token, from, f.balanceUnits - units, f.allowanceUnits);
    return from;
  };
  Object.assign(c.wallets, {
    ethBalance: async (address: string) => state.eth.get(address.toLowerCase()) ?? 0n,
    tokenBalance: async (token: string, owner: string) => (await c.readFunds(token, owner)).balanceUnits,
    sell: async (key: string, curve: string, units: bigint) => {
      const from = privateKeyToAccount(key as Hex).address;
      if (!state.eth.get(from.toLowerCase())) {
        throw new AppError('insufficient_eth', 'The wallet holds 0 ETH; the gas of this sale needs some.');
      }
      await move(key, curve, units);
      state.sales.push({ kind: 'own', from, curve, units });
      return { txHash: nextTx(), ethUnits: await worth(curve, units) };
    },
  });
  Object.assign(c.sponsor, {
    address: SPONSOR,
    quoteSale: async (_key: string, curve: string, units: bigint) => ({
      proceedsUnits: await worth(curve, units),
      gasUnits: state.sponsorGas(),
    }),
    sell: async (key: string, curve: string, units: bigint) => {
      const from = await move(key, curve, units);
      state.sales.push({ kind: 'sponsored', from, curve, units });
      return {
        txHash: nextTx(),
        ethUnits: (await worth(curve, units)) - state.sponsorGas(),
        gasEthUnits: state.sponsorGas(),
      };
    },
  });
}

/**
 * A founder with two active projects and a contributor with an in-app wallet: paid 95 EARN for one
 * bounty, and holding 1,234.5 BUYS bought outside the service; the contributor is signed in.
 */
export async function setUpEarningsConsole(
  state: CashOutState = { eth: new Map(), sponsorGas: () => 10n ** 10n, sales: [] },
): Promise<EarningsConsole> {
  const chain = new FakeChain();
  const ctx = await buildTestApp({ chain, vault: newVault() });
  const web = browserless(ctx.app);
  const founder = await registerAgent(ctx.app);
  const dev = await registerAgent(ctx.app, { wallet_address: null });
  const devAddress = (await ctx.app.services.directory.require(dev.id)).walletAddress as string;
  const activeProject = async (name: string, token_symbol: string) => {
    // The factory's curve with 10,000 tokens minted.
    const opts = { founder, name, token_symbol, funds: 5000n, curveSupply: 10_000 };
    const p = await fundedProject(ctx, chain, opts);
    return { id: p.project.id, token: p.tokenAddress, curve: p.curveAddress };
  };
  const earned = await activeProject('Earnings Works', 'EARN');
  const bought = await activeProject('Bought Works', 'BUYS');
  stubCashOut(chain, () => [earned, bought], state);
  // Paid for one bounty: 100 EARN less the 5% fee.
  const bounty = await createBounty(ctx.app, founder, earned.id, { reward_amount: 100 });
  ok(await post(ctx.app, dev, `/api/bounties/${bounty.id}/claim`));
  const repoUrl = (await ctx.app.services.projects.get(earned.id)).repo_url as string;
  ok(await post(ctx.app, dev, `/api/bounties/${bounty.id}/submit`, { pr_url: `${repoUrl}/pull/1` }), 201);
  ok(await post(ctx.app, founder, `/api/bounties/${bounty.id}/approve`));
  // Held but not earned: 1,234.5 BUYS, as if bought outside the service.
  chain.setFundsUnits(bought.token, devAddress, 12345n * 10n ** 17n, 0n);
  await ctx.app.services.holdings.afterAction(bought.id, [devAddress]);
  const devSession = await web.signIn(dev.apiKey);
  const heldOf = async (projectId: string) =>
    (await ctx.app.services.wallets.show({ id: dev.id, walletAddress: devAddress })).tokens.find(
      (t) => t.project_id === projectId,
    );
  return { ctx, chain, web, founder, dev, devAddress, devSession, earned, bought, heldOf };
}

/** The markup of one project's row in the earnings table. */
export function rowOf(html: string, projectId: string): string {
  const m = new RegExp(`<tr id="earning-${projectId}">[\\s\\S]*?</tr>`).exec(html);
  expect(m, `row of ${projectId}`).not.toBeNull();
  return m?.[0] ?? '';
}
