import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createProject,
  markProjectActive,
  randomAddress,
  registerAgent,
  type TestContext,
} from './helpers/app.ts';
import { BOUNTY_BIN, cliEnv, runBounty } from './helpers/cli.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost, fakeHeadSha } from './helpers/fake-repo-host.ts';
import { journaledWallet } from './helpers/journaled-wallet.ts';
import { newVault } from './helpers/wallets.ts';
import { webhookKit } from './helpers/webhook-flows.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

/**
 * The CLI's own rules against a real app (no chain needed): exit codes, the stored login and its
 * precedence, `bounty mcp` serving the service's tools over stdio, and the review commands on a
 * fake chain and repository host, and the wallet actions whose transaction is still pending when
 * the service answers (202) on a fake chain whose wallet records through the transaction engine.
 * The paid flow is in cli.chain.int.test.ts.
 */

let ctx: TestContext;
let base: string;
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'cli-int-'));
  ctx = await buildTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await ctx?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

let dirs = 0;
const freshConfig = () => join(tmp, `config-${++dirs}`);

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
      new StdioClientTransport({
        command: process.execPath,
        args: [BOUNTY_BIN, 'mcp'],
        env: {
          PATH: process.env.PATH ?? '',
          XDG_CONFIG_HOME: freshConfig(),
          BOUNTY_API_URL: base,
          BOUNTY_API_KEY: agent.api_key,
        },
        stderr: 'pipe',
      }),
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

