import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, registerAgent, type TestContext } from './helpers/app.ts';

/** The MCP endpoint's own rules, on an app without a chain: keys, rate limits, tool errors. */

let ctx: TestContext | undefined;
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await ctx?.close();
  ctx = undefined;
});

async function start(env: Record<string, string> = {}) {
  const started = await buildTestApp({ env });
  ctx = started;
  return started.app.listen({ port: 0, host: '127.0.0.1' });
}

async function connect(base: string, apiKey?: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

// Arguments that pass each tool's input schema, so the answer is about the key, not the input.
const ARGS: Record<string, Record<string, unknown>> = {
  claim_bounty: { bounty_id: 'bnt_x' },
  unclaim_bounty: { bounty_id: 'bnt_x' },
  submit_pull_request: { bounty_id: 'bnt_x', pr_url: 'http://h/o/r/pull/1' },
  my_profile: {},
  my_wallet: {},
  create_bounty: { project_id: 'proj_x', title: 't', description: 'd', reward_amount: 1 },
  review_queue: {},
  approve_submission: { bounty_id: 'bnt_x' },
  reject_submission: { bounty_id: 'bnt_x', review_notes: 'no' },
  request_changes: { bounty_id: 'bnt_x', review_notes: 'more' },
  create_project: { name: 'Some name', token_symbol: 'SOME' },
  activate_project: { project_id: 'proj_x' },
  approval_status: { project_id: 'proj_x' },
  buy_tokens: { project_id: 'proj_x', eth_units: '1' },
  sell_tokens: { project_id: 'proj_x', tokens_units: '1' },
  set_allowance: { project_id: 'proj_x', amount: 1 },
  withdraw: { to: `0x${'1'.repeat(40)}`, amount_units: '1' },
  wallet_transaction: {},
  open_pull_request: { bounty_id: 'bnt_x', head: 'b', title: 't' },
  repo_credentials: { bounty_id: 'bnt_x' },
  comment_on_bounty: { bounty_id: 'bnt_x', body: 'A question' },
};

describe('POST /mcp', () => {
  it('without a key, every tool that acts as someone is an isError result asking for the key', async () => {
    const client = await connect(await start());
    const names = (await client.listTools()).tools.map((t) => t.name);
    // No dev chain here: the faucet is not offered, as its route does not exist.
    expect(names).not.toContain('dev_faucet');
    for (const [name, args] of Object.entries(ARGS)) {
      const res = await call(client, name, args);
      expect(res.isError, name).toBe(true);
      expect(res.structuredContent, name).toMatchObject({ code: 'unauthorized' });
    }
    // The public ones answer: an unknown bounty is the service's 404, as a tool error.
    expect((await call(client, 'search_bounties')).structuredContent).toMatchObject({
      total: 0,
      bounties: [],
    });
    expect((await call(client, 'get_bounty', { bounty_id: 'bnt_x' })).structuredContent).toMatchObject({
      code: 'not_found',
    });
  });

  it('my_wallet answers the wallet with its tokens and earnings, in the shape of its output schema', async () => {
    const base = await start();
    const agent = await registerAgent((ctx as TestContext).app);
    const client = await connect(base, agent.apiKey);
    const tool = (await client.listTools()).tools.find((t) => t.name === 'my_wallet');
    expect(tool?.annotations?.readOnlyHint).toBe(true);
    // The client checks structuredContent against that schema; no chain here, so nothing is held.
    const res = await call(client, 'my_wallet');
    expect(res.isError ?? false).toBe(false);
    expect(res.structuredContent).toEqual({
      wallet: {
        address: agent.walletAddress,
        wallet_type: 'external',
        eth_balance_units: null,
        eth_balance_block: null,
        tokens: [],
        earnings: { completed: 0, earned_eth_units: '0', projects: [] },
        sponsored_withdrawals_left: null,
      },
    });
    expect(JSON.parse((res.content[0] as { text: string }).text)).toEqual(res.structuredContent);
    // my_profile carries the same wallet.
    expect((await call(client, 'my_profile')).structuredContent).toMatchObject(res.structuredContent ?? {});
  });

  it('counts requests per key, like every authenticated route', async () => {
    const base = await start({ RATE_LIMIT_PER_KEY_PER_MINUTE: '8' });
    const app = (ctx as TestContext).app;
    const agent = await registerAgent(app);
    const other = await registerAgent(app);
    // Connecting takes a few requests of the eight (initialize, initialized, the GET stream probe).
    const client = await connect(base, agent.apiKey);
    let answered = 0;
    let refused: unknown = null;
    for (let i = 0; i < 10 && !refused; i++) {
      await call(client, 'my_profile').then(
        () => answered++,
        (err: unknown) => {
          refused = err;
        },
      );
    }
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(8);
    expect((refused as { code?: number }).code).toBe(429);
    expect(String(refused)).toMatch(/rate_limited/);
    // Another key has its own budget.
    const fresh = await connect(base, other.apiKey);
    expect((await call(fresh, 'my_profile')).structuredContent).toMatchObject({ agent: { id: other.id } });
  });

  it('holds register_agent to the hourly registration budget of the JSON route', async () => {
    const base = await start({ RATE_LIMIT_REGISTER_PER_IP_PER_HOUR: '2' });
    const client = await connect(base);
    for (const n of [1, 2])
      expect(
        (await call(client, 'register_agent', { name: `mcp-reg-${process.pid}-${n}` })).isError ?? false,
      ).toBe(false);
    const third = await call(client, 'register_agent', { name: `mcp-reg-${process.pid}-3` });
    expect(third.structuredContent).toMatchObject({ code: 'rate_limited' });
    // A name that breaks the route's rule is the route's validation error, field named.
    const bad = await call(client, 'register_agent', { name: '!' });
    expect(bad.structuredContent).toMatchObject({ code: 'validation_error' });
    expect((bad.structuredContent as { details: { field: string }[] }).details[0]?.field).toBe('name');
  });
});
