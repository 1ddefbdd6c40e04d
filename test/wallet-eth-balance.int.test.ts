import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, registerAgent, type TestAgent, type TestContext } from './helpers/app.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { newVault } from './helpers/wallets.ts';
import { stubWalletChain } from './helpers/web-forms.ts';

/**
 * The wallet's ETH balance is kept like token balances (issue 29.3): a read costs no node call,
 * the service's own actions and the watcher keep it current, and `?fresh=true` reads the node.
 */
let ctx: TestContext;
let agent: TestAgent;
const chain = stubWalletChain(new FakeChain());
let eth = 5n * 10n ** 18n;
const reads: (bigint | undefined)[] = [];

beforeAll(async () => {
  ctx = await buildTestApp({ chain, vault: newVault() });
  (chain.wallets as unknown as Record<string, unknown>).ethBalance = async (_: string, block?: bigint) => {
    reads.push(block);
    return eth;
  };
  agent = await registerAgent(ctx.app, { wallet_address: null });
});
afterAll(() => ctx.close());

const wallet = async (query = '') => {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/agents/me/wallet${query}`,
    headers: agent.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().wallet as { eth_balance_units: string; eth_balance_block: string };
};

describe('the stored ETH balance', () => {
  it('is read from the node once, then served from the database with the block it was read at', async () => {
    const first = await wallet();
    expect(first.eth_balance_units).toBe(eth.toString());
    expect(first.eth_balance_block).toBe(chain.headBlock.toString());
    expect(reads).toEqual([chain.headBlock]);
    eth = 7n * 10n ** 18n; // moved outside the service: not seen until read again
    expect((await wallet()).eth_balance_units).toBe((5n * 10n ** 18n).toString());
    expect((await wallet()).eth_balance_units).toBe((5n * 10n ** 18n).toString());
    expect(reads).toHaveLength(1);
  });

  it('?fresh=true reads the node now and stores what it read', async () => {
    expect((await wallet('?fresh=true')).eth_balance_units).toBe(eth.toString());
    expect(reads).toHaveLength(2);
    expect((await wallet()).eth_balance_units).toBe(eth.toString());
    expect(reads).toHaveLength(2);
    const bad = await ctx.app.inject({
      method: 'GET',
      url: '/api/agents/me/wallet?fresh=maybe',
      headers: agent.headers,
    });
    expect(bad.statusCode).toBe(400);
  });

  it("follows the service's own actions at once, and the watcher's pass once a minute old", async () => {
    eth = 9n * 10n ** 18n;
    const sent = await ctx.app.inject({
      method: 'POST',
      url: '/api/agents/me/wallet/withdraw',
      headers: agent.headers,
      payload: { to: `0x${'12'.repeat(20)}`, amount_units: '1000' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await wallet()).eth_balance_units).toBe(eth.toString());
    eth = 11n * 10n ** 18n;
    await ctx.app.services.holdings.refreshStaleEth();
    expect((await wallet()).eth_balance_units).toBe((9n * 10n ** 18n).toString());
    ctx.clock.advance(60_001);
    await ctx.app.services.holdings.refreshStaleEth();
    expect((await wallet()).eth_balance_units).toBe(eth.toString());
  });
});
