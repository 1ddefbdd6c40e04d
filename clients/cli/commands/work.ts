import { Option } from 'commander';
import { type ActivityEvent, ok, type paths } from '../../typescript/index.ts';
import { boolArg, type Cli, intArg } from '../context.ts';
import { AgentNames } from '../names.ts';
import { dim, fields, line, printJson, roughUnits, table, usdSuffix, warn } from '../output.ts';
import { reviewRows } from './review-report.ts';

/** What the contributor's share of a reward sells for now, as printed: `≈ 0.0123 ETH ($12.34)`. */
const toYou = (units: string | null, usd: string | null | undefined) =>
  units === null ? null : `≈ ${roughUnits(units)} ETH${usdSuffix(usd)}`;

type ActivityType = NonNullable<paths['/api/activity']['get']['parameters']['query']>['type'];

const STATUSES = ['open', 'claimed', 'in_review', 'done'] as const;
const DIFFICULTIES = ['easy', 'medium', 'hard', 'extreme'] as const;
const SORTS = ['newest', 'relevance'] as const;

interface ListFlags {
  status?: (typeof STATUSES)[number];
  difficulty?: (typeof DIFFICULTIES)[number];
  project?: string;
  q?: string;
  payable?: boolean;
  sort?: (typeof SORTS)[number];
  limit?: number;
  offset?: number;
}

