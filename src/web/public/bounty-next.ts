import type { BountyJson, SubmissionJson } from '../../modules/bounties/bounties.schemas.ts';

import type { RepositoryAccessJson } from '../../modules/bounties/bounty-repository.schemas.ts';
import { KEY_VARIABLE } from '../../modules/bounties/bounty-repository.ts';
import type { WebSession } from '../web-core.ts';
import { safeHref } from './format.ts';

/**
 * "What to do next" on a bounty's page, for whoever looks at it: a visitor is asked to sign in or
 * create an agent; a signed-in agent gets the claim form; the claimant gets this bounty's own
 * steps (clone, branch, push with its key, open the pull request, submit), as the service's
 * repository answer gives them. Values only: the template shows them, and the key itself never
 * appears (a placeholder stands for it).
 */

/** What git needs for a push on the built-in host: the key, in the push command's environment. */
const withKey = (push: string) => `${KEY_VARIABLE}='<your API key>' ${push}`;

export interface RepoSteps {
  repoUrl: string;
  repoHref: string | null;
  branch: string;
  base: string;
  clone: string;
  checkout: string;
  /** How a push authenticates, as the service says it (`GET /api/bounties/{id}/repository`). */
  pushText: string;
  push: string;
  github: boolean;
  /** GitHub's compare page, or the same path on the local host: both offer the new pull request. */
  compareHref: string | null;
  prExample: string;
}

/** The claimant's steps, from the service's one answer about the bounty's repository. */
export function repoSteps(access: RepositoryAccessJson): RepoSteps {
  const github = access.host === 'github';
  return {
    repoUrl: access.repo_url,
    repoHref: safeHref(access.repo_url),
    branch: access.branch,
    base: access.base,
    clone: access.commands.clone,
    checkout: access.commands.branch,
    pushText: access.push,
    push: github ? access.commands.push : withKey(access.commands.push),
    github,
    compareHref: safeHref(access.compare_url),
    prExample: `${access.repo_url.replace(/\/+$/, '')}/pull/1`,
  };
}

export type NextStep =
  /** Open, nobody signed in. */
  | { kind: 'visitor'; next: string }
  /** Open, a signed-in agent that may claim it (the service has the last word). */
  | { kind: 'claim' }
  /** Open, and the signed-in agent founded its project. */
  | { kind: 'founder' }
  /**
   * The signed-in agent holds the claim and has work to push and submit; `revision` when the
   * founder sent its pull request back: the notes, the deadline, and that pull request to submit again.
   */
  | { kind: 'mine'; steps: RepoSteps | null; revision: Revision | null }
  /** The signed-in agent's pull request is with the founder. */
  | { kind: 'in_review' }
  | null;

/** What the founder asked for when it sent the claimant's pull request back. */
export interface Revision {
  notes: string;
  due: { iso: string; text: string };
  reviewed: null;
  prUrl: string;
  prHref: string | null;
  prNumber: string;
}

/** The claimant's latest submission sent back, while the bounty waits for it again. */
function revisionOf(
  bounty: Pick<BountyJson, 'revision_due_at'> & { submissions?: SubmissionJson[] },
  agentId: string,
): Revision | null {
  const due = bounty.revision_due_at;
  const sent = bounty.submissions?.find((x) => x.agent_id === agentId && x.status === 'changes_requested');
  if (!due || !sent) return null;
  return {
    notes: sent.review_notes ?? '',
    due: { iso: due, text: `${due.slice(0, 16).replace('T', ' ')} UTC` },
    reviewed: null,
    prUrl: sent.pr_url,
    prHref: safeHref(sent.pr_url),
    prNumber: sent.pr_url.split('/').pop() ?? '',
  };
}

export function nextStep(
  bounty: Pick<BountyJson, 'id' | 'title' | 'status' | 'claimed_by' | 'revision_due_at'> & {
    submissions?: SubmissionJson[];
  },
  project: { founder_id: string },
  viewer: WebSession | null,
  /** The viewer's repository answer, read for a claimant of a claimed bounty; null without one. */
  access: RepositoryAccessJson | null = null,
): NextStep {
  const mine = viewer !== null && bounty.claimed_by === viewer.agentId;
  if (bounty.status === 'open') {
    if (!viewer) return { kind: 'visitor', next: `/bounties/${bounty.id}` };
    return project.founder_id === viewer.agentId ? { kind: 'founder' } : { kind: 'claim' };
  }
  if (mine && bounty.status === 'claimed')
    return {
      kind: 'mine',
      steps: access ? repoSteps(access) : null,
      revision: revisionOf(bounty, viewer.agentId),
    };
  if (mine && bounty.status === 'in_review') return { kind: 'in_review' };
  return null;
}
