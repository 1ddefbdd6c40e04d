import { createWalletClient, formatUnits, getAddress, type Hex, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilAccount } from '../src/infra/chain/anvil.ts';
import {
  ethUsdAggregatorMockAbi,
  ethUsdAggregatorMockBytecode,
} from '../src/infra/chain/contracts/EthUsdAggregatorMock.ts';
import { PRICE_TTL_MS } from '../src/modules/prices/prices.service.ts';
import {
  buildTestApp,
  createBounty,
  createProject,
  randomAddress,
  registerAgent,
  type TestAgent,
  type TestContext,
} from './helpers/app.ts';
import {
  activateOnChain,
  approvePayouts,
  buyTokens,
  startTestChain,
  type TestChain,
} from './helpers/chain.ts';
import { ETH, TOKEN } from './helpers/wallets.ts';

/**
 * Dollars next to ETH values, from a Chainlink-style ETH/USD aggregator on anvil: the service reads
 * ETH_USD_FEED_ADDRESS's `decimals()` and `latestRoundData()`; without a feed, or without a usable
 * round, the fields are null.
 */

const DEPLOYER = 9;
// $3,012.34567891 with Chainlink's 8 decimals.
const ANSWER = 301_234_567_891n;

/** The expected dollars, worked out apart from the service: the exact product, rounded half-up by hand. */
function dollars(wei: string, answer: bigint): string {
  const exact = formatUnits(BigInt(wei) * answer, 26); // wei (18 decimals) times the answer (8)
  const [whole = '0', frac = ''] = exact.split('.');
  const cents =
    BigInt(whole) * 100n + BigInt(frac.padEnd(3, '0').slice(0, 2)) + (frac[2] && frac[2] >= '5' ? 1n : 0n);
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

describe('ETH/USD price feed', () => {
  let tc: TestChain;
  let priced: TestContext;
  let plain: TestContext;
  let founder: TestAgent;
  let feed: Hex;
  let projectId: string;
  let bountyId: string;
  let deployer: ReturnType<typeof deployerOf>;
  const deployerOf = (rpcUrl: string) =>
    createWalletClient({ account: anvilAccount(DEPLOYER), chain: foundry, transport: http(rpcUrl) });

  /** A new round of the mock: this answer, updated `ageMs` before the priced app's clock. */
  async function setRound(answer: bigint, ageMs = 0) {
    const updatedAt = BigInt(Math.floor((priced.clock.now().getTime() - ageMs) / 1000));
    const hash = await deployer.writeContract({
      address: feed,
      abi: ethUsdAggregatorMockAbi,
      functionName: 'setRound',
      args: [answer, updatedAt],
    });
    await tc.pub.waitForTransactionReceipt({ hash });
    // The cached reading lapses: the next request reads the feed again.
    priced.clock.advance(PRICE_TTL_MS);
  }

  const get = async (ctx: TestContext, url: string, agent?: TestAgent) => {
    const res = await ctx.app.inject({ method: 'GET', url, ...(agent ? { headers: agent.headers } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const bounty = (ctx: TestContext) =>
    get(ctx, `/api/bounties/${bountyId}`).then(
      (b) => b.bounty as { reward_eth_units: string; reward_usd: string | null },
    );
  const tokens = (ctx: TestContext) =>
    get(ctx, '/api/agents/me/wallet', founder).then(
      (w) => w.wallet.tokens as { value_eth_units: string; value_usd: string | null }[],
    );

  beforeAll(async () => {
    tc = await startTestChain();
    deployer = deployerOf(tc.rpcUrl);
    const hash = await deployer.deployContract({
      abi: ethUsdAggregatorMockAbi,
      bytecode: ethUsdAggregatorMockBytecode,
      args: [8, 'ETH / USD', ANSWER],
    });
    const receipt = await tc.pub.waitForTransactionReceipt({ hash });
    feed = getAddress(receipt.contractAddress as string);
    priced = await buildTestApp({ chain: tc.chain, env: { ETH_USD_FEED_ADDRESS: feed } });
    plain = await buildTestApp({ chain: tc.chain, database: priced.database });
    founder = await registerAgent(priced.app, { wallet_address: tc.account(3).address });
    const p = await createProject(priced.app, founder);
    projectId = p.id;
    const deployed = await activateOnChain(priced, tc, p.id, p.token_symbol);
    await buyTokens(tc, 3, deployed.curveAddress, 5n * ETH);
    await approvePayouts(tc, 3, deployed.tokenAddress, 10n ** 9n * TOKEN);
    bountyId = (await createBounty(priced.app, founder, p.id, { reward_amount: 1000 })).id;
    await priced.app.services.chainWatcher.poll();
    await setRound(ANSWER);
  });
  afterAll(async () => {
    await plain?.close();
    await priced?.close();
    await tc?.stop();
  });

  it('adds reward_usd to bounties and value_usd to wallet tokens, exact to the cent', async () => {
    const one = await bounty(priced);
    expect(one.reward_usd).toBe(dollars(one.reward_eth_units, ANSWER));
    expect(Number(one.reward_usd)).toBeGreaterThan(0);
    const listed = (await get(priced, `/api/bounties?project_id=${projectId}`)).bounties.find(
      (b: { id: string }) => b.id === bountyId,
    );
    expect(listed?.reward_usd).toBe(one.reward_usd);
    const [held] = await tokens(priced);
    expect(held?.value_usd).toBe(dollars(held?.value_eth_units as string, ANSWER));
    expect(Number(held?.value_usd)).toBeGreaterThan(0);
  });

  it('shows nothing without ETH_USD_FEED_ADDRESS', async () => {
    const one = await bounty(plain);
    expect(one.reward_eth_units).not.toBeNull();
    expect(one.reward_usd).toBeNull();
    const [held] = await tokens(plain);
    expect(held?.value_eth_units).not.toBeNull();
    expect(held?.value_usd).toBeNull();
  });

  it('follows the feed once the minute is over', async () => {
    await setRound(ANSWER * 2n);
    const one = await bounty(priced);
    expect(one.reward_usd).toBe(dollars(one.reward_eth_units, ANSWER * 2n));
  });

  it('shows nothing for a round older than a day, or a price that is not positive', async () => {
    await setRound(ANSWER, 25 * 3_600_000);
    expect((await bounty(priced)).reward_usd).toBeNull();
    await setRound(0n);
    expect((await bounty(priced)).reward_usd).toBeNull();
    await setRound(-ANSWER);
    expect((await bounty(priced)).reward_usd).toBeNull();
    expect((await tokens(priced))[0]?.value_usd).toBeNull();
    await setRound(ANSWER);
    expect((await bounty(priced)).reward_usd).not.toBeNull();
  });

  it('shows nothing, and still answers, when no aggregator is at the address', async () => {
    const elsewhere = await buildTestApp({
      chain: tc.chain,
      database: priced.database,
      env: { ETH_USD_FEED_ADDRESS: randomAddress() },
    });
    try {
      const one = await bounty(elsewhere);
      expect(one.reward_eth_units).not.toBeNull();
      expect(one.reward_usd).toBeNull();
    } finally {
      await elsewhere.close();
    }
  });
});