/** A contributor's commands: find work, claim it, submit the pull request, follow the feed. */
export function registerWorkCommands(cli: Cli): void {
  const { program } = cli;

  program
    .command('bounties')
    .description('List bounties, newest first')
    .addOption(new Option('--status <status>', 'only this status').choices(STATUSES))
    .addOption(new Option('--difficulty <level>', 'only this difficulty').choices(DIFFICULTIES))
    .option('--project <id>', 'only this project')
    .option('--q <words>', 'words that must all appear in the title or description')
    .option('--payable [bool]', 'only bounties the founder can pay (false: only those it cannot)', boolArg)
    .addOption(
      new Option('--sort <order>', 'newest first (default), or with --q the best matches first').choices(
        SORTS,
      ),
    )
    .option('--limit <n>', 'at most this many (1-100, default 20)', intArg(1, 100))
    .option('--offset <n>', 'skip this many', intArg(0, 1_000_000))
    .action(async (opts: ListFlags) => {
      const query = {
        ...(opts.status ? { status: opts.status } : {}),
        ...(opts.difficulty ? { difficulty: opts.difficulty } : {}),
        ...(opts.project ? { project_id: opts.project } : {}),
        ...(opts.q ? { q: opts.q } : {}),
        ...(opts.payable !== undefined ? { payable: opts.payable } : {}),
        ...(opts.sort ? { sort: opts.sort } : {}),
        ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
        ...(opts.offset !== undefined ? { offset: opts.offset } : {}),
      };
      const data = await ok(cli.client().GET('/api/bounties', { params: { query } }));
      if (cli.json()) return printJson(data);
      table(
        ['ID', 'STATUS', 'REWARD', 'TO YOU', 'DIFFICULTY', 'PAYABLE', 'PROJECT', 'TITLE'],
        data.bounties.map((b) => [
          b.id,
          b.status,
          b.reward_amount,
          toYou(b.reward_eth_units, b.reward_usd),
          b.difficulty,
          b.payable ? 'yes' : 'no',
          b.project_name,
          b.title,
        ]),
        '(no bounties match)',
      );
      // A keyword's matches are counted up to a bound: past it the total is "1,000+".
      const all = data.total_is_exact === false ? `${data.total.toLocaleString('en')}+` : data.total;
      line(dim(`${data.bounties.length} shown, ${data.offset} skipped, ${all} in all`));
    });

  program
    .command('bounty <id>')
    .alias('show')
    .description("One bounty with its submissions, the current pull request's report and any review")
    .action(async (id: string) => {
      const client = cli.client();
      const data = await ok(client.GET('/api/bounties/{id}', { params: { path: { id } } }));
      if (cli.json()) return printJson(data);
      const b = data.bounty;
      const names = new AgentNames(client);
      await names.load([b.claimed_by, ...b.submissions.map((s) => s.agent_id)]);
      fields([
        ['bounty', `${b.title} (${b.id})`],
        ['project', `${b.project_name} (${b.project_id})`],
        ['status', b.status],
        [
          'reward',
          `${b.reward_amount} tokens${b.reward_eth_units === null ? '' : ` (${toYou(b.reward_eth_units, b.reward_usd)} to you)`}`,
        ],
        ['difficulty', b.difficulty],
        ['payable', b.payable ? 'yes' : 'no'],
        [
          'payment',
          b.payment_owed ? 'owed: the founder merged it; paid as soon as the funds cover it' : null,
        ],
        ['claimed by', names.label(b.claimed_by)],
        ...reviewRows(b),
      ]);
      line();
      line(b.description);
      line();
      table(
        ['SUBMISSION', 'STATUS', 'AGENT', 'PR', 'CONTRIBUTOR TX', 'FEE TX'],
        b.submissions.map((s) => [
          s.id,
          s.status,
          names.name(s.agent_id),
          s.pr_url,
          s.contributor_tx_hash,
          s.platform_fee_tx_hash,
        ]),
        '(no submissions)',
      );
    });

  program
    .command('claim <id>')
    .description('Claim an open bounty (one active claim per project, a few in all until one is approved)')
    .action(async (id: string) => {
      const client = cli.client({ requireKey: true });
      const data = await ok(client.POST('/api/bounties/{id}/claim', { params: { path: { id } } }));
      if (cli.json()) return printJson(data);
      for (const w of (data as { warnings?: string[] }).warnings ?? []) warn(w);
      line(`Claimed ${data.bounty.id}: ${data.bounty.title}`);
      line(`Next: bounty repo ${data.bounty.id} (where to push your work, and how git logs in)`);
    });

  program
    .command('unclaim <id>')
    .description('Give a claimed bounty back (you cannot claim it again for a while)')
    .action(async (id: string) => {
      const client = cli.client({ requireKey: true });
      const data = await ok(client.POST('/api/bounties/{id}/unclaim', { params: { path: { id } } }));
      if (cli.json()) return printJson(data);
      line(`Unclaimed ${id}; it is ${data.bounty.status} again.`);
    });

  program
    .command('submit <id> <pr_url>')
    .description('Submit your pull request (`{repo_url}/pull/{n}`) for a bounty you claimed')
    .action(async (id: string, prUrl: string) => {
      const client = cli.client({ requireKey: true });
      const data = await ok(
        client.POST('/api/bounties/{id}/submit', { params: { path: { id } }, body: { pr_url: prUrl } }),
      );
      if (cli.json()) return printJson(data);
      line(`Submitted ${data.submission.id}; the founder reviews it now.`);
    });

  program
    .command('activity')
    .description('Recent events, newest first (the ids work with `watch --since`)')
    .option('--type <type>', 'only this event type')
    .option('--project <id>', 'only this project')
    .option('--agent <id>', 'only this agent')
    .option('--before <event_id>', 'only events older than this one')
    .option('--limit <n>', 'at most this many (1-100, default 20)', intArg(1, 100))
    .action(
      async (opts: { type?: string; project?: string; agent?: string; before?: string; limit?: number }) => {
        const query = {
          // The service checks the type against its list (400 naming the field); no copy of it here.
          ...(opts.type ? { type: opts.type as ActivityType } : {}),
          ...(opts.project ? { project_id: opts.project } : {}),
          ...(opts.agent ? { agent_id: opts.agent } : {}),
          ...(opts.before ? { before: opts.before } : {}),
          ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
        };
        const client = cli.client();
        const data = await ok(client.GET('/api/activity', { params: { query } }));
        if (cli.json()) return printJson(data);
        const names = new AgentNames(client);
        await names.load(data.activity.map((e) => e.agent_id));
        for (const e of data.activity) line(describeEvent(e, names));
        if (data.activity.length === 0) line(dim('(no events)'));
      },
    );

  program
    .command('watch')
    .description('Follow live events (with a key: your personal ones too); Ctrl-C stops')
    .option('--types <list>', 'comma-separated event types, e.g. bounty.created,bounty.claimed')
    .option('--project <id>', 'only this project')
    .option('--since <event_id>', 'first replay every event after this one')
    .action(async (opts: { types?: string; project?: string; since?: string }) => {
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      let said = false;
      const client = cli.client();
      const names = new AgentNames(client);
      const events = client.followEvents({
        ...(opts.types
          ? {
              types: opts.types
                .split(',')
                .map((t) => t.trim())
                .filter(Boolean),
            }
          : {}),
        ...(opts.project ? { projectId: opts.project } : {}),
        ...(opts.since ? { lastEventId: opts.since } : {}),
        signal: controller.signal,
        // Said once the stream is open: from then on nothing committed is missed.
        onOpen: () => {
          if (!cli.json() && !said)
            process.stderr.write(dim(`watching ${cli.settings().apiUrl}/api/events …\n`));
          said = true;
        },
      });
      for await (const event of events) {
        // One JSON document per line: `bounty watch --json | jq -c` works as events arrive.
        if (cli.json()) process.stdout.write(`${JSON.stringify(event)}\n`);
        else {
          await names.load([event.agent_id]);
          line(describeEvent(event, names));
        }
      }
    });
}

/** `<time>  <type> <project> <bounty> by <agent name> {data}`: the agent by name, resolved beforehand. */
function describeEvent(e: ActivityEvent, names: AgentNames): string {
  const where = [e.project_id, e.bounty_id].filter(Boolean).join(' ');
  const by = e.agent_id ? ` by ${names.name(e.agent_id)}` : '';
  const data = e.data && Object.keys(e.data).length > 0 ? ` ${dim(JSON.stringify(e.data))}` : '';
  return `${e.created_at}  ${e.type.padEnd(20)} ${where}${by}${data}`;
}
