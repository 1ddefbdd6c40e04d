import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRepoHost } from '../src/dev/local-repo-host/server.ts';
import { type TestChain, tokenBalance } from './helpers/chain.ts';
import { BOUNTY_BIN, cliEnv, runBounty } from './helpers/cli.ts';
import { contributorGitEnv, withApiKey } from './helpers/git.ts';
import { type LiveApp, startLiveApp } from './helpers/live-app.ts';
import { TOKEN } from './helpers/wallets.ts';

/**
 * The whole flow again, but only through `bounty` (spawned as a user runs it, `node
 * bin/bounty.mjs`), plus git for the push and the host's REST API to open the pull request: a
 * real app on anvil with the local repository host, everything over the wire.
 */

const run = promisify(execFile);

let live: LiveApp;
let tc: TestChain;
let tmp: string;
let local: LocalRepoHost;
let base: string;

beforeAll(async () => {
  live = await startLiveApp('cli');
  ({ tc, local, base, tmp } = live);
});

afterAll(async () => {
  await live?.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: the CLI's --json output, read field by field as a script would
type Json = Record<string, any>;

const bounty = (args: string[], opts: { key?: string } = {}) =>
  runBounty(args, cliEnv(base, join(tmp, 'config'), opts.key));

/** `bounty <args> --json`, which must succeed; returns the parsed JSON. */
async function bountyJson(args: string[], key?: string): Promise<Json> {
  const res = await bounty([...args, '--json'], key ? { key } : {});
  expect(res.code, `bounty ${args.join(' ')}: ${res.stderr}`).toBe(0);
  return JSON.parse(res.stdout) as Json;
}

/** Starts `bounty watch --json ...` and resolves with its first event line. */
function watchFirst(args: string[], key: string): { child: ChildProcess; first: Promise<Json> } {
  const child = spawn(process.execPath, [BOUNTY_BIN, 'watch', '--json', ...args], {
    env: cliEnv(base, join(tmp, 'config'), key),
  });
  const first = new Promise<Json>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const nl = out.indexOf('\n');
      if (nl !== -1) resolve(JSON.parse(out.slice(0, nl)) as Json);
    });
    child.once('exit', (code) => reject(new Error(`watch exited (${code}) before an event`)));
  });
  return { child, first };
}

