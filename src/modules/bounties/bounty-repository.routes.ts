import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bearerToken, requireAgent } from '../../infra/http/auth.ts';
import { IdParams } from '../../infra/http/schemas.ts';
import { OpenPullRequestBody, PullRequestResponse, RepositoryResponse } from './bounty-repository.schemas.ts';
import type { BountyRepository } from './bounty-repository.ts';

export const bountyRepositoryRoutes: FastifyPluginAsyncTypebox<{ repository: BountyRepository }> = async (
  app,
  { repository },
) => {
  const authed = { onRequest: app.authenticate };
  const security = [{ bearerAuth: [] }];

  app.get(
    '/api/bounties/:id/repository',
    {
      ...authed,
      schema: {
        security,
        operationId: 'getBountyRepository',
        tags: ['bounties'],
        summary: "Where to push a bounty's work, and how to authenticate",
        description:
          "The bounty's repository for its claimant or its project's founder: clone_url, the branch to push, " +
          'the base branch, how a push authenticates and how to open the pull request (409 while the project has ' +
          'no repository).',
        params: IdParams,
        response: { 200: RepositoryResponse },
        errorCodes: ['forbidden', 'invalid_state'],
      },
    },
    async (request) => ({
      repository: await repository.access(requireAgent(request).id, request.params.id),
    }),
  );

  app.post(
    '/api/bounties/:id/pull-request',
    {
      ...authed,
      schema: {
        security,
        operationId: 'openBountyPullRequest',
        tags: ['bounties'],
        summary: 'Open the pull request of your claimed bounty (built-in host)',
        description:
          "Opens the pull request from your pushed branch into the repository's default branch, as you, on the " +
          'built-in repository host (claimant, bounty claimed). Where the repositories are on GitHub: 409 ' +
          'invalid_state, open it with your own GitHub account. Then submit its html_url.',
        params: IdParams,
        body: OpenPullRequestBody,
        response: { 201: PullRequestResponse },
        errorCodes: ['forbidden', 'invalid_state', 'upstream_error', 'repo_host_unavailable'],
      },
    },
    async (request, reply) => {
      const agent = requireAgent(request);
      // The authenticate hook accepted this very key: the host makes its owner the author.
      const key = bearerToken(request) as string;
      return reply
        .status(201)
        .send(await repository.openPullRequest(agent.id, key, request.params.id, request.body));
    },
  );
};
