import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';
import { bounties, bountyCounts, projects, submissions, tokenStates } from '../../infra/db/schema.ts';
import { compileOnFirstRun } from '../../infra/db/statement.ts';

export type BountyRow = typeof bounties.$inferSelect;
export type NewBounty = Omit<typeof bounties.$inferInsert, 'search'>;
export type BountyWithProject = Omit<BountyRow, 'search' | 'approvalLeaseOwner'> & {
  projectName: string;
  curveA: bigint | null;
  curveB: bigint | null;
  supplyUnits: bigint | null;
};

export const columns = {
  id: bounties.id,
  projectId: bounties.projectId,
  title: bounties.title,
  description: bounties.description,
  rewardAmount: bounties.rewardAmount,
  difficulty: bounties.difficulty,
  status: bounties.status,
  claimedBy: bounties.claimedBy,
  claimedAt: bounties.claimedAt,
  approvalLeaseUntil: bounties.approvalLeaseUntil,
  payable: bounties.payable,
  paymentOwed: bounties.paymentOwed,
  claimWarnedAt: bounties.claimWarnedAt,
  revisionDueAt: bounties.revisionDueAt,
  createdAt: bounties.createdAt,
  updatedAt: bounties.updatedAt,
};
/** With the project's name and its curve as last read (token_states), for `reward_eth_units`. */
export const withProject = {
  ...columns,
  projectName: projects.name,
  curveA: tokenStates.curveA,
  curveB: tokenStates.curveB,
  supplyUnits: tokenStates.supplyUnits,
};

export async function insert(ex: Executor, row: NewBounty): Promise<void> {
  await ex.insert(bounties).values(row);
}

// The reads behind every bounty's page and action, compiled once (statement.ts): drizzle would
// build the SQL and map the rows on every call.
const byId = compileOnFirstRun((ex) =>
  ex
    .select(withProject)
    .from(bounties)
    .innerJoin(projects, eq(projects.id, bounties.projectId))
    .leftJoin(tokenStates, eq(tokenStates.tokenAddress, projects.tokenAddress))
    .where(eq(bounties.id, sql.placeholder('id'))),
);

export async function findById(ex: Executor, id: string): Promise<BountyWithProject | undefined> {
  const [row] = await byId.run(ex, { id });
  return row;
}

const countsOf = compileOnFirstRun((ex) =>
  ex
    .select({
      status: bountyCounts.status,
      n: sql<string>`sum(${bountyCounts.n})`,
      rewards: sql<string>`sum(${bountyCounts.rewardSum})`,
    })
    .from(bountyCounts)
    .where(eq(bountyCounts.scope, sql.placeholder('scope')))
    .groupBy(bountyCounts.status),
);

/** Counts and reward sums by status for one project or, with '*', all of them. */
export function countsByStatus(ex: Executor, scope: string) {
  return countsOf.run(ex, { scope });
}

/** An agent's claims still open, newest first: on every `/me`, compiled once (statement.ts). */
const activeClaims = compileOnFirstRun((ex) =>
  ex
    .select({
      id: bounties.id,
      projectId: bounties.projectId,
      title: bounties.title,
      status: bounties.status,
      claimedAt: bounties.claimedAt,
    })
    .from(bounties)
    .where(
      and(
        eq(bounties.claimedBy, sql.placeholder('agentId')),
        inArray(bounties.status, ['claimed', 'in_review']),
      ),
    )
    .orderBy(desc(bounties.claimedAt)),
);

export function activeClaimsOf(ex: Executor, agentId: string) {
  return activeClaims.run(ex, { agentId });
}

/** Conditional state change: applies only while the bounty is still in `from`. */
export async function transition(
  ex: Executor,
  id: string,
  from: BountyRow['status'],
  set: Partial<NewBounty>,
  extra?: SQL,
): Promise<BountyRow | undefined> {
  const [row] = await ex
    .update(bounties)
    .set(set)
    .where(and(eq(bounties.id, id), eq(bounties.status, from), extra))
    .returning();
  return row;
}

export interface ExpiredClaim {
  id: string;
  project_id: string;
  claimed_by: string;
  claimed_at: Date;
  /** Set when the claim lapsed at its revision deadline rather than CLAIM_TTL_HOURS after claimed_at. */
  revision_due_at: Date | null;
}

/**
 * Reopens claims older than `cutoff` that have no submission, and claims sent back for changes
 * whose revision deadline passed. SKIP LOCKED lets several instances
 * sweep at once without waiting on each other or expiring one claim twice. `scope` narrows the
 * sweep to one bounty or one agent's claims, for the claim path; that one waits for
 * a sweep holding the row instead of skipping it, or the claim would see the lapsed bounty still
 * `claimed` and fail although it is being reopened.
 */
