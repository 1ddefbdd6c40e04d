import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from './helpers/app.ts';
import { bountyMcpTransport, cliEnv, configDirs, runBounty } from './helpers/cli.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

/**
 * The CLI's own rules against a real app (no chain needed): exit codes, the stored login and its
 * precedence, `bounty mcp` serving the service's tools over stdio, wallet and webhook commands.
 * The review commands are in cli-reviews.wire.int.test.ts, the pending wallet actions in
 * cli-pending.wire.int.test.ts, the paid flow in cli.chain.int.test.ts.
 */

let ctx: TestContext;
let base: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await ctx?.close();
});

const freshConfig = configDirs();

async function register(name: string) {
  const res = await runBounty(['register', name, '--json'], cliEnv(base, freshConfig()));
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout).agent as { id: string; name: string; api_key: string };
}

// Every case spawns the CLI (its bundle when current, else through tsx: see bin/bounty.mjs).
describe('bounty, exit codes', { timeout: 120_000 }, () => {
  it('--help exits 0 and lists the commands; usage errors exit 2 before any request', async () => {
    const env = cliEnv(base, freshConfig());
    // Independent commands (each refusal with a config directory of its own): run side by side.
    const usage = async (args: string[]) => ({
      args,
      res: await runBounty(args, cliEnv(base, freshConfig(), 'bmk_unused')),
    });
    const [help, fromSource, createHelp, ...refused] = await Promise.all([
      runBounty(['--help'], env),
      // The TypeScript sources through tsx, as after an edit that no build has bundled yet.
      runBounty(['--help'], { ...env, BOUNTY_CLI_FROM_SOURCE: '1' }),
      runBounty(['project', 'create', '--help'], env),
      usage(['claim']),
      usage(['no-such-command']),
      usage(['bounties', '--limit', '500']),
      usage(['bounties', '--status', 'sleeping']),
      usage(['buy', 'proj_x', '--eth', 'lots']),
      usage(['allowance', 'proj_x', '-3']),
      usage(['post', 'proj_x', '--title', 'T']),
      usage(['request-changes']),
      usage(['request-changes', 'bnt_x']),
      usage(['request-changes', 'bnt_x', '--notes', '  ']),
      usage(['show']),
      usage(['sell', 'proj_x']),
      usage(['sell', 'proj_x', 'lots']),
      usage(['sell', 'proj_x', '0']),
      usage(['sell', 'proj_x', 'all', '--min-eth', 'some']),
      usage(['withdraw', '0x12', '1']),
      usage(['withdraw', `0x${'1'.repeat(40)}`, '1.5tokens']),
      usage(['withdraw', `0x${'1'.repeat(40)}`, '5wei', '--project', 'proj_x']),
    ]);
    expect(help.code).toBe(0);
    for (const cmd of [
      'login',
      'claim',
      'approve',
      'reviews',
      'request-changes',
      'watch',
      'project',
      'wallet',
      'sell',
      'withdraw',
      'tx',
      'webhook',
      'mcp',
    ]) {
      expect(help.stdout).toContain(`  ${cmd}`);
    }
    expect(fromSource).toEqual(help);
    expect(createHelp.code).toBe(0);
    for (const { args, res } of refused) {
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(/^error: /);
    }
  });

  it('the API error code and exit 1 on a refusal; a network failure is said so', async () => {
    const noKey = await runBounty(['me'], cliEnv(base, freshConfig()));
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/^error: not_logged_in: /);
    const missing = await runBounty(['bounty', 'bnt_missing'], cliEnv(base, freshConfig()));
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/^error: not_found: /);

    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    await new Promise((r) => server.close(r));
    const down = await runBounty(['bounties'], cliEnv(`http://127.0.0.1:${port}`, freshConfig()));
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^error: network: cannot reach the service \(ECONNREFUSED\)/);
  });
});

