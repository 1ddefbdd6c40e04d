import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { getAddress, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  tokenBalance,
} from './helpers/chain.ts';
import { ETH, ethBalance, newVault, ok, post, quoteSell, TOKEN } from './helpers/wallets.ts';

/**
 * Cashing out through the MCP tools, on a real chain: a contributor paid by an approval holds the
 * reward's tokens and no ETH; `my_wallet` shows them, their value and the earnings, `withdraw`
 * sends some out and `sell_tokens` sells the rest, both sponsored. The tools' results are checked
 * by the SDK client against their output schemas. The rules themselves are cash-out.chain.int.test.ts's.
 */

// biome-ignore lint/suspicious/noExplicitAny: tool results read field by field, as an agent would
type Json = Record<string, any>;

let tc: TestChain;
let ctx: TestContext;
let base: string;
let founder: TestAgent;
let project: { id: string; symbol: string; token: string; curve: string; repoUrl: string };
const clients: Client[] = [];

beforeAll(async () => {
  tc = await startTestChain();
  ctx = await buildTestApp({
    chain: tc.chain,
    vault: newVault(),
    env: { SPONSORED_WITHDRAWALS_PER_DAY: '1' },
  });
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  founder = await registerAgent(ctx.app, { wallet_address: tc.account(3).address });
  const p = await createProject(ctx.app, founder);
  const deployed = await activateOnChain(ctx, tc, p.id, p.token_symbol);
  project = {
    id: p.id,
    symbol: p.token_symbol,
    token: deployed.tokenAddress,
    curve: deployed.curveAddress,
    repoUrl: deployed.repoUrl,
  };
  await buyTokens(tc, 3, deployed.curveAddress, 20n * ETH);
  await approvePayouts(tc, 3, deployed.tokenAddress, 10n ** 9n * TOKEN);
  // The founder bought outside the service: the watcher reads it from the token's logs.
  await ctx.app.services.chainWatcher.poll();
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await ctx?.close();
  await tc?.stop();
});