export async function expireClaims(
  ex: Executor,
  cutoff: Date,
  now: Date,
  batch: number,
  scope?: { bountyId: string; agentId: string },
): Promise<ExpiredClaim[]> {
  const narrow = scope ? sql`and (id = ${scope.bountyId} or claimed_by = ${scope.agentId})` : sql``;
  const result = await ex.execute(sql`
    with expired as (
      select id, claimed_by, claimed_at, revision_due_at from bounties
      where status = 'claimed'
        and ((revision_due_at is null and claimed_at < ${cutoff.toISOString()}::timestamptz)
             or revision_due_at < ${now.toISOString()}::timestamptz) ${narrow}
      order by claimed_at
      limit ${batch}
      for update ${scope ? sql`` : sql`skip locked`}
    )
    update bounties b
       set status = 'open', claimed_by = null, claimed_at = null, claim_warned_at = null,
           revision_due_at = null, updated_at = ${now.toISOString()}::timestamptz
      from expired e
     where b.id = e.id
    returning b.id, b.project_id, e.claimed_by, e.claimed_at, e.revision_due_at`);
  return rowsOf<ExpiredClaim>(result);
}

export const claimedBy = (agentId: string) => eq(bounties.claimedBy, agentId);

/**
 * Marks claims made before `claimedBefore` (and not lapsed: after `lapsedBefore`) that have not
 * been warned yet, and returns them; the caller records the warning in the same transaction, so
 * each claim is warned exactly once even with several instances sweeping (SKIP LOCKED).
 */
export async function markExpiringClaims(
  ex: Executor,
  claimedBefore: Date,
  lapsedBefore: Date,
  /** Revision deadlines before this are warned about too (now + the revision's warning lead). */
  revisionBefore: Date,
  now: Date,
  batch: number,
): Promise<(ExpiredClaim & { revision_due_at: Date | null })[]> {
  const result = await ex.execute(sql`
    with due as (
      select id from bounties
      where status = 'claimed' and claim_warned_at is null
        and ((revision_due_at is null
              and claimed_at <= ${claimedBefore.toISOString()}::timestamptz
              and claimed_at >= ${lapsedBefore.toISOString()}::timestamptz)
          or (revision_due_at <= ${revisionBefore.toISOString()}::timestamptz
              and revision_due_at >= ${now.toISOString()}::timestamptz))
      order by claimed_at
      limit ${batch}
      for update skip locked
    )
    update bounties b set claim_warned_at = ${now.toISOString()}::timestamptz
      from due where b.id = due.id
    returning b.id, b.project_id, b.claimed_by, b.claimed_at, b.revision_due_at`);
  return rowsOf<ExpiredClaim & { revision_due_at: Date | null }>(result);
}

export type SubmissionRow = typeof submissions.$inferSelect;

const submissionsById = compileOnFirstRun((ex) =>
  ex
    .select()
    .from(submissions)
    .where(eq(submissions.bountyId, sql.placeholder('bountyId')))
    .orderBy(desc(submissions.createdAt), desc(submissions.id)),
);

/** The bounty's submissions, newest first (the bounty detail's read side). */
export function submissionsOf(ex: Executor, bountyId: string): Promise<SubmissionRow[]> {
  return submissionsById.run(ex, { bountyId });
}

/** Fees of all approved submissions, in token base units. */
const approvedFees = compileOnFirstRun((ex) =>
  ex
    .select({ total: sql<string>`coalesce(sum(${submissions.feeUnits}), 0)::text` })
    .from(submissions)
    .where(eq(submissions.status, 'approved')),
);

export async function sumApprovedFeeUnits(ex: Executor): Promise<bigint> {
  const [row] = await approvedFees.run(ex, {});
  return BigInt(row?.total ?? '0');
}

/**
 * What an agent was paid, per project: approved submissions, the contributor's part
 * (reward_units - fee_units) summed, with the project's name and token symbol.
 */
const earnings = compileOnFirstRun((ex) =>
  ex
    .select({
      projectId: projects.id,
      projectName: projects.name,
      tokenSymbol: projects.tokenSymbol,
      earnedUnits: sql<string>`coalesce(sum(${submissions.rewardUnits} - ${submissions.feeUnits}), 0)::text`,
      completed: count(),
    })
    .from(submissions)
    .innerJoin(bounties, eq(bounties.id, submissions.bountyId))
    .innerJoin(projects, eq(projects.id, bounties.projectId))
    .where(and(eq(submissions.agentId, sql.placeholder('agentId')), eq(submissions.status, 'approved')))
    .groupBy(projects.id, projects.name, projects.tokenSymbol)
    .orderBy(projects.name),
);

/** Behind every wallet, agent page and console page: compiled once (statement.ts). */
export function earningsOf(ex: Executor, agentId: string) {
  return earnings.run(ex, { agentId });
}
