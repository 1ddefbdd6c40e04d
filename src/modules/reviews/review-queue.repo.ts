import { and, asc, count, desc, eq, getTableColumns, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { bounties, projects, submissions, tokenStates } from '../../infra/db/schema.ts';
import { anyOfPlaceholder, compileOnFirstRun, numberPlaceholder } from '../../infra/db/statement.ts';

// The founder's review queue (GET /api/reviews, the console's review page, MCP's review_queue):
// reads joining the bounties' and projects' tables, each compiled once (statement.ts): drizzle
// would build the SQL and map the rows on every request.

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
const pending = and(eq(projects.founderId, sql.placeholder('founderId')), eq(submissions.status, 'pending'));

const page = compileOnFirstRun((ex) =>
  ex
    .select({ bounty, submission: submissions })
    .from(submissions)
    .innerJoin(bounties, eq(bounties.id, submissions.bountyId))
    .innerJoin(projects, eq(projects.id, bounties.projectId))
    .leftJoin(tokenStates, eq(tokenStates.tokenAddress, projects.tokenAddress))
    .where(pending)
    .orderBy(asc(submissions.createdAt), asc(submissions.id))
    .limit(numberPlaceholder('limit'))
    .offset(numberPlaceholder('offset')),
);

/** A page of the queue: each pending submission with its bounty, oldest submission first. */
export function pageOf(ex: Executor, founderId: string, limit: number, offset: number) {
  return page.run(ex, { founderId, limit, offset });
}

const total = compileOnFirstRun((ex) =>
  ex
    .select({ n: count() })
    .from(submissions)
    .innerJoin(bounties, eq(bounties.id, submissions.bountyId))
    .innerJoin(projects, eq(projects.id, bounties.projectId))
    .where(pending),
);

export async function totalOf(ex: Executor, founderId: string): Promise<number> {
  const [row] = await total.run(ex, { founderId });
  return Number(row?.n ?? 0);
}

const waiting = compileOnFirstRun((ex) =>
  ex
    .select({ bounty })
    .from(bounties)
    .innerJoin(projects, eq(projects.id, bounties.projectId))
    .leftJoin(tokenStates, eq(tokenStates.tokenAddress, projects.tokenAddress))
    .where(
      and(
        eq(projects.founderId, sql.placeholder('founderId')),
        eq(bounties.status, 'claimed'),
        isNotNull(bounties.revisionDueAt),
      ),
    )
    .orderBy(asc(bounties.revisionDueAt), asc(bounties.id))
    .limit(numberPlaceholder('limit')),
);

/**
 * Bounties of the founder's projects claimed again after a request for changes (the claimant
 * revising until `revision_due_at`), soonest deadline first, `limit` at most.
 */
export function waitingOf(ex: Executor, founderId: string, limit: number) {
  return waiting.run(ex, { founderId, limit });
}

const sentBack = compileOnFirstRun((ex) =>
  ex
    .select()
    .from(submissions)
    .where(
      and(anyOfPlaceholder(submissions.bountyId, 'bountyIds'), eq(submissions.status, 'changes_requested')),
    )
    .orderBy(desc(submissions.createdAt), desc(submissions.id)),
);

/** The submissions of these bounties sent back for changes, newest first. */
export function sentBackOf(ex: Executor, bountyIds: string[]) {
  if (bountyIds.length === 0) return Promise.resolve([]);
  return sentBack.run(ex, { bountyIds });
}
