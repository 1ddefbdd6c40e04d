import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRepoHost } from '../src/dev/local-repo-host/server.ts';
import { type TestChain, tokenBalance, transferLogs } from './helpers/chain.ts';
import { contributorGitEnv, withApiKey } from './helpers/git.ts';
import { type LiveApp, startLiveApp } from './helpers/live-app.ts';
import { ETH, TOKEN } from './helpers/wallets.ts';

/**
 * The whole product as a user runs it: the service listening on a real port with the system
 * clock and its background jobs, the embedded dev chain (anvil + factory) and the local
 * repository host, whose signed merge webhook reaches the service over HTTP. Everything a user
 * does goes over the wire: the marketplace API with fetch, the repository with `git` and the
 * host's GitHub-style REST API. The money is then checked on chain, to the base unit.
 */

const run = promisify(execFile);

let live: LiveApp;
let tc: TestChain;
let tmp: string;
let local: LocalRepoHost;
let base: string;
let gitEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  live = await startLiveApp('e2e');
  ({ tc, local, base, tmp } = live);
  gitEnv = contributorGitEnv(tmp, 'E2E Contributor');
});

afterAll(async () => {
  await live?.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies over the wire, read field by field as a client would
type Json = Record<string, any>;

/** One call to the marketplace over HTTP; returns the status and parsed body. */
async function call(method: string, path: string, opts: { key?: string; body?: unknown } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Json, text };
}

async function expectOk(
  method: string,
  path: string,
  opts: { key?: string; body?: unknown } = {},
  status = 200,
) {
  const res = await call(method, path, opts);
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
  return res.body;
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, env: gitEnv });
  return stdout.trim();
}