describe('bounty wallet', () => {
  it('prints the wallet, no tokens and no earnings yet; --json is the API answer', async () => {
    const agent = await register(`cli-wallet-${process.pid}`);
    const env = cliEnv(base, freshConfig(), agent.api_key);
    const json = await runBounty(['wallet', '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).wallet).toMatchObject({
      tokens: [],
      earnings: { completed: 0, earned_eth_units: '0', projects: [] },
    });
    const shown = await runBounty(['wallet'], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('(no project tokens)');
    expect(shown.stdout).toContain('(no bounties paid yet)');
    expect(shown.stdout).toContain('earned in all: 0 bounties, ≈ 0 ETH now');
  });
});

describe('bounty webhook', () => {
  it('adds a webhook whose URL must answer the challenge; verify sends it again; set-url moves it', async () => {
    const agent = await register(`cli-hook-${process.pid}`);
    const env = cliEnv(base, freshConfig(), agent.api_key);
    const rx = await startReceiver(undefined, { echo: false });
    const next = await startReceiver();
    try {
      const added = await runBounty(['webhook', 'add', rx.url, '--types', 'bounty.created'], env);
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout).toMatch(/status:\s+pending_verification/);
      expect(added.stdout).toContain('did not answer the challenge (answered 200 without the challenge');
      expect(added.stdout).toMatch(/Signing secret \(shown once, store it now\): whsec_/);
      const id = /webhook:\s+(whk_[0-9a-f]{32})/.exec(added.stdout)?.[1] ?? '';

      rx.setEcho(true);
      const verified = await runBounty(['webhook', 'verify', id], env);
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stdout).toContain(`${rx.url} answered the challenge: it receives events from now on.`);
      expect(rx.verifications).toHaveLength(2);
      const listed = await runBounty(['webhook', 'list', '--json'], env);
      expect(JSON.parse(listed.stdout).webhooks).toMatchObject([
        { id, status: 'active', types: ['bounty.created'] },
      ]);

      const moved = await runBounty(['webhook', 'set-url', id, next.url, '--json'], env);
      expect(moved.code, moved.stderr).toBe(0);
      expect(JSON.parse(moved.stdout)).toMatchObject({
        webhook: { id, url: next.url, status: 'active' },
        verification: { verified: true },
      });
      const missing = await runBounty(['webhook', 'verify', 'whk_00000000000000000000000000000000'], env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/^error: not_found: /);
    } finally {
      await Promise.all([rx.close(), next.close()]);
    }
  });
});

describe('bounty login', () => {
  it('checks the key, stores it with mode 0600 for later commands; BOUNTY_API_KEY wins over it', async () => {
    const agent = await register(`cli-login-${process.pid}`);
    const configHome = freshConfig();
    const bad = await runBounty(['login', '--key', 'bmk_wrong'], cliEnv(base, configHome));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: unauthorized: /);

    const login = await runBounty(['login', '--key', agent.api_key], cliEnv(base, configHome));
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(agent.id);
    const file = join(configHome, 'bounty', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ api_url: base, api_key: agent.api_key });

    // No environment at all: the stored URL and key are used.
    const env = cliEnv(base, configHome);
    delete env.BOUNTY_API_URL;
    const me = await runBounty(['me', '--json'], env);
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout).agent.id).toBe(agent.id);
    const overridden = await runBounty(['me'], { ...env, BOUNTY_API_KEY: 'bmk_env_wins' });
    expect(overridden.stderr).toMatch(/^error: unauthorized: /);
  });

  it('reads the key from stdin when --key is absent, and widens no older file', async () => {
    const agent = await register(`cli-stdin-${process.pid}`);
    const configHome = freshConfig();
    const file = join(configHome, 'bounty', 'config.json');
    // An older file, readable by others: logging in must narrow it.
    mkdirSync(join(configHome, 'bounty'), { recursive: true });
    writeFileSync(file, '{}', { mode: 0o644 });
    const res = await runBounty(['login'], cliEnv(base, configHome), `${agent.api_key}\n`);
    expect(res.code, res.stderr).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).api_key).toBe(agent.api_key);
  });
});

describe('bounty mcp', () => {
  it("serves the service's MCP tools over stdio with the configured key", async () => {
    const agent = await register(`cli-mcp-${process.pid}`);
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(
      bountyMcpTransport({ configHome: freshConfig(), apiUrl: base, apiKey: agent.api_key }),
    );
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['search_bounties', 'claim_bounty', 'my_profile']));
      const profile = await client.callTool({ name: 'my_profile', arguments: {} });
      expect(profile.isError).toBeFalsy();
      expect(JSON.stringify(profile.structuredContent)).toContain(agent.id);
    } finally {
      await client.close();
    }
  });
});