async function connect(apiKey: string): Promise<Client> {
  const client = new Client({ name: 'wallet-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    }),
  );
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Json = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

async function tool(client: Client, name: string, args: Json = {}): Promise<Json> {
  const res = await call(client, name, args);
  expect(res.isError ?? false, `${name}: ${JSON.stringify(res.content)}`).toBe(false);
  return res.structuredContent as Json;
}

let prs = 0;
/** A new in-app contributor paid `reward` tokens by an approval: it holds 95% of it and no ETH. */
async function paidContributor(reward: number): Promise<TestAgent> {
  const dev = await registerAgent(ctx.app, { wallet_address: null });
  const bounty = await createBounty(ctx.app, founder, project.id, { reward_amount: reward });
  ok(await post(ctx.app, dev, `/api/bounties/${bounty.id}/claim`));
  const pr_url = `${project.repoUrl}/pull/${++prs}`;
  ok(await post(ctx.app, dev, `/api/bounties/${bounty.id}/submit`, { pr_url }), 201);
  ok(await post(ctx.app, founder, `/api/bounties/${bounty.id}/approve`));
  return dev;
}

describe('cashing out with the MCP tools', () => {
  it('lists my_wallet as read-only; bounty tools carry what the reward sells for (reward_eth_units)', async () => {
    const client = await connect(founder.apiKey);
    const { tools } = await client.listTools();
    const myWallet = tools.find((t) => t.name === 'my_wallet');
    expect(myWallet?.annotations?.readOnlyHint).toBe(true);
    expect(Object.keys(myWallet?.outputSchema?.properties ?? {})).toEqual(expect.arrayContaining(['wallet']));
    expect(tools.find((t) => t.name === 'sell_tokens')?.description).toMatch(/No ETH needed/);
    expect(tools.find((t) => t.name === 'withdraw')?.description).toMatch(/sponsored/);

    const bounty = await createBounty(ctx.app, founder, project.id, { reward_amount: 1000 });
    // The contributor's share: 1000 tokens less the 5% platform fee, as the curve quotes it.
    const share = (await quoteSell(tc, project.curve, 950n * TOKEN)).toString();
    const found = await tool(client, 'search_bounties', { project_id: project.id, status: 'open' });
    expect(found.bounties.find((b: Json) => b.id === bounty.id)).toMatchObject({ reward_eth_units: share });
    expect((await tool(client, 'get_bounty', { bounty_id: bounty.id })).bounty.reward_eth_units).toBe(share);
  });

  it('shows a paid contributor its tokens, their value and its earnings; withdraws and sells them without ETH', async () => {
    const dev = await paidContributor(100);
    const me = dev.walletAddress as string;
    const client = await connect(dev.apiKey);
    const held = 95n * TOKEN;
    const value = (await quoteSell(tc, project.curve, held)).toString();

    const { wallet } = await tool(client, 'my_wallet');
    expect(wallet).toMatchObject({
      address: me,
      wallet_type: 'walletvendor_inapp',
      eth_balance_units: '0',
      sponsored_withdrawals_left: 1,
    });
    expect(wallet.tokens).toEqual([
      {
        project_id: project.id,
        project_name: expect.any(String),
        token_symbol: project.symbol,
        token_address: project.token,
        balance_units: held.toString(),
        value_eth_units: value,
        // No ETH_USD_FEED_ADDRESS here: no dollars (eth-usd.chain.int.test.ts has them).
        value_usd: null,
      },
    ]);
    expect(wallet.earnings).toEqual({
      completed: 1,
      earned_eth_units: value,
      projects: [
        {
          project_id: project.id,
          project_name: expect.any(String),
          token_symbol: project.symbol,
          earned_units: held.toString(),
          completed: 1,
          earned_eth_units: value,
        },
      ],
    });
    // my_profile carries the same wallet, earnings included.
    expect((await tool(client, 'my_profile')).wallet.earnings).toEqual(wallet.earnings);

    // A token withdraw with no ETH: the platform pays the gas, once a day here.
    const to = randomAddress();
    const sent = await tool(client, 'withdraw', {
      to,
      amount_units: (5n * TOKEN).toString(),
      project_id: project.id,
    });
    expect(sent).toEqual({ tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), sponsored: true });
    expect(await tokenBalance(tc, project.token, to)).toBe(5n * TOKEN);
    expect((await tool(client, 'my_wallet')).wallet.sponsored_withdrawals_left).toBe(0);

    // A sale too small to pay its gas says the least that sells, as the JSON route does.
    const small = await call(client, 'sell_tokens', { project_id: project.id, tokens_units: '1000' });
    expect(small.isError).toBe(true);
    expect(small.structuredContent).toMatchObject({
      code: 'amount_too_small',
      details: [{ field: 'tokens_units', message: expect.stringMatching(/^must be at least \d+$/) }],
    });

    // The rest sells with no ETH in the wallet: the sponsor sends it and takes its gas back.
    const rest = held - 5n * TOKEN;
    const proceeds = await quoteSell(tc, project.curve, rest);
    expect(await ethBalance(tc, me)).toBe(0n);
    const sold = await tool(client, 'sell_tokens', { project_id: project.id, tokens_units: rest.toString() });
    expect(sold).toMatchObject({ sponsored: true, tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const receipt = await tc.pub.getTransactionReceipt({ hash: sold.tx_hash as Hex });
    expect(getAddress(receipt.from)).toBe(getAddress(tc.chain.sponsor.address as string));
    expect(BigInt(sold.gas_eth_units)).toBeGreaterThan(0n);
    expect(BigInt(sold.eth_units) + BigInt(sold.gas_eth_units)).toBe(proceeds);
    expect(await ethBalance(tc, me)).toBe(BigInt(sold.eth_units));

    const after = (await tool(client, 'my_wallet')).wallet;
    expect(after).toMatchObject({
      tokens: [],
      eth_balance_units: sold.eth_units,
      earnings: { completed: 1 },
    });
    // With ETH now, an ETH withdraw pays its own gas.
    expect(await tool(client, 'withdraw', { to, amount_units: '1000' })).toMatchObject({ sponsored: false });
    expect(await ethBalance(tc, to)).toBe(1000n);
  });
});