/** The repository host's GitHub-style REST API, at the base the service publishes. */
async function hostApi(apiUrl: string, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      accept: 'application/vnd.github+json',
      'content-type': 'application/json',
      authorization: `Bearer ${key}`,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

describe('the whole product, over the wire', () => {
  it('register, fund, activate, buy, approve, post, claim, push, open a PR, submit, merge: paid on chain', async () => {
    const started = Date.now();
    const suffix = `${process.pid}${Date.now().toString(36)}`.slice(-8);

    // Public configuration tells a client where everything is.
    const config = (await expectOk('GET', '/api/config/public')).config;
    expect(config.dev_chain).toBe(true);
    expect(config.wallet_generation_enabled).toBe(true);
    expect(config.repository_host).toEqual({ kind: 'local', api_url: local.apiUrl, org: local.org });
    const apiUrl = config.repository_host.api_url as string;
    const treasury = getAddress(config.treasury_address as string);

    // Two agents register and get in-app wallets.
    const founderReg = (
      await expectOk('POST', '/api/agents/register', { body: { name: `founder-${suffix}` } }, 201)
    ).agent;
    const devReg = (await expectOk('POST', '/api/agents/register', { body: { name: `dev-${suffix}` } }, 201))
      .agent;
    for (const a of [founderReg, devReg]) {
      expect(a.wallet_type).toBe('walletvendor_inapp');
      expect(a.wallet_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    }
    const founderKey = founderReg.api_key as string;
    const devKey = devReg.api_key as string;
    const founderWallet = getAddress(founderReg.wallet_address);
    const devWallet = getAddress(devReg.wallet_address);

    // The founder gets test ETH from the dev faucet.
    await expectOk('POST', '/api/dev/faucet', {
      key: founderKey,
      body: { eth_units: (5n * ETH).toString() },
    });
    const wallet = (await expectOk('GET', '/api/agents/me/wallet', { key: founderKey })).wallet;
    expect(BigInt(wallet.eth_balance_units)).toBe(5n * ETH);

    // Project created, then activated: a repository on the host and a token on chain.
    const symbol = `E${suffix.toUpperCase().replace(/[^A-Z0-9]/g, '')}`.slice(0, 11);
    const created = (
      await expectOk(
        'POST',
        '/api/projects',
        {
          key: founderKey,
          body: { name: `E2E ${suffix}`, token_symbol: symbol, description: 'End to end.' },
        },
        201,
      )
    ).project;
    expect(created.status).toBe('proposed');
    const project = (await expectOk('POST', `/api/projects/${created.id}/activate`, { key: founderKey }))
      .project;
    expect(project.status).toBe('active');
    const repoUrl = project.repo_url as string;
    expect(repoUrl.startsWith(`${local.baseUrl}/${local.org}/`)).toBe(true);
    const token = getAddress(project.token_address);
    const repoName = repoUrl.split('/').pop() as string;

    // The founder buys tokens with the in-app wallet and lets the platform pay rewards from them.
    const bought = await expectOk('POST', `/api/projects/${project.id}/buy`, {
      key: founderKey,
      body: { eth_units: ETH.toString() },
    });
    const tokensBought = BigInt(bought.tokens_units);
    expect(tokensBought).toBeGreaterThan(100n * TOKEN);
    expect(await tokenBalance(tc, token, founderWallet)).toBe(tokensBought);
    const allowance = await expectOk('POST', `/api/projects/${project.id}/allowance`, {
      key: founderKey,
      body: { amount: 1000 },
    });
    expect(allowance.allowance_units).toBe((1000n * TOKEN).toString());

    // A bounty is posted and claimed by the contributor.
    const reward = 100n;
    const bounty = (
      await expectOk(
        'POST',
        `/api/projects/${project.id}/bounties`,
        {
          key: founderKey,
          body: {
            title: 'Add a greeting',
            description: 'Add hello.txt saying hello.',
            reward_amount: Number(reward),
          },
        },
        201,
      )
    ).bounty;
    expect(bounty.status).toBe('open');
    const claimed = (await expectOk('POST', `/api/bounties/${bounty.id}/claim`, { key: devKey })).bounty;
    expect(claimed).toMatchObject({ status: 'claimed', claimed_by: devReg.id });

    // The contributor clones the repository by its web address, commits on a branch and pushes
    // with its API key as the password git is asked for; the pull request is its own.
    expect(devReg.repo_login).toBe(`dev-${suffix}`.toLowerCase());
    gitEnv = { ...gitEnv, ...withApiKey(devKey) };
    const work = join(tmp, 'work');
    await git(tmp, 'clone', '--quiet', repoUrl, work);
    expect(await git(work, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(readFileSync(join(work, 'README.md'), 'utf8').length).toBeGreaterThan(0);
    await git(work, 'checkout', '--quiet', '-b', 'feature/greeting');
    writeFileSync(join(work, 'hello.txt'), 'hello\n');
    await git(work, 'add', '-A');
    await git(work, 'commit', '--quiet', '-m', 'Add a greeting');
    await git(work, 'push', '--quiet', 'origin', 'feature/greeting');

    // Opens a pull request through the host's REST API and submits it.
    const pr = await hostApi(apiUrl, 'POST', `/repos/${local.org}/${repoName}/pulls`, devKey, {
      title: 'Add a greeting',
      head: 'feature/greeting',
      base: 'main',
      // A thorough description, as GitHub allows (65,536 characters): the merge delivery that
      // carries it is larger than the API's 64 KiB body limit.
      body: `For bounty ${bounty.id}.\n\n${'Explained at length. '.repeat(3100)}`,
    });
    expect(pr.status, JSON.stringify(pr.body)).toBe(201);
    expect(pr.body.user.login).toBe(devReg.repo_login);
    const prUrl = pr.body.html_url as string;
    expect(prUrl).toBe(`${repoUrl}/pull/${pr.body.number}`);
    const submission = (
      await expectOk(
        'POST',
        `/api/bounties/${bounty.id}/submit`,
        { key: devKey, body: { pr_url: prUrl } },
        201,
      )
    ).submission;
    expect(submission).toMatchObject({ status: 'pending', pr_url: prUrl, agent_id: devReg.id });
    expect((await expectOk('GET', `/api/bounties/${bounty.id}`)).bounty.status).toBe('in_review');

    const founderBefore = await tokenBalance(tc, token, founderWallet);
    const treasuryBefore = await tokenBalance(tc, token, treasury);
    expect(await tokenBalance(tc, token, devWallet)).toBe(0n);

    // The founder merges on the host; nobody calls approve: the signed webhook does it.
    const merged = await hostApi(
      apiUrl,
      'PUT',
      `/repos/${local.org}/${repoName}/pulls/${pr.body.number}/merge`,
      founderKey,
      {},
    );
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.merged).toBe(true);

    let done: Json | null = null;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const b = (await expectOk('GET', `/api/bounties/${bounty.id}`)).bounty;
      if (b.status === 'done') {
        done = b;
        break;
      }
      expect(b.status).toBe('in_review');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(done, 'the bounty did not become done within 20 s of the merge').not.toBeNull();
    const approved = (done as Json).submissions[0];
    expect(approved).toMatchObject({ id: submission.id, status: 'approved' });
    expect(approved.contributor_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(approved.platform_fee_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);

    // The money, on chain, to the base unit: 5% fee by default.
    const rewardUnits = reward * TOKEN;
    const feeUnits = (rewardUnits * 500n) / 10_000n;
    expect(await tokenBalance(tc, token, devWallet)).toBe(rewardUnits - feeUnits);
    expect(await tokenBalance(tc, token, treasury)).toBe(treasuryBefore + feeUnits);
    expect(await tokenBalance(tc, token, founderWallet)).toBe(founderBefore - rewardUnits);

    // One transaction pays both: the founder's merge made the reward owed, and the owed-payouts
    // job paid it with one call of the payout router (the spender the service publishes).
    expect(approved.platform_fee_tx_hash).toBe(approved.contributor_tx_hash);
    const payoutTx = await tc.pub.getTransaction({ hash: approved.contributor_tx_hash });
    expect(getAddress(payoutTx.to as string)).toBe(getAddress(config.payout_spender_address as string));

    // The token's own record: one transfer to the contributor, one to the treasury, both from the
    // founder, in that one transaction.
    const logs = await transferLogs(tc, token);
    const toDev = logs.filter((l) => getAddress(l.to) === devWallet);
    const toTreasury = logs.filter((l) => getAddress(l.to) === treasury);
    expect(toDev).toHaveLength(1);
    expect(toTreasury).toHaveLength(1);
    expect(toDev[0]).toMatchObject({
      from: founderWallet,
      value: rewardUnits - feeUnits,
      txHash: approved.contributor_tx_hash,
    });
    expect(toTreasury[0]).toMatchObject({
      from: founderWallet,
      value: feeUnits,
      txHash: approved.platform_fee_tx_hash,
    });
    const fromFounder = logs.filter((l) => getAddress(l.from) === founderWallet);
    expect(fromFounder).toHaveLength(2);

    // The feed tells the story; the contributor holds no active claim any more.
    const feed = (await expectOk('GET', `/api/activity?project_id=${project.id}&limit=100`))
      .activity as Json[];
    expect(feed.map((e) => e.type).reverse()).toEqual([
      'project.created',
      'project.activated',
      'bounty.created',
      'bounty.claimed',
      'submission.created',
      // The host reported the founder's merge (who merged it), then the approval it triggered.
      'submission.merged',
      'submission.approved',
    ]);
    expect(feed[1]?.data).toMatchObject({ merged_by: founderReg.repo_login, by_founder: true });
    expect(feed[0]?.data).toMatchObject({
      contributor_tx_hash: approved.contributor_tx_hash,
      platform_fee_tx_hash: approved.platform_fee_tx_hash,
    });
    expect((await expectOk('GET', '/api/agents/me', { key: devKey })).agent.active_claims).toEqual([]);

    // A late redelivery or a second approve pays nothing more.
    const again = await call('POST', `/api/bounties/${bounty.id}/approve`, { key: founderKey });
    expect(again.status, again.text).toBe(400);
    expect(again.body.error.code).toBe('not_in_review');
    expect((await transferLogs(tc, token)).filter((l) => getAddress(l.to) === devWallet)).toHaveLength(1);

    // The README's last step: the contributor, who never held ETH, sells its whole reward for ETH.
    const held = (await expectOk('GET', '/api/agents/me/wallet', { key: devKey })).wallet.tokens[0];
    expect(held).toMatchObject({
      project_id: project.id,
      balance_units: (rewardUnits - feeUnits).toString(),
    });
    const sale = await expectOk('POST', `/api/projects/${project.id}/sell`, {
      key: devKey,
      body: { tokens_units: held.balance_units },
    });
    expect(sale).toMatchObject({ sponsored: true });
    expect(await tokenBalance(tc, token, devWallet)).toBe(0n);
    expect(await tc.pub.getBalance({ address: devWallet })).toBe(BigInt(sale.eth_units));

    const stats = (await expectOk('GET', '/api/dashboard/stats')).stats;
    expect(stats.bounties.done).toBe(1);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 60_000);
});
