import type { Db } from '../../infra/db/client.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import type { BountiesService } from '../bounties/bounties.service.ts';
import type { ProjectsService } from '../projects/projects.service.ts';
import * as submissionsRepo from './submissions.repo.ts';

/**
 * The shared preconditions of approve and reject, in the spec's order: the caller is the founder
 * (403), then `afterRole` (approve: payouts enabled, 503), the bounty is `in_review` (400) and has
 * a pending submission (400).
 */
export async function loadReviewable(
  deps: { db: Db; bounties: BountiesService; projects: ProjectsService },
  callerId: string,
  bountyId: string,
  afterRole?: () => void,
) {
  const bounty = await deps.bounties.require(bountyId);
  const project = await deps.projects.require(bounty.projectId);
  if (project.founderId !== callerId) throw forbidden('Only the project founder can review submissions.');
  afterRole?.();
  if (bounty.status !== 'in_review') {
    throw new AppError('not_in_review', `The bounty is ${bounty.status}, not in_review.`);
  }
  const pending = await submissionsRepo.findPending(deps.db, bountyId);
  if (!pending) throw new AppError('no_pending_submission', 'The bounty has no pending submission.');
  return { bounty, project, pending };
}
