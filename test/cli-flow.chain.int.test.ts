import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenBalance } from './helpers/chain.ts';
import { cliEnv, runBounty } from './helpers/cli.ts';
import { contributorGitEnv } from './helpers/git.ts';
import { type LiveApp, startLiveApp } from './helpers/live-app.ts';
import { TOKEN } from './helpers/wallets.ts';

/**
 * The contributor's whole flow with nothing but `bounty` and git, as the README's CLI section tells
 * it: claim, `bounty repo` for the clone line (git then gets the API key from `bounty
 * git-credential`, no key in a file of git's, an environment variable or a URL), commit, push,
 * `bounty pr open`, `bounty submit`; the founder approves with `bounty approve`; the contributor
 * sells the reward with `bounty sell <project> all`. Agents print by name where the API answers ids.
 */

const run = promisify(execFile);

let live: LiveApp;

beforeAll(async () => {
  live = await startLiveApp('cli-flow');
});

afterAll(async () => {
  await live?.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: the CLI's --json output, read field by field as a script would
type Json = Record<string, any>;

describe("the contributor's flow, CLI and git only", () => {
  it('claims, clones with the credentials the CLI gives, pushes, opens the PR, submits, is paid, sells', async () => {
    const { base, tmp, tc } = live;
    const suffix = `${process.pid}${Date.now().toString(36)}`.slice(-8);

    // The contributor's machine: one home for git and for the CLI's stored login, no key exported.
    const gitEnv = contributorGitEnv(tmp, 'Flow Dev');
    delete gitEnv.BOUNTY_API_KEY;
    delete gitEnv.BOUNTY_API_URL;
    const devHome = gitEnv.XDG_CONFIG_HOME as string;
    const dev = (args: string[], input = '') => runBounty(args, cliEnv(base, devHome), input);
    const founder = (args: string[]) => runBounty(args, cliEnv(base, join(tmp, 'founder-config')));
    const json = async (res: Promise<{ code: number; stdout: string; stderr: string }>): Promise<Json> => {
      const r = await res;
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Json;
    };

    // The founder posts a funded bounty (its own CLI login).
    const F = await json(founder(['register', `flow-founder-${suffix}`, '--login', '--json']));
    await json(founder(['faucet', '--eth', '5', '--json']));
    const symbol = `F${suffix.toUpperCase().replace(/[^A-Z0-9]/g, '')}`.slice(0, 11);
    const proposed = await json(
      founder(['project', 'create', '--name', `Flow ${suffix}`, '--symbol', symbol, '--json']),
    );
    const project = (await json(founder(['project', 'activate', proposed.project.id, '--json']))).project;
    await json(founder(['buy', project.id, '--eth', '1', '--json']));
    await json(founder(['allowance', project.id, '1000', '--json']));
    const posted = (
      await json(
        founder([
          'post',
          project.id,
          '--title',
          'Add a greeting',
          '--description',
          'hello.txt saying hello',
          '--reward',
          '100',
          '--json',
        ]),
      )
    ).bounty;

    // The contributor registers and logs in, finds the bounty, claims it.
    const me = (await json(dev(['register', `flow-dev-${suffix}`, '--login', '--json']))).agent;
    const found = await json(dev(['bounties', '--status', 'open', '--project', project.id, '--json']));
    expect(found.bounties.map((b: Json) => b.id)).toEqual([posted.id]);
    const claimed = await dev(['claim', posted.id]);
    expect(claimed.code, claimed.stderr).toBe(0);

    // Where the repository is and how git logs in: a credential helper that is `bounty` itself.
    const repo = await json(dev(['repo', posted.id, '--json']));
    expect(repo).toMatchObject({
      bounty_id: posted.id,
      repository: { host: 'local', repo_url: project.repo_url, branch: `bounty-${posted.id}`, base: 'main' },
    });
    expect(repo.credential_helper).toMatch(/^!.*node.* .*bounty\.mjs'? --url \S+ git-credential$/);
    const shown = await dev(['repo', posted.id]);
    expect(shown.stdout).toMatch(/git login:\s+.*any user name, your marketplace API key as the password/);
    expect(shown.stdout).toContain(`git clone -c credential.helper=`);
    expect(shown.stdout).toContain(repo.clone_command);

    // The helper answers the marketplace's host with the key, and nothing to any other host.
    const apiHost = new URL(live.local.apiUrl).host;
    const given = await dev(['git-credential', 'get'], `protocol=http\nhost=${apiHost}\n\n`);
    expect(given).toMatchObject({ code: 0, stdout: `username=agent\npassword=${me.api_key}\n` });
    const elsewhere = await dev(['git-credential', 'get'], 'protocol=https\nhost=github.com\n\n');
    expect(elsewhere).toMatchObject({ code: 0, stdout: '' });
    expect((await dev(['git-credential', 'store'], `protocol=http\nhost=${apiHost}\n\n`)).stdout).toBe('');

    // git: clone with the helper configured in the clone, commit, push.
    const work = join(tmp, 'work');
    const git = (...args: string[]) => run('git', args, { cwd: work, env: gitEnv });
    await run(
      'git',
      [
        'clone',
        '--quiet',
        '-c',
        `credential.helper=${repo.credential_helper}`,
        repo.repository.clone_url,
        work,
      ],
      {
        env: gitEnv,
      },
    );
    expect((await git('config', '--get', 'credential.helper')).stdout.trim()).toBe(repo.credential_helper);
    await git('checkout', '--quiet', '-b', 'greeting');
    writeFileSync(join(work, 'hello.txt'), 'hello\n');
    await git('add', '-A');
    await git('commit', '--quiet', '-m', 'Add a greeting');
    await git('push', '--quiet', 'origin', 'greeting');
    // Without the helper the host refuses the push: the key came from the CLI, from nowhere else.
    await git('commit', '--quiet', '--allow-empty', '-m', 'Anonymous');
    await expect(git('-c', 'credential.helper=', 'push', '--quiet', 'origin', 'greeting')).rejects.toThrow();
    await git('reset', '--quiet', '--hard', 'HEAD~1');

    // The pull request, opened as the contributor by the CLI; then the submission.
    const opened = await dev(['pr', 'open', posted.id, '--head', 'greeting']);
    expect(opened.code, opened.stderr).toBe(0);
    const prUrl = /^Opened pull request #\d+: (\S+)$/m.exec(opened.stdout)?.[1] as string;
    expect(prUrl).toMatch(new RegExp(`^${project.repo_url}/pull/\\d+$`));
    expect(opened.stdout).toContain(`Next: bounty submit ${posted.id} ${prUrl}`);
    const twice = await dev(['pr', 'open', posted.id, '--head', 'greeting']);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(
      /^error: validation_error: The repository host refused the pull request \(.*already exists/,
    );
    const submitted = await json(dev(['submit', posted.id, prUrl, '--json']));
    expect(submitted.submission).toMatchObject({ status: 'pending', pr_url: prUrl, agent_id: me.id });

    // Names where the API answers ids: the bounty, the founder's queue, the feed.
    const detail = await dev(['show', posted.id]);
    expect(detail.stdout).toMatch(new RegExp(`claimed by:\\s+${me.name} \\(${me.id}\\)`));
    expect(detail.stdout).toMatch(
      new RegExp(`${submitted.submission.id}\\s+pending\\s+${me.name}\\s+${prUrl}`),
    );
    expect(detail.stdout).toContain(`'Add a greeting' by ${me.repo_login} · open · +1 −0 in 1 file`);
    const queue = await founder(['reviews']);
    expect(queue.stdout).toMatch(new RegExp(`${submitted.submission.id}\\s+${me.name}\\s`));
    const feed = await dev(['activity', '--project', project.id, '--limit', '3']);
    expect(feed.stdout).toMatch(
      new RegExp(`submission\\.created\\s+${project.id} ${posted.id} by ${me.name}`),
    );
    expect(feed.stdout).not.toContain(me.id);
    const shownProject = await dev(['project', 'show', project.id]);
    expect(shownProject.stdout).toMatch(new RegExp(`founder:\\s+${F.agent.name} \\(${F.agent.id}\\)`));

    // The founder approves; the reward less the fee is on chain in the contributor's wallet.
    const approved = await json(founder(['approve', posted.id, '--json']));
    expect(approved).toMatchObject({ bounty_id: posted.id, status: 'done' });
    const wallet = getAddress(me.wallet_address);
    expect(await tokenBalance(tc, project.token_address, wallet)).toBe(95n * TOKEN);

    // The contributor sells it all, with no ETH of its own.
    const sold = await dev(['sell', project.id, 'all']);
    expect(sold.code, sold.stderr).toBe(0);
    expect(sold.stdout).toMatch(new RegExp(`sold:\\s+95 ${symbol}`));
    expect(sold.stdout).toMatch(/sponsored:\s+yes/);
    expect(await tokenBalance(tc, project.token_address, wallet)).toBe(0n);
    const after = (await json(dev(['wallet', '--json']))).wallet;
    expect(after.tokens).toEqual([]);
    expect(BigInt(after.eth_balance_units)).toBeGreaterThan(0n);
  }, 180_000);
});
