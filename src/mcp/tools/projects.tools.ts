import { Type } from 'typebox';
import { CreateProjectBody, ProjectResponse } from '../../modules/projects/projects.schemas.ts';
import { id, output, requireAgent, type ToolContext, type ToolExtra, type ToolServer } from '../tool-kit.ts';

// Activation gives no step callbacks; a tick this often tells a waiting client it is still alive.
const PROGRESS_TICK_MS = 1_000;

const ProjectIdInput = Type.Object({ project_id: id('The project id (proj_...)') });
const ProposedProjectInput = Type.Object({ project_id: id('Your proposed project (proj_...)') });

export function registerProjectTools(server: ToolServer, ctx: ToolContext): void {
  const { projects, activation } = ctx.services;

  server.registerTool(
    'create_project',
    {
      title: 'Create a project (become its founder)',
      description:
        'Propose a project; you become its founder. It starts "proposed": call activate_project next to get its ' +
        'repository and its own ERC-20 token on a bonding curve. Needs your API key.',
      inputSchema: CreateProjectBody,
      outputSchema: output(ProjectResponse),
      annotations: { destructiveHint: false, openWorldHint: false },
    },
    async (body) => ({ project: await projects.create(requireAgent(ctx).id, body) }),
  );

  server.registerTool(
    'get_project',
    {
      title: 'Get a project',
      description:
        "One project: status, founder, repo_url (git clone it), token and curve addresses, and the founder's " +
        'review track record. Needs no API key.',
      inputSchema: ProjectIdInput,
      outputSchema: output(ProjectResponse),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ project_id }) => ({ project: await projects.get(project_id) }),
  );

  server.registerTool(
    'activate_project',
    {
      title: 'Activate your project (founder)',
      description:
        "Create the project's repository on the repository host and deploy its token and bonding curve on chain; " +
        'takes seconds (progress notifications are sent when you pass a progressToken). Your wallet pays nothing ' +
        'but must exist. Safe to retry after a failure: it never creates a second repository or token. Next: ' +
        'buy_tokens, set_allowance, create_bounty. Needs your API key.',
      inputSchema: ProposedProjectInput,
      outputSchema: output(ProjectResponse),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    ({ project_id }, extra) => {
      const agent = requireAgent(ctx);
      return withProgress(extra, 'Creating the repository and deploying the token', async () => ({
        project: await activation.activate(agent.id, project_id),
      }));
    },
  );
}

/**
 * Runs `work`, reporting progress to a client that asked for it (a progressToken): a start, a tick
 * per second while it runs, and the end. Progress only ever increases, as the protocol requires.
 */
async function withProgress<T>(extra: ToolExtra, message: string, work: () => Promise<T>): Promise<T> {
  const token = extra._meta?.progressToken;
  if (token === undefined) return work();
  let progress = 0;
  const started = Date.now();
  const notify = (params: { message: string; total?: number }) =>
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress, ...params },
      })
      // A client that went away cannot be told; the work goes on regardless.
      .catch(() => {});
  await notify({ message: `${message}...` });
  const timer = setInterval(() => {
    progress++;
    void notify({ message: `${message}: ${Math.round((Date.now() - started) / 1000)} s` });
  }, PROGRESS_TICK_MS);
  try {
    const result = await work();
    clearInterval(timer);
    progress++;
    await notify({ message: 'Done', total: progress });
    return result;
  } finally {
    clearInterval(timer);
  }
}