describe('bounty reviews, request-changes and show', () => {
  const REVISION_HOURS = 36;
  let review: TestContext;
  let reviewBase: string;
  let kit: ReturnType<typeof webhookKit>;
  let host: FakeRepoHost;

  beforeAll(async () => {
    const chain = new FakeChain();
    host = new FakeRepoHost();
    review = await buildTestApp({ chain, repoHost: host, env: { REVISION_HOURS: String(REVISION_HOURS) } });
    kit = webhookKit(review, chain, host);
    reviewBase = await review.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => review?.close());

  it('the queue shows the checks and the amounts; request-changes sends it back; show prints the report', async () => {
    const s = await kit.inReview(100);
    const env = (key: string) => cliEnv(reviewBase, freshConfig(), key);
    host.setPullRequest(s.prUrl, {
      state: 'open',
      authorLogin: s.devLogin,
      title: 'Handle empty input',
      additions: 10,
      deletions: 2,
      changedFiles: 3,
    });
    host.setChecks(fakeHeadSha(s.prUrl), { state: 'success', total: 3, failed: 0 });
    await review.app.services.submissions.refreshReports({ prUrl: s.prUrl });
    const number = s.prUrl.split('/').pop();
    const report = `PR #${number} 'Handle empty input' by ${s.devLogin} · open · +10 −2 in 3 files · mergeable: yes`;

    // The founder's queue: 95 tokens to the contributor and 5 of fee (the default 5%), checks passed.
    const queue = await runBounty(['reviews'], env(s.founder.apiKey));
    expect(queue.code, queue.stderr).toBe(0);
    expect(queue.stdout).toMatch(/REWARD\s+TO CONTRIBUTOR\s+FEE\s+OWED\s+.*\s+CHECKS\s+MERGEABLE\s+PR/);
    // No ETH figure: the fake chain's curve is never read.
    expect(queue.stdout).toMatch(new RegExp(`${s.bounty.id}\\s+100\\s+95\\s+5\\s+no\\s+`));
    expect(queue.stdout).toMatch(
      new RegExp(`${s.submissionId}\\s.*\\ssuccess \\(3/3\\)\\s+yes\\s+${s.prUrl}`),
    );
    // --json prints GET /api/reviews as the service answers it.
    const json = await runBounty(['reviews', '--json'], env(s.founder.apiKey));
    const answered = await review.app.inject({
      method: 'GET',
      url: '/api/reviews',
      headers: s.founder.headers,
    });
    expect(JSON.parse(json.stdout)).toEqual(answered.json());
    expect(JSON.parse(json.stdout).reviews).toEqual([
      expect.objectContaining({
        payout: {
          fee_units: (5n * 10n ** 18n).toString(),
          contributor_units: (95n * 10n ** 18n).toString(),
        },
      }),
    ]);
    const pending = await runBounty(['show', s.bounty.id], env(s.dev.apiKey));
    expect(pending.stdout).toContain(`${report} · checks: success (3/3)`);
    expect(pending.stdout).not.toContain('changes requested');

    // Only the founder sends it back.
    const refused = await runBounty(['request-changes', s.bounty.id, '--notes', 'Mine?'], env(s.dev.apiKey));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: forbidden: /);
    const sent = await runBounty(
      ['request-changes', s.bounty.id, '--notes', 'Cover the empty case.', '--json'],
      env(s.founder.apiKey),
    );
    expect(sent.code, sent.stderr).toBe(0);
    const answer = JSON.parse(sent.stdout);
    expect(answer).toMatchObject({
      bounty_id: s.bounty.id,
      status: 'claimed',
      submission_id: s.submissionId,
    });
    const due = `${answer.revision_due_at.slice(0, 16).replace('T', ' ')} UTC`;
    const again = await runBounty(
      ['request-changes', s.bounty.id, '--notes', 'More.'],
      env(s.founder.apiKey),
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: not_in_review: /);

    // New commits fail a check: `bounty show` (and `bounty bounty`) print the report, deadline and notes.
    host.setChecks(fakeHeadSha(s.prUrl), { state: 'failure', total: 3, failed: 1 });
    await review.app.services.submissions.refreshReports({ prUrl: s.prUrl });
    for (const cmd of ['show', 'bounty']) {
      const shown = await runBounty([cmd, s.bounty.id], env(s.dev.apiKey));
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/status:\s+claimed/);
      expect(shown.stdout).toContain(`${report} · checks: failure (1 of 3 failed)`);
      expect(shown.stdout).toMatch(new RegExp(`review:\\s+changes requested: resubmit by ${due}`));
      expect(shown.stdout).toMatch(/review notes:\s+Cover the empty case\./);
      expect(shown.stdout).toMatch(new RegExp(`${s.submissionId}\\s+changes_requested`));
    }
    const empty = await runBounty(['reviews'], env(s.founder.apiKey));
    expect(empty.stdout).toContain('(nothing to review)');
  });

  it('reviews lists the bounties waiting for their contributor, then the earlier review; changes shows the diff since', async () => {
    const s = await kit.inReview(100);
    const env = (key: string) => cliEnv(reviewBase, freshConfig(), key);
    const sent = await review.app.inject({
      method: 'POST',
      url: `/api/bounties/${s.bounty.id}/request-changes`,
      headers: s.founder.headers,
      payload: { review_notes: 'Cover the empty case.\nAnd the docs.' },
    });
    const due = `${sent.json().revision_due_at.slice(0, 16).replace('T', ' ')} UTC`;
    const waiting = await runBounty(['reviews'], env(s.founder.apiKey));
    expect(waiting.code, waiting.stderr).toBe(0);
    expect(waiting.stdout).toContain('Waiting for the contributor');
    expect(waiting.stdout).toMatch(new RegExp(`${s.bounty.id}\\s.*\\s${due}\\s+Cover the empty case\\.\\n`));

    const reviewed = fakeHeadSha(s.prUrl);
    const pushed = 'e'.repeat(40);
    host.setPullRequest(s.prUrl, { state: 'open', authorLogin: s.devLogin, headSha: pushed });
    const [owner = '', repo = ''] = new URL(s.repoUrl).pathname.slice(1).split('/');
    host.setComparison(owner, repo, reviewed, pushed, {
      totalCommits: 1,
      commits: [{ sha: pushed, authorName: 'Dev', message: 'Cover the empty case' }],
      files: [
        {
          filename: 'src/empty.ts',
          status: 'modified',
          additions: 1,
          deletions: 0,
          patch: '@@ -1 +1,2 @@\n a\n+empty',
        },
      ],
    });
    const resubmitted = await review.app.inject({
      method: 'POST',
      url: `/api/bounties/${s.bounty.id}/submit`,
      headers: s.dev.headers,
      payload: { pr_url: s.prUrl },
    });
    expect(resubmitted.statusCode, resubmitted.body).toBe(201);
    const queue = await runBounty(['reviews'], env(s.founder.apiKey));
    expect(queue.stdout).toContain('(nothing sent back)');
    expect(queue.stdout).toMatch(
      new RegExp(
        `${s.bounty.id}\\s+${s.submissionId}\\s.*\\s${reviewed.slice(0, 7)}\\s+Cover the empty case\\.`,
      ),
    );
    const changes = await runBounty(['changes', s.bounty.id], env(s.founder.apiKey));
    expect(changes.code, changes.stderr).toBe(0);
    expect(changes.stdout).toContain(
      `Since ${reviewed.slice(0, 7)} (your last review) to eeeeeee: 1 commit, 1 file`,
    );
    expect(changes.stdout).toContain('src/empty.ts (modified +1 −0)\n@@ -1 +1,2 @@\n a\n+empty');
    const stranger = await runBounty(['changes', s.bounty.id], env((await registerAgent(review.app)).apiKey));
    expect(stranger.stderr).toMatch(/^error: forbidden: /);
  });
});

