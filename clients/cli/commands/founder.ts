import { Option } from 'commander';
import { ok } from '../../typescript/index.ts';
import { type Cli, intArg } from '../context.ts';
import { AgentNames } from '../names.ts';
import { dim, fields, formatUnits, line, printJson, table, withSpinner } from '../output.ts';
import { CliError } from '../settings.ts';
import { ethOption } from './amounts.ts';
import { printReviewHistory, registerReviewHistoryCommands } from './review-history.ts';
import { checksText, deadlineText, ethText, reviewQueue } from './review-report.ts';
import { settle, waitOption } from './transactions.ts';

/** A founder's commands: a project and its token, funds for payouts, bounties, reviews. */
export function registerFounderCommands(cli: Cli): void {
  const { program } = cli;
  const client = () => cli.client({ requireKey: true });
  const project = program.command('project').description('Create and activate projects');

  project
    .command('create')
    .description('Propose a project; you are its founder')
    .requiredOption('--name <name>', 'the project name')
    .requiredOption('--symbol <symbol>', 'its token symbol (2-11 uppercase letters or digits)')
    .option('--description <text>', 'what it is about')
    .action(async (opts: { name: string; symbol: string; description?: string }) => {
      const body = {
        name: opts.name,
        token_symbol: opts.symbol,
        ...(opts.description ? { description: opts.description } : {}),
      };
      const data = await ok(client().POST('/api/projects', { body }));
      if (cli.json()) return printJson(data);
      line(
        `Created ${data.project.id} (${data.project.status}). Next: bounty project activate ${data.project.id}`,
      );
    });

  project
    .command('activate <id>')
    .description('Create the repository and deploy the token and curve (takes a while)')
    .action(async (id: string) => {
      const data = await withSpinner('Activating: repository, token and bonding curve…', () =>
        ok(client().POST('/api/projects/{id}/activate', { params: { path: { id } } })),
      );
      if (cli.json()) return printJson(data);
      const p = data.project;
      fields([
        ['project', `${p.name} (${p.id})`],
        ['status', p.status],
        ['repository', p.repo_url],
        ['token', `${p.token_symbol} ${p.token_address}`],
        ['curve', p.curve_address],
      ]);
    });

  project
    .command('show <id>')
    .description('One project')
    .action(async (id: string) => {
      const c = cli.client();
      const data = await ok(c.GET('/api/projects/{id}', { params: { path: { id } } }));
      if (cli.json()) return printJson(data);
      const p = data.project;
      const names = new AgentNames(c);
      await names.load([p.founder_id]);
      fields([
        ['project', `${p.name} (${p.id})`],
        ['status', p.status],
        ['founder', names.label(p.founder_id)],
        ['repository', p.repo_url],
        ['token', `${p.token_symbol} ${p.token_address ?? ''}`],
      ]);
    });

  program
    .command('buy <project>')
    .description("Buy the project's tokens on its bonding curve with your in-app wallet")
    .addOption(
      ethOption(
        '--eth <amount>',
        'ETH to pay: a decimal (0.5) or base units with "wei"',
      ).makeOptionMandatory(),
    )
    .addOption(waitOption())
    .action(async (projectId: string, opts: { eth: string; wait?: boolean }) => {
      const c = client();
      const answer = await withSpinner('Buying…', () =>
        ok(
          c.POST('/api/projects/{id}/buy', {
            params: { path: { id: projectId } },
            body: { eth_units: opts.eth },
          }),
        ),
      );
      const data = await settle(cli, c, answer, opts.wait);
      if (!data) return;
      if (cli.json()) return printJson(data);
      line(
        `Bought ${formatUnits(data.tokens_units)} tokens for ${formatUnits(opts.eth)} ETH (tx ${data.tx_hash}).`,
      );
    });

  program
    .command('allowance')
    .description('Let the platform pay rewards from up to <amount> whole tokens of yours')
    .argument('<project>', 'project id')
    .argument('<amount>', 'whole tokens (replaces the current allowance)', intArg(0, 1_000_000_000))
    .addOption(waitOption())
    .action(async (projectId: string, amount: number, opts: { wait?: boolean }) => {
      const c = client();
      const answer = await withSpinner('Setting the allowance…', () =>
        ok(
          c.POST('/api/projects/{id}/allowance', {
            params: { path: { id: projectId } },
            body: { amount },
          }),
        ),
      );
      const data = await settle(cli, c, answer, opts.wait);
      if (!data) return;
      if (cli.json()) return printJson(data);
      line(`Allowance set to ${formatUnits(data.allowance_units)} tokens (tx ${data.tx_hash}).`);
    });

  program
    .command('faucet')
    .description('Dev chain only: test ETH for your wallet')
    .addOption(ethOption('--eth <amount>', 'how much (default 1 ETH)'))
    .action(async (opts: { eth?: string }) => {
      const body = opts.eth ? { eth_units: opts.eth } : {};
      const data = await withSpinner('Asking the faucet…', () =>
        ok(client().POST('/api/dev/faucet', { body })),
      );
      if (cli.json()) return printJson(data);
      line(`Sent ${formatUnits(data.eth_units)} ETH to ${data.address} (tx ${data.tx_hash}).`);
    });

  program
    .command('post <project>')
    .description('Post a bounty on an active project of yours')
    .requiredOption('--title <title>', 'short title')
    .requiredOption('--description <text>', 'what done looks like')
    .requiredOption('--reward <tokens>', 'reward in whole tokens', intArg(1, 1_000_000_000))
    .addOption(new Option('--difficulty <level>').choices(['easy', 'medium', 'hard', 'extreme'] as const))
    .action(
      async (
        projectId: string,
        opts: {
          title: string;
          description: string;
          reward: number;
          difficulty?: 'easy' | 'medium' | 'hard' | 'extreme';
        },
      ) => {
        const data = await ok(
          client().POST('/api/projects/{id}/bounties', {
            params: { path: { id: projectId } },
            body: {
              title: opts.title,
              description: opts.description,
              reward_amount: opts.reward,
              ...(opts.difficulty ? { difficulty: opts.difficulty } : {}),
            },
          }),
        );
        if (cli.json()) return printJson(data);
        line(`Posted ${data.bounty.id}: ${data.bounty.title} (${data.bounty.reward_amount} tokens).`);
      },
    );

  program
    .command('reviews')
    .description(
      'Your review queue, oldest first: each pending submission, its checks, and what approving pays (tokens ' +
        'to the contributor, the fee, and the ETH the share sells for now); then your earlier reviews of ' +
        'resubmissions and the bounties waiting for their contributor',
    )
    .option('--limit <n>', 'at most this many (1-100, default 20)', intArg(1, 100))
    .option('--offset <n>', 'skip this many', intArg(0, 1_000_000))
    .action(async (opts: { limit?: number; offset?: number }) => {
      const c = client();
      const data = await reviewQueue(c, opts);
      if (cli.json()) return printJson(data);
      const { reviews } = data;
      const names = new AgentNames(c);
      await names.load([...reviews, ...data.waiting].map((r) => r.submission.agent_id));
      table(
        [
          'BOUNTY',
          'REWARD',
          'TO CONTRIBUTOR',
          'FEE',
          'OWED',
          'PROJECT',
          'SUBMISSION',
          'BY',
          'SUBMITTED',
          'CHECKS',
          'MERGEABLE',
          'PR',
        ],
        reviews.map(({ bounty: b, submission: s, payout: p }) => [
          b.id,
          b.reward_amount,
          `${formatUnits(p.contributor_units)}${b.reward_eth_units === null ? '' : ` (${ethText(b.reward_eth_units, b.reward_usd)})`}`,
          formatUnits(p.fee_units),
          b.payment_owed ? 'yes' : 'no',
          b.project_name,
          s.id,
          names.name(s.agent_id),
          s.created_at,
          s.pull_request ? checksText(s.pull_request.checks) : '-',
          s.pull_request?.mergeable == null ? '-' : s.pull_request.mergeable ? 'yes' : 'no',
          s.pr_url,
        ]),
        '(nothing to review)',
      );
      line(dim(`${reviews.length} shown, ${data.offset} skipped, ${data.total} in all`));
      printReviewHistory(data, names);
    });
  registerReviewHistoryCommands(cli);

  program
    .command('approve <bounty>')
    .description('Approve the pending submission: the contributor is paid on chain')
    .option('--notes <text>', 'review notes')
    .option('--merge', 'merge the pull request on the repository host first, and pay once it is merged')
    .action(async (id: string, opts: { notes?: string; merge?: boolean }) => {
      const data = await withSpinner(
        opts.merge ? 'Merging, then paying on chain…' : 'Approving and paying on chain…',
        () =>
          ok(
            client().POST('/api/bounties/{id}/approve', {
              params: { path: { id } },
              body: {
                ...(opts.notes ? { review_notes: opts.notes } : {}),
                ...(opts.merge ? { merge: true } : {}),
              },
            }),
          ),
      );
      if (cli.json()) return printJson(data);
      fields([
        ['approved', `${data.submission_id} (bounty ${data.bounty_id} is ${data.status})`],
        ['contributor tx', data.contributor_tx_hash],
        ['fee tx', data.platform_fee_tx_hash],
      ]);
    });

  program
    .command('request-changes <bounty>')
    .description(
      'Send the pending submission back: the same contributor keeps the claim to fix it and resubmit',
    )
    .requiredOption('--notes <text>', 'what to change, for the contributor')
    .action(async (id: string, opts: { notes: string }) => {
      if (!opts.notes.trim()) throw new CliError('usage', '--notes must say what to change.', 2);
      const data = await ok(
        client().POST('/api/bounties/{id}/request-changes', {
          params: { path: { id } },
          body: { review_notes: opts.notes },
        }),
      );
      if (cli.json()) return printJson(data);
      line(
        `Sent ${data.submission_id} back for changes; ${data.bounty_id} is ${data.status} again, resubmit by ${deadlineText(data.revision_due_at)}.`,
      );
    });

  program
    .command('reject <bounty>')
    .description('Reject the pending submission; the bounty opens again for anyone')
    .requiredOption('--notes <text>', 'why, for the contributor')
    .action(async (id: string, opts: { notes: string }) => {
      if (!opts.notes.trim()) throw new CliError('usage', '--notes must say why.', 2);
      const data = await ok(
        client().POST('/api/bounties/{id}/reject', {
          params: { path: { id } },
          body: { review_notes: opts.notes },
        }),
      );
      if (cli.json()) return printJson(data);
      line(`Rejected ${data.submission_id}; ${data.bounty_id} is ${data.status} again.`);
    });
}
