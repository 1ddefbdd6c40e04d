import { fileURLToPath } from 'node:url';
import { type BountyClient, ok } from '../../typescript/index.ts';
import type { Cli } from '../context.ts';
import { fields, line, printJson, warn } from '../output.ts';
import { CliError } from '../settings.ts';

/**
 * The repository side of a contribution, through the API's one answer about it
 * (`GET /api/bounties/{id}/repository`: the clone URL, the branch, how a push authenticates): `repo`
 * prints it with `git-credential`, a git credential helper that gives git the key on the built-in
 * host, and `pr open` opens the pull request as the agent (`POST /api/bounties/{id}/pull-request`).
 */

/** The launcher of this checkout: what the printed credential helper runs, however `bounty` was started. */
const LAUNCHER = fileURLToPath(new URL('../../../bin/bounty.mjs', import.meta.url));

/** A word for sh, quoted only when it needs to be (the printed lines stay readable). */
const shQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

type RepoHostInfo = { kind: 'local' | 'github'; api_url: string; org: string };

async function repoHostOf(client: BountyClient): Promise<RepoHostInfo> {
  const { config } = await ok(client.GET('/api/config/public'));
  if (!config.repository_host) {
    throw new CliError('repo_host_unavailable', 'This marketplace has no repository host configured.');
  }
  return config.repository_host;
}

/** Reads git's credential request (`key=value` lines up to a blank line or the end). */
async function readCredentialRequest(): Promise<Record<string, string>> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += chunk;
    if (/\n\n$/.test(text)) break;
  }
  const request: Record<string, string> = {};
  for (const l of text.split('\n')) {
    const eq = l.indexOf('=');
    if (eq > 0) request[l.slice(0, eq)] = l.slice(eq + 1);
  }
  return request;
}

export function registerRepoCommands(cli: Cli): void {
  const { program } = cli;

  program
    .command('repo <bounty>')
    .description(
      "Where a bounty's repository is, which branch to push and how git logs in (its claimant or founder)",
    )
    .action(async (id: string) => {
      if (id.startsWith('proj_'))
        throw new CliError('usage', `repo takes a bounty id; a project's repository is its repo_url.`, 2);
      const client = cli.client({ requireKey: true });
      const { repository: r } = await ok(
        client.GET('/api/bounties/{id}/repository', { params: { path: { id } } }),
      );
      const { apiUrl } = cli.settings();
      const helper =
        r.host === 'local'
          ? `!${shQuote(process.execPath)} ${shQuote(LAUNCHER)} --url ${shQuote(apiUrl)} git-credential`
          : null;
      // With the helper in the clone's config git gets the key from `bounty` itself at each push.
      const clone = helper
        ? `git clone -c credential.helper=${shQuote(helper)} ${shQuote(r.clone_url)}`
        : r.commands.clone;
      const push = helper ? `git push origin ${shQuote(r.branch)}` : r.commands.push;
      if (cli.json())
        return printJson({ bounty_id: id, repository: r, credential_helper: helper, clone_command: clone });
      fields([
        ['repository', r.repo_url],
        ['branch', `${r.branch} (into ${r.base})`],
        ['git login', r.push],
        ['credential helper', helper && `${helper} (set in the clone below: it gives git your key)`],
        ['pull request', helper ? `bounty pr open ${id} --head ${r.branch}` : r.pull_request],
      ]);
      line();
      line(clone);
      line(r.commands.branch);
      line(push);
    });

  program
    .command('git-credential [action]')
    .description(
      'A git credential helper: gives git your API key for the repository host (built-in host only); ' +
        'set it with the line `bounty repo <id>` prints',
    )
    .action(async (action?: string) => {
      const request = await readCredentialRequest();
      // git also says `store` and `erase`: there is nothing to keep or forget.
      if (action !== 'get') return;
      const { apiKey } = cli.settings();
      if (!apiKey)
        return warn('bounty git-credential: no API key (run `bounty login` or set BOUNTY_API_KEY).');
      let host: RepoHostInfo;
      try {
        host = await repoHostOf(cli.client());
      } catch (err) {
        return warn(`bounty git-credential: ${err instanceof Error ? err.message : String(err)}`);
      }
      const api = new URL(host.api_url);
      // The key goes to the marketplace's own host only, never to whatever else git asks about.
      if (
        host.kind !== 'local' ||
        request.host !== api.host ||
        request.protocol !== api.protocol.slice(0, -1)
      )
        return;
      process.stdout.write(`username=agent\npassword=${apiKey}\n`);
    });

  const pr = program.command('pr').description('Pull requests on the repository host');
  pr.command('open <bounty>')
    .description(
      "Open your claimed bounty's pull request from your pushed branch, as you (built-in host), and print its address",
    )
    .requiredOption('--head <branch>', 'the branch you pushed (`bounty repo` names it)')
    .option('--title <text>', "its title (default: the bounty's)")
    .option('--body <text>', 'its description')
    .action(async (id: string, opts: { head: string; title?: string; body?: string }) => {
      const client = cli.client({ requireKey: true });
      const params = { path: { id } };
      const title = opts.title ?? (await ok(client.GET('/api/bounties/{id}', { params }))).bounty.title;
      const body = { title, head: opts.head, ...(opts.body ? { body: opts.body } : {}) };
      const opened = await ok(client.POST('/api/bounties/{id}/pull-request', { params, body }));
      if (cli.json()) return printJson(opened);
      line(`Opened pull request #${opened.pull_request.number}: ${opened.html_url}`);
      line(`Next: bounty submit ${id} ${opened.html_url}`);
    });
}
