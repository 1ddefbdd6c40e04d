import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRepoHost } from '../src/dev/local-repo-host/server.ts';
import { type TestChain, tokenBalance } from './helpers/chain.ts';
import { bountyMcpTransport, configDirs } from './helpers/cli.ts';
import { contributorGitEnv, withApiKey } from './helpers/git.ts';
import { type LiveApp, startLiveApp } from './helpers/live-app.ts';
import { ETH, TOKEN } from './helpers/wallets.ts';

/**
 * An agent that uses only the MCP tools (the SDK's client over streamable HTTP) and git goes from
 * registration to a paid bounty, against the service listening on a real port with the embedded
 * dev chain and the local repository host, as `npm start` runs them. Then the stdio bridge
 * (`bounty mcp`), spawned as a child process, serves the same tools.
 */

const run = promisify(execFile);

let live: LiveApp;
let tc: TestChain;
let tmp: string;
let local: LocalRepoHost;
let base: string;
const clients: Client[] = [];

beforeAll(async () => {
  live = await startLiveApp('mcp');
  ({ tc, local, base, tmp } = live);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await live?.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: tool results read field by field, as an agent would
type Json = Record<string, any>;

/** An MCP client on `{base}/mcp`, with the agent's key as bearer token when it has one. */
async function connect(apiKey?: string): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Json = {}, onprogress?: (p: Progress) => void) {
  return (await client.callTool(
    { name, arguments: args },
    undefined,
    onprogress ? { onprogress } : {},
  )) as CallToolResult;
}

/** A tool's structured result; a failing assertion shows the tool's own error. */
async function ok(client: Client, name: string, args: Json = {}, onprogress?: (p: Progress) => void) {
  const res = await call(client, name, args, onprogress);
  expect(res.isError ?? false, `${name}: ${JSON.stringify(res.content)}`).toBe(false);
  expect(JSON.parse((res.content[0] as { text: string }).text)).toEqual(res.structuredContent);
  return res.structuredContent as Json;
}

async function toolError(client: Client, name: string, args: Json, code: string) {
  const res = await call(client, name, args);
  expect(res.isError, JSON.stringify(res)).toBe(true);
  expect(res.structuredContent).toMatchObject({ code });
  expect((res.content[0] as { text: string }).text).toContain(code);
  return res.structuredContent as { code: string; message: string };
}

const TOOLS = [
  'activate_project',
  'approval_status',
  'approve_submission',
  'bounty_comments',
  'buy_tokens',
  'claim_bounty',
  'comment_on_bounty',
  'create_bounty',
  'create_project',
  'dev_faucet',
  'get_bounty',
  'get_project',
  'my_profile',
  'my_wallet',
  'open_pull_request',
  'register_agent',
  'reject_submission',
  'repo_credentials',
  'request_changes',
  'review_changes',
  'review_queue',
  'search_bounties',
  'sell_tokens',
  'set_allowance',
  'submit_pull_request',
  'unclaim_bounty',
  'wallet_transaction',
  'withdraw',
];

describe('an agent on MCP tools and git alone', () => {
  const freshConfig = configDirs();
  it('lists every tool with its input and output schemas, to callers with and without a key', async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      // An isError result's {code, message} fits every output schema.
      expect(tool.outputSchema?.additionalProperties, tool.name).toBe(true);
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(40);
    }
    const claim = tools.find((t) => t.name === 'claim_bounty');
    expect(claim?.inputSchema.required).toEqual(['bounty_id']);
    const search = tools.find((t) => t.name === 'search_bounties');
    expect(search?.outputSchema?.properties).toHaveProperty('bounties');
  });

  it('registers, founds a project, posts a bounty, earns it through git and a pull request, and is paid on chain', async () => {
    const suffix = `${process.pid}${Date.now().toString(36)}`.slice(-8);
    const anonymous = await connect();

    // The founder registers with no key, then reconnects with the key it was given.
    const founderReg = (await ok(anonymous, 'register_agent', { name: `mcp-founder-${suffix}` })).agent;
    expect(founderReg.api_key).toMatch(/\S{32,}/);
    expect(founderReg.wallet_type).toBe('walletvendor_inapp');
    // Tools that act as someone say so without a key.
    const noKey = await toolError(
      anonymous,
      'create_project',
      { name: 'Nope', token_symbol: 'NOPE' },
      'unauthorized',
    );
    expect(noKey.message).toMatch(/Authorization: Bearer/);
    const founder = await connect(founderReg.api_key);
    expect((await ok(founder, 'my_profile')).agent).toMatchObject({ id: founderReg.id, active_claims: [] });

    await ok(founder, 'dev_faucet', { eth_units: (5n * ETH).toString() });
    expect((await ok(founder, 'my_profile')).wallet.eth_balance_units).toBe((5n * ETH).toString());

    const symbol = `M${suffix.toUpperCase().replace(/[^A-Z0-9]/g, '')}`.slice(0, 11);
    const created = (await ok(founder, 'create_project', { name: `MCP ${suffix}`, token_symbol: symbol }))
      .project;
    expect(created.status).toBe('proposed');
    const progress: Progress[] = [];
    const project = (
      await ok(founder, 'activate_project', { project_id: created.id }, (p) => progress.push(p))
    ).project;
    expect(project.status).toBe('active');
    expect(project.repo_url.startsWith(`${local.baseUrl}/${local.org}/`)).toBe(true);
    // A start and an end at least, increasing, the last one complete.
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.map((p) => p.progress)).toEqual(
      [...progress.map((p) => p.progress)].sort((a, b) => a - b),
    );
    expect(progress.at(-1)).toMatchObject({ message: 'Done', total: progress.at(-1)?.progress });

    const bought = await ok(founder, 'buy_tokens', { project_id: project.id, eth_units: ETH.toString() });
    expect(BigInt(bought.tokens_units)).toBeGreaterThan(100n * TOKEN);
    expect(await ok(founder, 'set_allowance', { project_id: project.id, amount: 1000 })).toMatchObject({
      allowance_units: (1000n * TOKEN).toString(),
    });
    // A limit of the JSON route holds here too: same schema, same details.
    const tooMuch = await toolError(
      founder,
      'set_allowance',
      { project_id: project.id, amount: -1 },
      'validation_error',
    );
    expect(tooMuch).toMatchObject({ details: [{ field: 'amount' }] });
    const keyword = `zebra${suffix}`;
    const bounty = (
      await ok(founder, 'create_bounty', {
        project_id: project.id,
        title: `Add a greeting ${keyword}`,
        description: 'Add hello.txt saying hello.',
        reward_amount: 100,
      })
    ).bounty;
    expect(await ok(founder, 'approval_status', { project_id: project.id })).toMatchObject({
      committed: '100',
    });
    // The founder cannot claim its own bounty: the service's rule, as an isError result with the code.
    await toolError(founder, 'claim_bounty', { bounty_id: bounty.id }, 'forbidden');

    // The contributor finds the bounty, claims it, learns how to push, and does the work with git.
    const devReg = (await ok(anonymous, 'register_agent', { name: `mcp-dev-${suffix}` })).agent;
    const dev = await connect(devReg.api_key);
    const found = await ok(anonymous, 'search_bounties', { q: keyword, status: 'open' });
    expect(found.bounties.map((b: Json) => b.id)).toEqual([bounty.id]);
    expect((await ok(dev, 'claim_bounty', { bounty_id: bounty.id })).bounty).toMatchObject({
      status: 'claimed',
      claimed_by: devReg.id,
    });
    const creds = (await ok(dev, 'repo_credentials', { bounty_id: bounty.id })).repository;
    expect(creds).toMatchObject({
      host: 'local',
      repo_url: project.repo_url,
      repo_login: devReg.repo_login,
    });
    expect(creds.push).toMatch(/API key/);

    const gitEnv = { ...contributorGitEnv(tmp, 'MCP Contributor'), ...withApiKey(devReg.api_key) };
    const git = async (cwd: string, ...args: string[]) =>
      (await run('git', args, { cwd, env: gitEnv })).stdout;
    const work = join(tmp, 'work');
    await git(tmp, 'clone', '--quiet', creds.clone_url, work);
    await git(work, 'checkout', '--quiet', '-b', 'feature/greeting');
    writeFileSync(join(work, 'hello.txt'), 'hello\n');
    await git(work, 'add', '-A');
    await git(work, 'commit', '--quiet', '-m', 'Add a greeting');
    await git(work, 'push', '--quiet', 'origin', 'feature/greeting');

    // A branch that was never pushed is the host's refusal, told as a tool error.
    await toolError(
      dev,
      'open_pull_request',
      { bounty_id: bounty.id, head: 'nope', title: 'x' },
      'validation_error',
    );
    const pr = (
      await ok(dev, 'open_pull_request', {
        bounty_id: bounty.id,
        head: 'feature/greeting',
        title: 'Add a greeting',
        body: `For bounty ${bounty.id}.`,
      })
    ).pull_request;
    expect(pr).toMatchObject({ author_login: devReg.repo_login, state: 'open' });
    expect(pr.html_url).toBe(`${project.repo_url}/pull/${pr.number}`);
    const submission = (await ok(dev, 'submit_pull_request', { bounty_id: bounty.id, pr_url: pr.html_url }))
      .submission;
    expect(submission).toMatchObject({ status: 'pending', agent_id: devReg.id });

    // The founder reviews and approves: both payout legs on chain.
    const queue = (await ok(founder, 'review_queue')).reviews;
    expect(queue.map((r: Json) => [r.bounty.id, r.submission.id])).toEqual([[bounty.id, submission.id]]);
    expect((await ok(dev, 'review_queue')).reviews).toEqual([]);
    const founderWallet = getAddress(founderReg.wallet_address);
    const founderBefore = await tokenBalance(tc, project.token_address, founderWallet);
    const approved = await ok(founder, 'approve_submission', {
      bounty_id: bounty.id,
      review_notes: 'Thanks.',
      merge: true,
    });
    expect(approved).toMatchObject({ bounty_id: bounty.id, status: 'done', submission_id: submission.id });
    // merge: the built-in host merged it (a real git merge) before anything was paid.
    const onHost = await fetch(
      `${local.apiUrl}/repos/${local.org}/${project.repo_url.split('/').pop()}/pulls/${pr.number}`,
    );
    expect(((await onHost.json()) as Json).merged).toBe(true);
    expect(approved.contributor_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(approved.platform_fee_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);

    const done = (await ok(dev, 'get_bounty', { bounty_id: bounty.id })).bounty;
    expect(done.status).toBe('done');
    expect(done.submissions[0]).toMatchObject({
      status: 'approved',
      contributor_tx_hash: approved.contributor_tx_hash,
      platform_fee_tx_hash: approved.platform_fee_tx_hash,
    });
    const fee = (100n * TOKEN * 500n) / 10_000n;
    expect(await tokenBalance(tc, project.token_address, getAddress(devReg.wallet_address))).toBe(
      100n * TOKEN - fee,
    );
    expect(await tokenBalance(tc, project.token_address, founderWallet)).toBe(founderBefore - 100n * TOKEN);
    expect((await ok(dev, 'my_profile')).agent.active_claims).toEqual([]);
  }, 90_000);

  it('answers a bad key with 401 and GET with 405, over plain HTTP', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const post = (authorization?: string) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify(init),
      });
    for (const bad of ['Bearer not-a-key', 'Basic dXNlcjpwYXNz']) {
      const res = await post(bad);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(((await res.json()) as Json).error.code).toBe('unauthorized');
    }
    const anonymous = await post();
    expect(anonymous.status).toBe(200);
    await anonymous.body?.cancel();
    const get = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('serves the same tools over stdio through the bridge, progress included', async () => {
    const reg = (
      await ok(await connect(), 'register_agent', { name: `mcp-stdio-${process.pid}${Date.now() % 1e6}` })
    ).agent;
    // The bridge as an agent host launches it: `bounty mcp`, configured by its environment alone.
    const stdio = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await stdio.connect(bountyMcpTransport({ configHome: freshConfig(), apiUrl: base, apiKey: reg.api_key }));
    clients.push(stdio);

    const overHttp = (await (await connect()).listTools()).tools;
    const overStdio = (await stdio.listTools()).tools;
    expect(overStdio.map((t) => t.name).sort()).toEqual(TOOLS);
    expect(overStdio).toEqual(overHttp);
    expect(stdio.getInstructions()).toMatch(/register_agent/);

    expect((await ok(stdio, 'my_profile')).agent.id).toBe(reg.id);
    await toolError(stdio, 'get_bounty', { bounty_id: 'bnt_missing' }, 'not_found');

    await ok(stdio, 'dev_faucet', {});
    const symbol = `S${Date.now().toString(36).toUpperCase()}`.slice(0, 11);
    const created = (await ok(stdio, 'create_project', { name: `Stdio ${symbol}`, token_symbol: symbol }))
      .project;
    const progress: Progress[] = [];
    const activated = (
      await ok(stdio, 'activate_project', { project_id: created.id }, (p) => progress.push(p))
    ).project;
    expect(activated.status).toBe('active');
    // Relayed with the client's token. Only the first is certain: a client may drop a progress
    // notification read in the same chunk as the result (typescript-sdk#2580).
    expect(progress[0]).toMatchObject({ progress: 0, message: expect.stringMatching(/deploying the token/) });
  }, 60_000);
});
