import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProject,
  markProjectActive,
  randomAddress,
  registerAgent,
  type TestAgent,
} from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { journaledWallet } from './helpers/journaled-wallet.ts';
import { newVault } from './helpers/wallets.ts';

/**
 * The wallet tools when a transaction outlives the service's receipt wait (the JSON routes' 202):
 * buy_tokens, sell_tokens, set_allowance and withdraw return the pending transaction and what to do
 * next, and wallet_transaction follows it to confirmed or failed, or lists recent ones. The fake
 * chain's wallet records through the transaction engine (helpers/journaled-wallet.ts); the SDK
 * client checks every result against the tool's output schema.
 */

// biome-ignore lint/suspicious/noExplicitAny: tool results read field by field, as an agent would
type Json = Record<string, any>;

const TOKEN = 10n ** 18n;
let base: string;
let wallet: ReturnType<typeof journaledWallet>;
let projectId: string;
let dev: TestAgent;
let other: TestAgent;
const clients: Client[] = [];

const chain = new FakeChain();
const ctx = appForFile({ chain, vault: newVault() });
beforeAll(async () => {
  wallet = journaledWallet(ctx, chain);
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const founder = await registerAgent(ctx.app);
  projectId = (await createProject(ctx.app, founder)).id;
  const { tokenAddress } = await markProjectActive(ctx, projectId);
  dev = await registerAgent(ctx.app, { wallet_address: null });
  other = await registerAgent(ctx.app, { wallet_address: null });
  chain.setFundsUnits(tokenAddress, dev.walletAddress as string, 100n * TOKEN, 0n);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
});

async function connect(apiKey: string): Promise<Client> {
  const client = new Client({ name: 'wallet-tx-agent', version: '1.0.0' });
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
  expect(JSON.parse((res.content[0] as { text: string }).text)).toEqual(res.structuredContent);
  return res.structuredContent as Json;
}

const PENDING_TX = {
  id: expect.stringMatching(/^wtx_[0-9a-f]{32}$/),
  status: 'pending',
  tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
  result: null,
  error: null,
};

describe('wallet tools with a transaction still pending', () => {
  it('describes the pending answer and wallet_transaction, read-only', async () => {
    const { tools } = await (await connect(dev.apiKey)).listTools();
    for (const name of ['buy_tokens', 'sell_tokens', 'set_allowance', 'withdraw']) {
      const t = tools.find((x) => x.name === name);
      expect(t?.description, name).toMatch(/wallet_transaction/);
      expect(Object.keys(t?.outputSchema?.properties ?? {}), name).toEqual(
        expect.arrayContaining(['tx_hash', 'transaction', 'next']),
      );
      // An isError result's {code, message} is allowed by every schema (the server's instructions say it once).
      expect(t?.outputSchema?.additionalProperties, name).toBe(true);
    }
    const follow = tools.find((t) => t.name === 'wallet_transaction');
    expect(follow?.annotations?.readOnlyHint).toBe(true);
    expect(Object.keys(follow?.inputSchema.properties ?? {})).toEqual(['id', 'limit']);
  });

  it('sell_tokens answers the pending transaction and the next step; wallet_transaction follows it to confirmed', async () => {
    const client = await connect(dev.apiKey);
    wallet.state.outcome = 'pending';
    const sold = await tool(client, 'sell_tokens', {
      project_id: projectId,
      tokens_units: (10n * TOKEN).toString(),
    });
    expect(sold.transaction).toMatchObject({
      ...PENDING_TX,
      kind: 'sell',
      project_id: projectId,
      sponsored: false,
    });
    expect(sold.tx_hash).toBe(sold.transaction.tx_hash);
    expect(sold.next).toContain(`wallet_transaction {"id": "${sold.transaction.id}"}`);
    expect(sold.next).toMatch(/Do not repeat this action/);

    const id = sold.transaction.id as string;
    expect((await tool(client, 'wallet_transaction', { id })).transaction).toMatchObject({
      id,
      status: 'pending',
    });
    await wallet.confirm(id);
    expect((await tool(client, 'wallet_transaction', { id })).transaction).toMatchObject({
      id,
      status: 'confirmed',
      result: { tx_hash: sold.tx_hash, eth_units: ((10n * TOKEN) / 1000n).toString(), sponsored: false },
      error: null,
    });
  });

  it('withdraw, buy_tokens and set_allowance answer pending too; a revert is failed with its reason', async () => {
    const client = await connect(dev.apiKey);
    wallet.state.outcome = 'pending';
    const sent = await tool(client, 'withdraw', { to: randomAddress(), amount_units: '1000' });
    expect(sent.transaction).toMatchObject({ ...PENDING_TX, kind: 'withdraw_eth', project_id: null });
    const bought = await tool(client, 'buy_tokens', { project_id: projectId, eth_units: '1000' });
    expect(bought.transaction).toMatchObject({ ...PENDING_TX, kind: 'buy' });
    const allowed = await tool(client, 'set_allowance', { project_id: projectId, amount: 5 });
    expect(allowed.transaction).toMatchObject({ ...PENDING_TX, kind: 'allowance' });

    await wallet.revert(bought.transaction.id);
    expect(
      (await tool(client, 'wallet_transaction', { id: bought.transaction.id })).transaction,
    ).toMatchObject({
      status: 'failed',
      result: null,
      error: { code: 'upstream_error', message: expect.stringMatching(/reverted on chain/) },
    });

    // Without id: the recent ones, newest first, as many as asked.
    const { transactions } = await tool(client, 'wallet_transaction', { limit: 3 });
    expect(transactions.map((t: Json) => t.id)).toEqual([
      allowed.transaction.id,
      bought.transaction.id,
      sent.transaction.id,
    ]);
    expect((await tool(client, 'wallet_transaction')).transactions).toHaveLength(4);
  });

  it('a transaction that mines in time is the plain answer; ids of others and bad arguments are refused', async () => {
    const client = await connect(dev.apiKey);
    wallet.state.outcome = 'mine';
    const sold = await tool(client, 'sell_tokens', { project_id: projectId, tokens_units: TOKEN.toString() });
    expect(sold).toEqual({
      tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      eth_units: (TOKEN / 1000n).toString(),
      gas_eth_units: '0',
      sponsored: false,
    });
    const [latest] = (await tool(client, 'wallet_transaction', { limit: 1 })).transactions;
    expect(latest).toMatchObject({ status: 'confirmed', tx_hash: sold.tx_hash });

    const theirs = await call(await connect(other.apiKey), 'wallet_transaction', { id: latest.id });
    expect(theirs.isError).toBe(true);
    expect(theirs.structuredContent).toMatchObject({ code: 'not_found' });
    for (const args of [{ id: 'tx_1' }, { limit: 0 }, { limit: 101 }]) {
      const bad = await call(client, 'wallet_transaction', args);
      expect(bad.isError, JSON.stringify(args)).toBe(true);
      expect(bad.structuredContent).toMatchObject({ code: 'validation_error' });
    }
  });
});