describe('the bounty CLI, over the wire', () => {
  it('founder and contributor go from registration to a paid bounty with only the CLI and git', async () => {
    const suffix = `${process.pid}${Date.now().toString(36)}`.slice(-8);

    // Two agents; the key is printed once.
    const founder = (await bountyJson(['register', `cli-founder-${suffix}`])).agent;
    const dev = (await bountyJson(['register', `cli-dev-${suffix}`])).agent;
    const F = founder.api_key as string;
    const D = dev.api_key as string;
    expect(F).toMatch(/^bmk_/);

    // Founder: test ETH, a project, its activation, tokens, an allowance, a bounty.
    const faucet = await bountyJson(['faucet', '--eth', '5'], F);
    expect(faucet.eth_units).toBe((5n * 10n ** 18n).toString());
    const symbol = `C${suffix.toUpperCase().replace(/[^A-Z0-9]/g, '')}`.slice(0, 11);
    const proposed = (
      await bountyJson(['project', 'create', '--name', `CLI ${suffix}`, '--symbol', symbol], F)
    ).project;
    expect(proposed.status).toBe('proposed');
    const project = (await bountyJson(['project', 'activate', proposed.id], F)).project;
    expect(project.status).toBe('active');
    const bought = await bountyJson(['buy', project.id, '--eth', '1'], F);
    expect(BigInt(bought.tokens_units)).toBeGreaterThan(200n * TOKEN);
    const allowance = await bountyJson(['allowance', project.id, '1000'], F);
    expect(allowance.allowance_units).toBe((1000n * TOKEN).toString());
    const posted = (
      await bountyJson(
        [
          'post',
          project.id,
          '--title',
          'Add a greeting',
          '--description',
          'hello.txt saying hello',
          '--reward',
          '100',
          '--difficulty',
          'easy',
        ],
        F,
      )
    ).bounty;
    expect(posted).toMatchObject({ status: 'open', reward_amount: 100, difficulty: 'easy' });

    // Contributor: finds it with filters, claims it.
    const found = await bountyJson(
      [
        'bounties',
        '--status',
        'open',
        '--project',
        project.id,
        '--difficulty',
        'easy',
        '--payable',
        '--q',
        'greeting',
      ],
      D,
    );
    expect(found.bounties.map((b: Json) => b.id)).toEqual([posted.id]);
    const table = await bounty(['bounties', '--project', project.id], { key: D });
    // What the contributor's 95 tokens sell for now, next to the reward.
    expect(table.stdout).toMatch(new RegExp(`${posted.id}\\s+open\\s+100\\s+≈ [0-9.]+ ETH\\s+easy\\s+yes`));
    const detail = await bounty(['bounty', posted.id]);
    expect(detail.stdout).toMatch(/reward:\s+100 tokens \(≈ [0-9.]+ ETH to you\)/);
    expect((await bountyJson(['claim', posted.id], D)).bounty).toMatchObject({
      status: 'claimed',
      claimed_by: dev.id,
    });

    // Errors carry their code and exit 1: the same bounty again, and a second one on the project.
    const again = await bounty(['claim', posted.id], { key: D });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: invalid_state: /);
    // A second bounty, seen live by `watch` resuming after the last event the founder knows.
    const last = (await bountyJson(['activity', '--project', project.id, '--limit', '1'])).activity[0];
    const watch = watchFirst(['--project', project.id, '--types', 'bounty.created', '--since', last.id], D);
    const second = (
      await bountyJson(
        ['post', project.id, '--title', 'Second', '--description', 'Another', '--reward', '5'],
        F,
      )
    ).bounty;
    const event = await watch.first;
    expect(event).toMatchObject({ type: 'bounty.created', bounty_id: second.id, project_id: project.id });
    const exited = new Promise<number | null>((r) => watch.child.once('exit', r));
    watch.child.kill('SIGINT');
    expect(await exited).toBe(0);
    const limit = await bounty(['claim', second.id], { key: D });
    expect(limit.code).toBe(1);
    expect(limit.stderr).toMatch(/^error: claim_limit: /);

    // git for the work, the host's REST API for the pull request (as in the README).
    const gitEnv = { ...contributorGitEnv(tmp, 'CLI Dev'), ...withApiKey(D) };
    const work = join(tmp, 'work');
    const git = (...args: string[]) => run('git', args, { cwd: work, env: gitEnv });
    await run('git', ['clone', '--quiet', project.repo_url, work], { env: gitEnv });
    await git('checkout', '--quiet', '-b', 'greeting');
    writeFileSync(join(work, 'hello.txt'), 'hello\n');
    await git('add', '-A');
    await git('commit', '--quiet', '-m', 'Add a greeting');
    await git('push', '--quiet', 'origin', 'greeting');
    const repoName = (project.repo_url as string).split('/').pop();
    const pr = await fetch(`${local.apiUrl}/repos/${local.org}/${repoName}/pulls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${D}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Add a greeting', head: 'greeting', base: 'main' }),
    });
    expect(pr.status).toBe(201);
    const prUrl = ((await pr.json()) as Json).html_url as string;
    const first = (await bountyJson(['submit', posted.id, prUrl], D)).submission;
    expect(first).toMatchObject({ status: 'pending', pr_url: prUrl });

    // Founder: the queue shows its checks and what approving pays (95 tokens, 5 of fee); changes first.
    const queued = await bounty(['reviews'], { key: F });
    expect(queued.stdout).toMatch(new RegExp(`${posted.id}\\s+100\\s+95 \\(≈ [0-9.]+ ETH\\)\\s+5\\s+no\\s`));
    expect(queued.stdout).toMatch(new RegExp(`${first.id}\\s.*\\snone\\s+yes\\s+${prUrl}`));
    const sentBack = await bounty(['request-changes', posted.id, '--notes', 'End it with a bang.'], {
      key: F,
    });
    expect(sentBack.code, sentBack.stderr).toBe(0);
    expect(sentBack.stdout).toMatch(
      new RegExp(
        `^Sent ${first.id} back for changes; ${posted.id} is claimed again, resubmit by \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\.$`,
        'm',
      ),
    );
    const reviewed = await bounty(['show', posted.id]);
    expect(reviewed.stdout).toMatch(/status:\s+claimed/);
    const number = prUrl.split('/').pop();
    expect(reviewed.stdout).toContain(
      `PR #${number} 'Add a greeting' by ${dev.repo_login} · open · +1 −0 in 1 file · mergeable: yes · checks: none`,
    );
    expect(reviewed.stdout).toMatch(/review:\s+changes requested: resubmit by \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(reviewed.stdout).toMatch(/review notes:\s+End it with a bang\./);
    // The contributor pushes the fix and submits the same pull request again.
    writeFileSync(join(work, 'hello.txt'), 'hello!\n');
    await git('commit', '--quiet', '-am', 'End it with a bang');
    await git('push', '--quiet', 'origin', 'greeting');
    const submission = (await bountyJson(['submit', posted.id, prUrl], D)).submission;
    expect(submission).toMatchObject({ status: 'pending', pr_url: prUrl });
    expect(submission.id).not.toBe(first.id);

    // The review queue shows the new submission; approve pays.
    const reviews = (await bountyJson(['reviews'], F)).reviews as Json[];
    expect(reviews.map((r) => [r.bounty.id, r.submission.id])).toEqual([[posted.id, submission.id]]);
    const queue = await bounty(['reviews'], { key: F });
    expect(queue.stdout).toContain(prUrl);
    const approved = await bountyJson(['approve', posted.id, '--notes', 'Nice.', '--merge'], F);
    expect(approved).toMatchObject({ bounty_id: posted.id, status: 'done', submission_id: submission.id });
    // --merge: the host merged the pull request (a real git merge on the built-in host) before paying.
    const onHost = await fetch(
      `${local.apiUrl}/repos/${local.org}/${repoName}/pulls/${prUrl.split('/').pop()}`,
    );
    expect(((await onHost.json()) as Json).merged).toBe(true);

    const done = (await bountyJson(['bounty', posted.id])).bounty;
    expect(done.status).toBe('done');
    expect(done.submissions[0]).toMatchObject({
      status: 'approved',
      contributor_tx_hash: approved.contributor_tx_hash,
      platform_fee_tx_hash: approved.platform_fee_tx_hash,
    });
    expect(approved.contributor_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await tc.pub.getTransactionReceipt({ hash: approved.contributor_tx_hash });
    expect(receipt.status).toBe('success');
    // 100 tokens less the 5% fee, on chain.
    expect(await tokenBalance(tc, project.token_address, getAddress(dev.wallet_address))).toBe(95n * TOKEN);
    expect((await bountyJson(['me'], D)).agent.active_claims).toEqual([]);

    // The contributor cashes out with no ETH: a token withdraw, then a sale of the rest, both sponsored.
    const wallet = (await bountyJson(['wallet'], D)).wallet;
    expect(wallet).toMatchObject({ eth_balance_units: '0', earnings: { completed: 1 } });
    expect(wallet.tokens).toEqual([
      expect.objectContaining({ project_id: project.id, balance_units: (95n * TOKEN).toString() }),
    ]);
    const shown = await bounty(['wallet'], { key: D });
    expect(shown.stdout).toMatch(new RegExp(`${symbol}\\s+95\\s+≈ [0-9.]+ ETH\\s+CLI ${suffix}`));
    expect(shown.stdout).toMatch(new RegExp(`95 ${symbol}\\s+1\\s+≈ [0-9.]+ ETH\\s+CLI ${suffix}`));
    expect(shown.stdout).toMatch(/earned in all: 1 bounty, ≈ [0-9.]+ ETH now/);
    const to = getAddress(`0x${'ab'.repeat(20)}`);
    const sent = await bounty(['withdraw', to, '10', '--project', project.id], { key: D });
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(/sponsored:\s+yes, the platform paid the gas/);
    expect(await tokenBalance(tc, project.token_address, to)).toBe(10n * TOKEN);
    const sold = await bounty(['sell', project.id, 'all'], { key: D });
    expect(sold.code, sold.stderr).toBe(0);
    expect(sold.stdout).toMatch(new RegExp(`sold:\\s+85 ${symbol}`));
    expect(sold.stdout).toMatch(/gas:\s+0\.\d+ ETH, paid by the platform and taken back from the sale/);
    expect(sold.stdout).toMatch(/sponsored:\s+yes/);
    expect(await tokenBalance(tc, project.token_address, getAddress(dev.wallet_address))).toBe(0n);
    const after = (await bountyJson(['wallet'], D)).wallet;
    expect(after.tokens).toEqual([]);
    expect(BigInt(after.eth_balance_units)).toBeGreaterThan(0n);
    // ETH now pays its own gas.
    expect(await bountyJson(['withdraw', to, '1000wei'], D)).toMatchObject({ sponsored: false });
    expect(await tc.pub.getBalance({ address: to })).toBe(1000n);

    const nothing = await bounty(['reviews'], { key: F });
    expect(nothing.stdout).toContain('(nothing to review)');
    const missing = await bounty(['bounty', 'bnt_missing']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: not_found: /);
    // 32 CLI processes, git and the chain in one journey: ~30 s on a quiet box, 94 s and 120+ s in
    // two clean CI runs on a slower one (2026-11-28), where every process start costs seconds.
  }, 300_000);
});
