import { and, asc, count, desc, eq, getTableColumns, inArray, isNotNull } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { bounties, projects, submissions, tokenStates } from '../../infra/db/schema.ts';

// The founder's review queue (GET /api/reviews): a read joining the bounties' and projects' tables.

const { search: _search, approvalLeaseOwner: _owner, ...bountyColumns } = getTableColumns(bounties);

/** The bounty as its JSON is made from (bounties.mappers' toBountyJson): its project's name and curve. */
const bounty = {
  ...bountyColumns,
  projectName: projects.name,
  curveA: tokenStates.curveA,
  curveB: tokenStates.curveB,
  supplyUnits: tokenStates.supplyUnits,
};

/** Pending submissions on the founder's projects (one per bounty in review: a unique index). */
const pendingOf = (founderId: string) =>
  and(eq(projects.founderId, founderId), eq(submissions.status, 'pending'));

/** A page of the queue: each pending submission with its bounty, oldest submission first. */
export function pageOf(ex: Executor, founderId: string, limit: number, offset: number) {
  return ex
    .select({ bounty, submission: submissions })
    .from(submissions)
    .innerJoin(bounties, eq(bounties.id, submissions.bountyId))
    .innerJoin(projects, eq(projects.id, bounties.projectId))
    .leftJoin(tokenStates, eq(tokenStates.tokenAddress, projects.tokenAddress))
    .where(pendingOf(founderId))
    .orderBy(asc(submissions.createdAt), asc(submissions.id))
    .limit(limit)
    .offset(offset);
}

export async function totalOf(ex: Executor, founderId: string): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(submissions)
    .innerJoin(bounties, eq(bounties.id, submissions.bountyId))
    .innerJoin(projects, eq(projects.id, bounties.projectId))
    .where(pendingOf(founderId));
  return Number(row?.n ?? 0);
}

/**
 * Bounties of the founder's projects claimed again after a request for changes (the claimant
 * revising until `revision_due_at`), soonest deadline first, `limit` at most.
 */
export function waitingOf(ex: Executor, founderId: string, limit: number) {
  return ex
    .select({ bounty })
    .from(bounties)
    .innerJoin(projects, eq(projects.id, bounties.projectId))
    .leftJoin(tokenStates, eq(tokenStates.tokenAddress, projects.tokenAddress))
    .where(
      and(
        eq(projects.founderId, founderId),
        eq(bounties.status, 'claimed'),
        isNotNull(bounties.revisionDueAt),
      ),
    )
    .orderBy(asc(bounties.revisionDueAt), asc(bounties.id))
    .limit(limit);
}

/** The submissions of these bounties sent back for changes, newest first. */
export function sentBackOf(ex: Executor, bountyIds: string[]) {
  if (bountyIds.length === 0) return Promise.resolve([]);
  return ex
    .select()
    .from(submissions)
    .where(and(inArray(submissions.bountyId, bountyIds), eq(submissions.status, 'changes_requested')))
    .orderBy(desc(submissions.createdAt), desc(submissions.id));
}
