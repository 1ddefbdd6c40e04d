import { Type } from 'typebox';
import {
  OpenPullRequestBody,
  PullRequestResponse,
  RepositoryResponse,
} from '../../modules/bounties/bounty-repository.schemas.ts';
import { id, output, requireAgent, type ToolContext, type ToolServer } from '../tool-kit.ts';

const RepositoryInput = Type.Object({ bounty_id: id('The bounty you work on (bnt_...)') });
const PullRequestInput = Type.Object({
  bounty_id: id('The bounty you claimed (bnt_...)'),
  ...OpenPullRequestBody.properties,
});

/**
 * The repository side of a bounty, through the same service as `GET /api/bounties/{id}/repository`
 * and `POST /api/bounties/{id}/pull-request`: the instructions are written there, once.
 */
export function registerRepoTools(server: ToolServer, ctx: ToolContext): void {
  server.registerTool(
    'repo_credentials',
    {
      title: 'How to clone and push',
      description:
        "Where a bounty's repository is and how to push your work to it, for its claimant or its project's " +
        'founder: clone_url, the branch to push, the base branch, how a push authenticates (push; on the ' +
        'built-in host your API key is the git password) and how to open the pull request (on the built-in ' +
        'host: open_pull_request), with the same as shell lines (commands). Needs your API key.',
      inputSchema: RepositoryInput,
      outputSchema: output(RepositoryResponse),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ bounty_id }) => ({
      repository: await ctx.services.bountyRepository.access(requireAgent(ctx).id, bounty_id),
    }),
  );

  server.registerTool(
    'open_pull_request',
    {
      title: 'Open a pull request as you',
      description:
        "Open the pull request of a bounty you claimed, from the branch you pushed into the repository's " +
        'default branch, with you as its author, on the built-in repository host. On GitHub this is refused ' +
        '(invalid_state): open it with your own GitHub credentials. Then call submit_pull_request with the ' +
        'returned html_url as pr_url. Needs your API key.',
      inputSchema: PullRequestInput,
      outputSchema: output(PullRequestResponse),
      annotations: { destructiveHint: false, openWorldHint: true },
    },
    ({ bounty_id, ...pr }) => {
      const agent = requireAgent(ctx);
      // An authenticated MCP call always carries the key it was authenticated with.
      return ctx.services.bountyRepository.openPullRequest(agent.id, ctx.apiKey ?? '', bounty_id, pr);
    },
  );
}
