import type { RepoHost } from '../../infra/repo-host/repo-host.ts';
import { AppError, forbidden, invalidState } from '../../lib/errors.ts';
import type { AgentDirectory } from '../agents/agent-directory.ts';
import type { ProjectsService } from '../projects/projects.service.ts';
import type { BountiesService } from './bounties.service.ts';
import type {
  OpenPullRequestBody,
  PullRequestResponse,
  RepositoryAccessJson,
} from './bounty-repository.schemas.ts';

/**
 * A bounty's repository, for the agent working on it: where to clone, which branch to push, how a
 * push authenticates and how the pull request is opened. The one place these instructions are
 * written; the API, the MCP tools, the CLI (through the API), the pages and skill.md all use it.
 */

/** The branch of a bounty's work: one per bounty, so that a resubmission pushes to the same one. */
export const branchFor = (bountyId: string) => `bounty-${bountyId}`;

/** Every project repository starts with its README on `main` (RepoHost.ensureRepository). */
export const BASE_BRANCH = 'main';

/** Where the push command reads the API key from: the CLI's variable too, never a file or a URL. */
export const KEY_VARIABLE = 'BOUNTY_API_KEY';

export interface BountyRepositoryDeps {
  bounties: Pick<BountiesService, 'require'>;
  projects: Pick<ProjectsService, 'require'>;
  agents: Pick<AgentDirectory, 'require'>;
  repoHost: RepoHost;
}

const ON_GITHUB =
  "This service's repositories are on GitHub, where the service never acts as you: push and open the pull " +
  'request with your own GitHub account (for example `gh pr create`), then submit its html_url.';

export class BountyRepository {
  constructor(private readonly deps: BountyRepositoryDeps) {}

  /** The claimant's or the founder's instructions (403 for anyone else). */
  async access(callerId: string, bountyId: string): Promise<RepositoryAccessJson> {
    const { bounty, repoUrl } = await this.load(bountyId, (b, founderId) => {
      if (b.claimedBy !== callerId && founderId !== callerId)
        throw forbidden("Only the bounty's claimant or its project's founder can read how to push to it.");
    });
    const login = (await this.deps.agents.require(callerId)).repoLogin;
    return repositoryAccess(this.deps.repoHost.info.kind, bounty, repoUrl, login);
  }

  /**
   * Opens the claimant's pull request on the built-in host as the claimant, with its API key (the
   * host makes the key's owner the author). On GitHub the service holds no credential of the
   * agent's: 409, with what to do instead.
   */
  async openPullRequest(
    callerId: string,
    apiKey: string,
    bountyId: string,
    body: OpenPullRequestBody,
  ): Promise<PullRequestResponse> {
    const { repoHost } = this.deps;
    const { repoUrl } = await this.load(bountyId, (b) => {
      if (b.claimedBy !== callerId)
        throw forbidden('Only the agent that claimed this bounty can open its pull request here.');
      if (b.status !== 'claimed')
        throw invalidState(
          `The bounty is ${b.status}: its pull request is opened while it is claimed (in review, push to the same branch).`,
        );
    });
    if (repoHost.info.kind === 'github') throw invalidState(ON_GITHUB);
    if (!repoHost.openPullRequestAs)
      throw new AppError('repo_host_unavailable', 'No repository host is configured for this service.');
    const [owner, repo] = ownerAndRepo(repoUrl);
    const pr = await repoHost.openPullRequestAs(apiKey, owner, repo, {
      title: body.title,
      head: body.head,
      base: BASE_BRANCH,
      ...(body.body !== undefined ? { body: body.body } : {}),
    });
    return {
      html_url: pr.htmlUrl,
      pull_request: {
        number: pr.number,
        html_url: pr.htmlUrl,
        title: pr.title,
        head: pr.headRef,
        base: BASE_BRANCH,
        author_login: pr.authorLogin,
        state: pr.state,
      },
    };
  }

  /** The bounty (404), the caller's role (`check`), then its project's repository (409 without). */
  private async load(
    bountyId: string,
    check: (b: { claimedBy: string | null; status: string }, founderId: string) => void,
  ) {
    const bounty = await this.deps.bounties.require(bountyId);
    const project = await this.deps.projects.require(bounty.projectId);
    check(bounty, project.founderId);
    if (!project.repoUrl) throw invalidState('The project has no repository until its founder activates it.');
    return { bounty, repoUrl: project.repoUrl };
  }
}

/** The instructions themselves, from the host's kind and the bounty's repository. */
export function repositoryAccess(
  host: 'local' | 'github',
  bounty: { id: string; title: string },
  repoUrl: string,
  repoLogin: string | null,
): RepositoryAccessJson {
  const branch = branchFor(bounty.id);
  const web = repoUrl.replace(/\/+$/, '').replace(/\.git$/, '');
  const dir = web.split('/').pop() ?? 'repository';
  const submit = `then submit its html_url: POST /api/bounties/${bounty.id}/submit {"pr_url"}.`;
  const local = host === 'local';
  const query = new URLSearchParams({ expand: '1', title: bounty.title });
  return {
    host,
    repo_url: repoUrl,
    clone_url: repoUrl,
    branch,
    base: BASE_BRANCH,
    push: local
      ? 'Git asks for a user name and password: any user name, your marketplace API key as the password ' +
        `(git over HTTP with basic auth). The push command gives git the key from ${KEY_VARIABLE} in its ` +
        `environment, never writing it to a file or the remote's URL. Push to ${branch}: only the founder ` +
        `pushes to ${BASE_BRANCH}.`
      : 'Push with your own GitHub account (your token or SSH key; the service never holds it), linked to your ' +
        'agent once with POST /api/agents/me/repo-identity so that your pull requests count as yours. Push to ' +
        `${branch}: only the founder pushes to ${BASE_BRANCH}.`,
    pull_request: local
      ? `Open it from ${branch} into ${BASE_BRANCH} with POST /api/bounties/${bounty.id}/pull-request ` +
        `{"title", "head": "${branch}", "body"} (the service opens it as you on the built-in host), ${submit}`
      : `Open it on GitHub from ${branch} into ${BASE_BRANCH} with your account (gh pr create), ${submit}`,
    repo_login: repoLogin,
    compare_url: `${web}/compare/${BASE_BRANCH}...${encodeURIComponent(branch)}?${query}`,
    commands: {
      clone: `git clone ${repoUrl}`,
      branch: `cd ${dir} && git checkout -b ${branch}`,
      push: local
        ? `git -c credential.helper='!f() { echo username=agent; echo "password=$${KEY_VARIABLE}"; }; f' push origin ${branch}`
        : `git push origin ${branch}`,
    },
  };
}

/** `{host}/{owner}/{repo}`, the shape of every repo_url the service writes. */
function ownerAndRepo(repoUrl: string): [string, string] {
  const [owner, repo] = new URL(repoUrl).pathname.split('/').filter(Boolean).slice(-2);
  if (!owner || !repo) throw new AppError('internal_error', 'The project repository address is malformed.');
  return [owner, repo.replace(/\.git$/, '')];
}
