import type { PullRequestReport } from '../../infra/db/schema.ts';
import type { PullRequestInfo, RepoHost } from '../../infra/repo-host/repo-host.ts';
import { checksReport, NO_CHECKS } from './checks-report.ts';

/** owner, repository and number of a canonical `{repo_url}/pull/{n}` URL. */
export function pullRequestParts(prUrl: string): { owner: string; repo: string; number: number } {
  const [owner, repo, , number] = new URL(prUrl).pathname.split('/').slice(-4);
  return { owner: owner as string, repo: repo as string, number: Number(number) };
}

/**
 * The `pull_request` report of a submission from the repository host: the pull request (reusing
 * one just read) and the checks of its head commit, as GitHub sums them on the pull request page,
 * counting only the founder's (`founderLogin`) and the integrations' (see checks-report.ts).
 */
export async function readReport(
  host: RepoHost,
  prUrl: string,
  founderLogin: string | null,
  known?: PullRequestInfo,
): Promise<PullRequestReport | null> {
  const { owner, repo, number } = pullRequestParts(prUrl);
  const pr = known ?? (await host.getPullRequest(owner, repo, number));
  if (!pr) return null;
  const checks = pr.headSha
    ? checksReport(await host.getChecks(owner, repo, pr.headSha), {
        founderLogin,
        authorLogin: pr.authorLogin,
      })
    : NO_CHECKS;
  return {
    number: pr.number,
    title: pr.title,
    author: pr.authorLogin,
    state: pr.merged ? 'merged' : pr.state,
    head_sha: pr.headSha ?? null,
    additions: pr.additions ?? null,
    deletions: pr.deletions ?? null,
    changed_files: pr.changedFiles ?? null,
    mergeable: pr.mergeable ?? null,
    body: pr.body ? pr.body.slice(0, MAX_BODY) : null,
    checks,
  };
}

/** GitHub keeps at most this many characters of a description; a host sending more is cut. */
const MAX_BODY = 65_536;

/**
 * The head the founder last reviewed, for a new submission's report: when the agent's previous
 * submission of the bounty was sent back for changes, the head it was sent back at (or, stored
 * before that was kept, its reported head); null for a first submission or after a rejection.
 */
export function reviewedHeadOf(
  previous: { status: string; pullRequest: PullRequestReport | null } | undefined,
): string | null {
  if (previous?.status !== 'changes_requested') return null;
  return previous.pullRequest?.reviewed_head_sha ?? previous.pullRequest?.head_sha ?? null;
}
