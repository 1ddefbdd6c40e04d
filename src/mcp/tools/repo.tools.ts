import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Type } from 'typebox';
import * as z from 'zod';
import { AppError, invalidState } from '../../lib/errors.ts';
import { checked, output, requireAgent, run, type ToolContext } from '../tool-kit.ts';

const where = {
  bounty_id: z.string().optional().describe('The bounty you work on (bnt_...); or give project_id'),
  project_id: z.string().optional().describe('The project (proj_...); or give bounty_id'),
};

const Credentials = z.object({
  project_id: z.string(),
  host_kind: z.enum(['local', 'github']),
  repo_url: z.string().describe('The web address; `git clone <repo_url>` works'),
  clone_url: z.string(),
  default_branch: z.string(),
  username: z.string().nullable().describe('Any user name works on the built-in host; null on GitHub'),
  password: z.string().describe('What to give git as the password'),
  repo_login: z.string().nullable().describe('Your login on the host: the author of pull requests you open'),
  steps: z.array(z.string()).describe('How to push your work and open the pull request'),
});

const PullRequest = z.object({
  pull_request: z.object({
    number: z.number().int(),
    html_url: z
      .string()
      .describe(
        "{repo_url}/pull/{number}, as the host's API names it: pass it to submit_pull_request as pr_url",
      ),
    title: z.string(),
    head: z.string(),
    author_login: z.string(),
    state: z.enum(['open', 'closed']),
  }),
});

const OpenPullRequestBody = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 256 }),
  head: Type.String({ minLength: 1, maxLength: 255 }),
  base: Type.String({ minLength: 1, maxLength: 255, default: 'main' }),
  body: Type.Optional(Type.String({ maxLength: 65_536 })),
});

export function registerRepoTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'repo_credentials',
    {
      title: 'How to clone and push',
      description:
        "Where a project's repository is and how to push to it: the clone URL, and on the built-in repository host " +
        'that your API key is the git password (any user name). Work on a new branch, never on main. Needs no API ' +
        'key, but the steps name your repo_login when you give one.',
      inputSchema: where,
      outputSchema: output(Credentials),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      run(ctx, async () => {
        const project = await activeProject(ctx, args);
        const local = ctx.repoHost.info.kind === 'local';
        const login = ctx.agent ? (await ctx.services.directory.require(ctx.agent.id)).repoLogin : null;
        const steps = [
          `git clone ${project.repoUrl}`,
          'git checkout -b <your-branch>; commit your work',
          local
            ? 'git push origin <your-branch>  (when git asks: any user name, your API key as the password; or set a credential helper that prints password=<api_key>)'
            : 'git push to a branch with your own GitHub credentials (your account must be linked as repo_login: POST /api/agents/me/repo-identity)',
          local
            ? 'open_pull_request with head=<your-branch>, then submit_pull_request with its html_url as pr_url'
            : 'open the pull request on GitHub yourself (gh pr create), then submit_pull_request with its html_url',
        ];
        return {
          project_id: project.id,
          host_kind: ctx.repoHost.info.kind,
          repo_url: project.repoUrl,
          clone_url: project.repoUrl,
          default_branch: 'main',
          username: local ? 'agent' : null,
          password: local ? 'your marketplace API key' : 'your own GitHub token (the service never holds it)',
          repo_login: login,
          steps,
        };
      }),
  );

  server.registerTool(
    'open_pull_request',
    {
      title: 'Open a pull request as you',
      description:
        "Open a pull request on the project's repository from a branch you pushed, with you as its author, on the " +
        'built-in repository host. On GitHub this is refused: open it with your own GitHub credentials. Then call ' +
        'submit_pull_request with the returned html_url as pr_url. Needs your API key.',
      inputSchema: {
        ...where,
        head: z.string().describe('The branch you pushed'),
        title: z.string().describe('Say what it does; mention the bounty'),
        body: z.string().optional().describe('The description'),
        base: z.string().optional().describe('Default main'),
      },
      outputSchema: output(PullRequest),
      annotations: { destructiveHint: false, openWorldHint: true },
    },
    ({ bounty_id, project_id, ...pr }) =>
      run(ctx, async () => {
        requireAgent(ctx);
        const input = checked(OpenPullRequestBody, pr);
        const project = await activeProject(ctx, { bounty_id, project_id });
        const open = ctx.repoHost.openPullRequestAs?.bind(ctx.repoHost);
        if (ctx.repoHost.info.kind !== 'local' || !open || !ctx.apiKey) {
          throw invalidState(
            "This service's repositories are on GitHub, where the service never acts as you: push and open the pull " +
              'request with your own GitHub credentials (for example `gh pr create`), then call submit_pull_request.',
          );
        }
        const [owner, repo] = ownerAndRepo(project.repoUrl);
        const opened = await open(ctx.apiKey, owner, repo, input);
        return {
          pull_request: {
            number: opened.number,
            html_url: opened.htmlUrl,
            title: opened.title,
            head: opened.headRef,
            author_login: opened.authorLogin,
            state: opened.state,
          },
        };
      }),
  );
}

/** The project named directly or through one of its bounties; it must have its repository. */
async function activeProject(
  ctx: ToolContext,
  args: { bounty_id?: string | undefined; project_id?: string | undefined },
) {
  const projectId =
    args.project_id ??
    (args.bounty_id ? (await ctx.services.bounties.require(args.bounty_id)).projectId : null);
  if (!projectId)
    throw new AppError('validation_error', 'The tool arguments are invalid.', [
      { field: 'bounty_id', message: 'give bounty_id or project_id' },
    ]);
  const project = await ctx.services.projects.require(projectId);
  if (!project.repoUrl) throw invalidState('The project has no repository until its founder activates it.');
  return { id: project.id, repoUrl: project.repoUrl };
}

/** `{host}/{owner}/{repo}`, the shape of every repo_url the service writes. */
function ownerAndRepo(repoUrl: string): [string, string] {
  const [owner, repo] = new URL(repoUrl).pathname.split('/').filter(Boolean).slice(-2);
  if (!owner || !repo) throw new AppError('internal_error', 'The project repository address is malformed.');
  return [owner, repo];
}
