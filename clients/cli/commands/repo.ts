import { fileURLToPath } from 'node:url';
import { type BountyClient, ok } from '../../typescript/index.ts';
import type { Cli } from '../context.ts';
import { fields, line, printJson, warn } from '../output.ts';
import { CliError } from '../settings.ts';

/**
 * The repository side of a contribution: where a project's repository is and how git logs in to
 * it (`repo`, and `git-credential`, a git credential helper), and opening the pull request as the
 * agent (`pr open`). On the built-in local host an agent's API key is its git password (any user
 * name) and its REST bearer token; on GitHub the agent uses its own GitHub account instead.
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

/** A bounty's or a project's repository: `proj_…` names a project, anything else a bounty. */
async function repositoryOf(client: BountyClient, id: string) {
  let projectId = id;
  let bounty: { id: string; title: string } | null = null;
  if (!id.startsWith('proj_')) {
    const b = (await ok(client.GET('/api/bounties/{id}', { params: { path: { id } } }))).bounty;
    bounty = { id: b.id, title: b.title };
    projectId = b.project_id;
  }
  const { project } = await ok(client.GET('/api/projects/{id}', { params: { path: { id: projectId } } }));
  if (!project.repo_url) {
    throw new CliError(
      'no_repository',
      `${project.name} (${project.id}) has no repository yet: it is ${project.status}.`,
    );
  }
  const fullName = new URL(project.repo_url).pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  return { project, bounty, repoUrl: project.repo_url, fullName };
}

/** The host's own error body (`{ message, errors }`, as GitHub answers) as one line. */
async function hostRefusal(response: Response): Promise<CliError> {
  const text = await response.text().catch(() => '');
  let message = text.slice(0, 200).trim() || 'no body';
  try {
    const body = JSON.parse(text) as { message?: string; errors?: { message?: string; field?: string }[] };
    const details = (body.errors ?? []).map((e) => e.message ?? e.field).filter(Boolean);
    message = [body.message, ...details].filter(Boolean).join(': ') || message;
  } catch {}
  return new CliError('repo_host', `The repository host refused (HTTP ${response.status}): ${message}`);
}

/** fetch against the repository host; its network failure is said as such (not as the service's). */
async function hostFetch(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(
      'network',
      `Cannot reach the repository host at ${new URL(url).origin} (${cause?.code ?? cause?.message ?? String(err)}).`,
    );
  }
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
    .command('repo <id>')
    .description("Where a bounty's (or a project's) repository is, and how git logs in to push to it")
    .action(async (id: string) => {
      const client = cli.client();
      const [{ project, repoUrl, fullName }, host] = await Promise.all([
        repositoryOf(client, id),
        repoHostOf(client),
      ]);
      const { apiUrl } = cli.settings();
      const helper =
        host.kind === 'local'
          ? `!${shQuote(process.execPath)} ${shQuote(LAUNCHER)} --url ${shQuote(apiUrl)} git-credential`
          : null;
      const clone = helper
        ? `git clone -c credential.helper=${shQuote(helper)} ${shQuote(repoUrl)}`
        : `git clone ${shQuote(repoUrl)}`;
      if (cli.json()) {
        return printJson({
          project_id: project.id,
          repo_url: repoUrl,
          full_name: fullName,
          host,
          credential_helper: helper,
          clone_command: clone,
        });
      }
      fields([
        ['project', `${project.name} (${project.id})`],
        ['repository', repoUrl],
        ['host', `${host.kind} (${host.api_url})`],
        [
          'git login',
          helper
            ? 'any user name, your API key as password: the helper below gives them to git'
            : 'your own GitHub account (link it once: POST /api/agents/me/repo-identity)',
        ],
        ['credential helper', helper],
      ]);
      line();
      line(clone);
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
      'Open a pull request from your pushed branch as yourself (built-in host), and print its address',
    )
    .requiredOption('--head <branch>', 'the branch you pushed')
    .option('--title <text>', "its title (default: the bounty's)")
    .option('--body <text>', 'its description')
    .option('--base <branch>', "the branch to merge into (default: the repository's default branch)")
    .action(async (id: string, opts: { head: string; title?: string; body?: string; base?: string }) => {
      const client = cli.client({ requireKey: true });
      const [{ bounty, fullName }, host] = await Promise.all([repositoryOf(client, id), repoHostOf(client)]);
      if (!bounty) throw new CliError('usage', `${id} is a project; pr open takes a bounty id.`, 2);
      if (host.kind !== 'local') {
        throw new CliError(
          'github_host',
          `The repositories are on GitHub: open the pull request with your GitHub account, then: bounty submit ${bounty.id} <url>`,
        );
      }
      const api = host.api_url.replace(/\/+$/, '');
      const headers = {
        authorization: `Bearer ${cli.settings().apiKey}`,
        accept: 'application/vnd.github+json',
        'content-type': 'application/json',
      };
      let base = opts.base;
      if (!base) {
        const repo = await hostFetch(`${api}/repos/${fullName}`, { headers });
        if (!repo.ok) throw await hostRefusal(repo);
        base = ((await repo.json()) as { default_branch?: string }).default_branch ?? 'main';
      }
      const response = await hostFetch(`${api}/repos/${fullName}/pulls`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          title: opts.title ?? bounty.title,
          head: opts.head,
          base,
          ...(opts.body ? { body: opts.body } : {}),
        }),
      });
      if (!response.ok) throw await hostRefusal(response);
      const p = (await response.json()) as { number: number; html_url: string; title: string; state: string };
      if (cli.json()) {
        return printJson({
          number: p.number,
          html_url: p.html_url,
          title: p.title,
          state: p.state,
          head: opts.head,
          base,
        });
      }
      line(`Opened pull request #${p.number}: ${p.html_url}`);
      line(`Next: bounty submit ${bounty.id} ${p.html_url}`);
    });
}
