import type { Db } from '../../infra/db/client.ts';
import type { RepoHost } from '../../infra/repo-host/repo-host.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import type { BountiesService } from '../bounties/bounties.service.ts';
import type { ProjectsService } from '../projects/projects.service.ts';
import { pullRequestParts } from './pr-report.ts';
import type { SubmissionChangesJson } from './reviews.schemas.ts';
import * as submissionsRepo from './submissions.repo.ts';

export interface ReviewChangesDeps {
  db: Db;
  repoHost: RepoHost;
  bounties: BountiesService;
  projects: ProjectsService;
}

/**
 * What changed on a resubmission since the founder last reviewed it: the repository host's
 * compare of the reviewed head (`pull_request.reviewed_head_sha`) with the head now. The founder's
 * and the submission's author's to read (it spends the platform's calls to the host): 404 for an
 * unknown bounty or a submission of another bounty, 403 for anyone else.
 */
export async function changesSince(
  deps: ReviewChangesDeps,
  callerId: string,
  bountyId: string,
  submissionId: string,
): Promise<SubmissionChangesJson> {
  const bounty = await deps.bounties.require(bountyId);
  const sub = isId('submission', submissionId)
    ? await submissionsRepo.findOfBounty(deps.db, bounty.id, submissionId)
    : undefined;
  if (!sub) throw notFound('submission of this bounty');
  const project = await deps.projects.require(bounty.projectId);
  if (callerId !== project.founderId && callerId !== sub.agentId)
    throw forbidden("Only the project's founder and the submission's author can read its changes.");
  const reviewed = sub.pullRequest?.reviewed_head_sha ?? null;
  const head = sub.pullRequest?.head_sha ?? null;
  const out = { submission_id: sub.id, reviewed_head_sha: reviewed, head_sha: head };
  if (!reviewed || !head) return { ...out, changes: null };
  const { owner, repo } = pullRequestParts(sub.prUrl);
  const compared = await deps.repoHost.compareCommits(owner, repo, reviewed, head);
  if (!compared) return { ...out, changes: null };
  return {
    ...out,
    changes: {
      total_commits: compared.totalCommits,
      commits: compared.commits.map((c) => ({ sha: c.sha, author_name: c.authorName, message: c.message })),
      files: compared.files,
    },
  };
}
