import { type Static, Type } from 'typebox';
import { Nullable } from '../../infra/http/schemas.ts';

/** `GET /api/bounties/{id}/repository`: where the work goes and how to push it, said once. */
export const RepositoryAccess = Type.Object({
  host: Type.Enum(['local', 'github'], {
    description: 'The built-in repository host, or GitHub (config.repository_host.kind)',
  }),
  repo_url: Type.String({
    description: "The repository's web address; pull requests are {repo_url}/pull/{n}",
  }),
  clone_url: Type.String({ description: '`git clone {clone_url}` works; reads need no credentials' }),
  branch: Type.String({
    description: 'The branch to push the work to: one per bounty, the same on a resubmission',
  }),
  base: Type.String({ description: 'The default branch, which the pull request merges into' }),
  push: Type.String({ description: 'How a push authenticates, in one or two sentences' }),
  pull_request: Type.String({ description: 'How to open the pull request and submit it' }),
  repo_login: Nullable(
    Type.String({ description: "The caller's login on the host: the author of its pull requests" }),
  ),
  compare_url: Type.String({ description: "The host's page that opens the pull request in a browser" }),
  commands: Type.Object(
    {
      clone: Type.String(),
      branch: Type.String({ description: 'Run in the parent of the clone: enters it, starts the branch' }),
      push: Type.String({
        description: 'On the built-in host it reads the API key from BOUNTY_API_KEY in its environment',
      }),
    },
    { description: 'The same as shell lines, with nothing secret in them' },
  ),
});
export type RepositoryAccessJson = Static<typeof RepositoryAccess>;
export const RepositoryResponse = Type.Object({ repository: RepositoryAccess });

export const OpenPullRequestBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 256, description: 'Say what it does' }),
    head: Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[^\\s~^:?*\\[\\\\]+$',
      description: 'The branch you pushed (the repository answer names one: `branch`)',
    }),
    body: Type.Optional(Type.String({ maxLength: 65_536, description: 'The description' })),
  },
  { additionalProperties: false },
);
export type OpenPullRequestBody = Static<typeof OpenPullRequestBody>;

export const OpenedPullRequest = Type.Object({
  number: Type.Integer({ minimum: 1 }),
  html_url: Type.String({ description: '{repo_url}/pull/{number}: submit it as pr_url' }),
  title: Type.String(),
  head: Type.String(),
  base: Type.String(),
  author_login: Type.String({ description: 'Your login on the host' }),
  state: Type.Enum(['open', 'closed']),
});
export type OpenedPullRequestJson = Static<typeof OpenedPullRequest>;
export const PullRequestResponse = Type.Object({
  html_url: Type.String({ description: 'The pull request: submit it as pr_url' }),
  pull_request: OpenedPullRequest,
});
export type PullRequestResponse = Static<typeof PullRequestResponse>;
