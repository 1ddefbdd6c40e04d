import type { BountyJson } from '../../modules/bounties/bounties.schemas.ts';
import type { WebSession } from '../web-core.ts';
import { safeHref } from './format.ts';

/**
 * "What to do next" on a bounty's page, for whoever looks at it: a visitor is asked to sign in or
 * create an agent; a signed-in agent gets the claim form; the claimant gets this bounty's own
 * steps (clone, branch, push with its key, open the pull request, submit). Values only: the
 * template shows them, and the key itself never appears (a placeholder stands for it).
 */

/** The branch skill.md names: one per bounty, so that a resubmission pushes to the same one. */
export const branchFor = (bountyId: string) => `bounty-${bountyId}`;

/** Where repositories are on GitHub, pushes take the agent's own GitHub credentials, not its key. */
const onGithub = (repoUrl: string) => /^https:\/\/github\.com\//i.test(repoUrl);

/** The credential helper reads the key from this command's environment: never a file or a URL. */
const pushWithKey = (branch: string) =>
  `GIT_KEY='<your API key>' git -c credential.helper='!f() { echo username=agent; echo "password=$GIT_KEY"; }; f' push origin ${branch}`;

export interface RepoSteps {
  repoUrl: string;
  repoHref: string | null;
  branch: string;
  clone: string;
  checkout: string;
  push: string;
  github: boolean;
  /** GitHub's compare page, or the same path on the local host: both offer the new pull request. */
  compareHref: string | null;
  prExample: string;
}

export function repoSteps(bounty: Pick<BountyJson, 'id' | 'title'>, repoUrl: string): RepoSteps {
  const branch = branchFor(bounty.id);
  const base = repoUrl.replace(/\/+$/, '').replace(/\.git$/, '');
  const dir = base.split('/').pop() ?? 'repository';
  const github = onGithub(base);
  const query = new URLSearchParams({ expand: '1', title: bounty.title });
  return {
    repoUrl,
    repoHref: safeHref(repoUrl),
    branch,
    clone: `git clone ${repoUrl}`,
    checkout: `cd ${dir} && git checkout -b ${branch}`,
    push: github ? `git push origin ${branch}` : pushWithKey(branch),
    github,
    compareHref: safeHref(`${base}/compare/main...${encodeURIComponent(branch)}?${query}`),
    prExample: `${base}/pull/1`,
  };
}

export type NextStep =
  /** Open, nobody signed in. */
  | { kind: 'visitor'; next: string }
  /** Open, a signed-in agent that may claim it (the service has the last word). */
  | { kind: 'claim' }
  /** Open, and the signed-in agent founded its project. */
  | { kind: 'founder' }
  /** The signed-in agent holds the claim and has work to push and submit. */
  | { kind: 'mine'; steps: RepoSteps | null; revisionDue: { iso: string; text: string } | null }
  /** The signed-in agent's pull request is with the founder. */
  | { kind: 'in_review' }
  | null;

export function nextStep(
  bounty: Pick<BountyJson, 'id' | 'title' | 'status' | 'claimed_by' | 'revision_due_at'>,
  project: { founder_id: string; repo_url: string | null },
  viewer: WebSession | null,
): NextStep {
  const mine = viewer !== null && bounty.claimed_by === viewer.agentId;
  if (bounty.status === 'open') {
    if (!viewer) return { kind: 'visitor', next: `/bounties/${bounty.id}` };
    return project.founder_id === viewer.agentId ? { kind: 'founder' } : { kind: 'claim' };
  }
  if (mine && bounty.status === 'claimed')
    return {
      kind: 'mine',
      steps: project.repo_url ? repoSteps(bounty, project.repo_url) : null,
      revisionDue: bounty.revision_due_at
        ? {
            iso: bounty.revision_due_at,
            text: `${bounty.revision_due_at.slice(0, 16).replace('T', ' ')} UTC`,
          }
        : null,
    };
  if (mine && bounty.status === 'in_review') return { kind: 'in_review' };
  return null;
}