describe('bounty sell, withdraw, buy, allowance and tx: a transaction still pending', () => {
  const TOKEN = 10n ** 18n;
  let app: TestContext;
  let appBase: string;
  let wallet: ReturnType<typeof journaledWallet>;
  let projectId: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const chain = new FakeChain();
    app = await buildTestApp({ chain, vault: newVault() });
    wallet = journaledWallet(app, chain);
    appBase = await app.app.listen({ port: 0, host: '127.0.0.1' });
    const founder = await registerAgent(app.app);
    projectId = (await createProject(app.app, founder)).id;
    const { tokenAddress } = await markProjectActive(app, projectId);
    // An agent with an in-app wallet holding 100 of the project's tokens.
    const dev = await registerAgent(app.app, { wallet_address: null });
    chain.setFundsUnits(tokenAddress, dev.walletAddress as string, 100n * TOKEN, 0n);
    env = cliEnv(appBase, freshConfig(), dev.apiKey);
  });
  afterAll(() => app?.close());

  const PENDING = /^pending: transaction (wtx_[0-9a-f]{32}) \(tx (0x[0-9a-f]{64})\)$/m;

  it('says pending with the transaction and its hash; `bounty tx` follows it to confirmed', async () => {
    wallet.state.outcome = 'pending';
    const sold = await runBounty(['sell', projectId, '10'], env);
    expect(sold.code, sold.stderr).toBe(0);
    const [, id, hash] = PENDING.exec(sold.stdout) ?? [];
    expect(id, sold.stdout).toBeDefined();
    expect(sold.stdout).toContain(`bounty tx ${id}`);
    expect(sold.stdout).not.toContain('received');

    const one = await runBounty(['tx', id as string], env);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toMatch(new RegExp(`transaction:\\s+${id}`));
    expect(one.stdout).toMatch(/kind:\s+sell/);
    expect(one.stdout).toMatch(/status:\s+pending \(sent, may still mine\)/);
    expect(one.stdout).toMatch(new RegExp(`tx:\\s+${hash}`));
    const list = await runBounty(['tx'], env);
    expect(list.stdout).toMatch(/ID\s+KIND\s+STATUS\s+TX\s+PROJECT\s+CREATED/);
    expect(list.stdout).toMatch(new RegExp(`${id}\\s+sell\\s+pending\\s+${hash}\\s+${projectId}`));

    await wallet.confirm(id as string);
    const settled = await runBounty(['tx', id as string, '--json'], env);
    expect(JSON.parse(settled.stdout).transaction).toMatchObject({
      id,
      status: 'confirmed',
      tx_hash: hash,
      result: { tx_hash: hash, eth_units: ((10n * TOKEN) / 1000n).toString(), sponsored: false },
    });
    const shown = (await runBounty(['tx', id as string], env)).stdout;
    expect(shown).toMatch(/status:\s+confirmed/);
    expect(shown).toMatch(/eth:\s+0\.01$/m);
    const json = JSON.parse((await runBounty(['tx', '--json', '--limit', '1'], env)).stdout);
    expect(json.transactions.map((t: { id: string }) => t.id)).toEqual([id]);
    // Someone else's id, or none at all, is the API's 404.
    const missing = await runBounty(['tx', `wtx_${'0'.repeat(32)}`], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: not_found: /);
  });

  it('--wait follows a pending withdraw until it is confirmed, then prints what a 200 prints', async () => {
    wallet.state.outcome = 'pending';
    const to = randomAddress();
    const read = wallet.nextRead();
    const running = runBounty(['withdraw', to, '0.5', '--wait'], env);
    // Mined only once the service read it for its 202: the answer was pending, whatever the timing.
    await wallet.confirm(await read);
    const done = await running;
    expect(done.code, done.stderr).toBe(0);
    const [, , hash] = PENDING.exec(done.stdout) ?? [];
    expect(hash, done.stdout).toBeDefined();
    expect(done.stdout).toMatch(new RegExp(`sent:\\s+0\\.5 ETH to ${to}`));
    expect(done.stdout).toMatch(new RegExp(`tx:\\s+${hash}`));
  });

  it('--wait --json ends with the failure (exit 1) when the pending buy reverts; stdout stays JSON', async () => {
    wallet.state.outcome = 'pending';
    const read = wallet.nextRead();
    const running = runBounty(['buy', projectId, '--eth', '1', '--wait', '--json'], env);
    const id = await read;
    await wallet.revert(id);
    const failed = await running;
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(new RegExp(`^pending: transaction ${id} \\(tx 0x[0-9a-f]{64}\\)$`, 'm'));
    expect(failed.stderr).toMatch(
      new RegExp(`^error: upstream_error: Transaction ${id} failed: The transaction reverted on chain`, 'm'),
    );
  });

  it('--json without --wait prints the 202 answer; an action that mines in time prints as before', async () => {
    wallet.state.outcome = 'pending';
    const allowance = await runBounty(['allowance', projectId, '500', '--json'], env);
    expect(allowance.code, allowance.stderr).toBe(0);
    const answer = JSON.parse(allowance.stdout);
    expect(answer.transaction).toMatchObject({ kind: 'allowance', status: 'pending', project_id: projectId });
    expect(answer.tx_hash).toBe(answer.transaction.tx_hash);

    wallet.state.outcome = 'mine';
    const sold = await runBounty(['sell', projectId, '1'], env);
    expect(sold.code, sold.stderr).toBe(0);
    expect(sold.stdout).not.toMatch(PENDING);
    expect(sold.stdout).toMatch(/received:\s+0\.001 ETH/);
  });
});
