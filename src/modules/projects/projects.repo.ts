import { and, count, desc, eq, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { bounties, projects, submissions } from '../../infra/db/schema.ts';
import { anyOfPlaceholder, compileOnFirstRun, numberPlaceholder } from '../../infra/db/statement.ts';

export type ProjectRow = typeof projects.$inferSelect;

export async function insert(ex: Executor, row: ProjectRow): Promise<ProjectRow> {
  const [created] = await ex.insert(projects).values(row).returning();
  return created as ProjectRow;
}

// The project reads behind every page and every bounty rule, compiled once (statement.ts, as the
// bounty reads are): drizzle would build the SQL and map the rows on every call.
const byId = compileOnFirstRun((ex) =>
  ex
    .select()
    .from(projects)
    .where(eq(projects.id, sql.placeholder('id'))),
);

export async function findById(ex: Executor, id: string): Promise<ProjectRow | undefined> {
  const [row] = await byId.run(ex, { id });
  return row;
}

const byIds = compileOnFirstRun((ex) =>
  ex.select().from(projects).where(anyOfPlaceholder(projects.id, 'ids')),
);

export function findByIds(ex: Executor, ids: string[]): Promise<ProjectRow[]> {
  return byIds.run(ex, { ids });
}

/**
 * True when the address, in any letter case, is a project's token or curve contract. Few rows
 * have contracts and this runs only on wallet changes and payouts, so no expression index.
 */
export async function hasContractAt(ex: Executor, address: string): Promise<boolean> {
  const a = address.toLowerCase();
  const [row] = await ex
    .select({ id: projects.id })
    .from(projects)
    .where(or(sql`lower(${projects.tokenAddress}) = ${a}`, sql`lower(${projects.curveAddress}) = ${a}`))
    .limit(1);
  return row !== undefined;
}

export interface ProjectFilter {
  status?: string;
  founderId?: string;
  limit: number;
  offset: number;
}

/** The filter's shape: which of its conditions are present, one bit each. */
const shapeOf = (f: ProjectFilter) => (f.status ? 1 : 0) | (f.founderId ? 2 : 0);

/** The conditions of a shape, on placeholders filled per run (`values`). */
function where(shape: number): SQL | undefined {
  const parts: SQL[] = [];
  if (shape & 1) parts.push(eq(projects.status, sql.placeholder('status')));
  if (shape & 2) parts.push(eq(projects.founderId, sql.placeholder('founderId')));
  return and(...parts);
}

const values = (f: ProjectFilter) => ({
  status: f.status,
  founderId: f.founderId,
  limit: f.limit,
  offset: f.offset,
});

/** Per filter shape (`shapeOf`): the page, and its count. */
const SHAPES = [0, 1, 2, 3];
const pages = SHAPES.map((shape) =>
  compileOnFirstRun((ex) =>
    ex
      .select()
      .from(projects)
      .where(where(shape))
      .orderBy(desc(projects.createdAt), desc(projects.id))
      .limit(numberPlaceholder('limit'))
      .offset(numberPlaceholder('offset')),
  ),
);
const counted = { n: count() };
const counts = SHAPES.map((shape) =>
  compileOnFirstRun((ex) => ex.select(counted).from(projects).where(where(shape))),
);

export function list(ex: Executor, f: ProjectFilter): Promise<ProjectRow[]> {
  return (pages[shapeOf(f)] as (typeof pages)[number]).run(ex, values(f));
}

export async function countMatching(ex: Executor, f: ProjectFilter): Promise<number> {
  const [row] = await (counts[shapeOf(f)] as (typeof counts)[number]).run(ex, values(f));
  return row?.n ?? 0;
}

export interface ReviewStatsRow {
  projectId: string;
  approved: number;
  rejected: number;
  changesRequested: number;
  /** Hours, or null with nothing reviewed. */
  medianHours: number | null;
  awaitingReview: number;
  awaitingOver7Days: number;
  owed: number;
}

// A request for changes is a review too: each submission's time to its (first) review counts.
const reviewed = sql`${submissions.status} in ('approved', 'rejected', 'changes_requested')`;
const pending = sql`${submissions.status} = 'pending'`;
const reviewStatsOf = compileOnFirstRun((ex) =>
  ex
    .select({
      projectId: bounties.projectId,
      approved: sql<number>`(count(*) filter (where ${submissions.status} = 'approved'))::int`,
      rejected: sql<number>`(count(*) filter (where ${submissions.status} = 'rejected'))::int`,
      changesRequested: sql<number>`(count(*) filter (where ${submissions.status} = 'changes_requested'))::int`,
      medianHours: sql<number | null>`percentile_cont(0.5) within group (
        order by (extract(epoch from ${submissions.reviewedAt} - ${submissions.createdAt}) / 3600)::float8
      ) filter (where ${reviewed})`,
      awaitingReview: sql<number>`(count(*) filter (where ${pending}))::int`,
      awaitingOver7Days: sql<number>`(count(*) filter (where ${pending}
        and ${submissions.createdAt} < ${sql.placeholder('staleBefore')}::timestamptz))::int`,
      owed: sql<number>`(count(*) filter (where ${pending} and ${submissions.founderMerged}))::int`,
    })
    .from(submissions)
    .innerJoin(bounties, eq(bounties.id, submissions.bountyId))
    .where(anyOfPlaceholder(bounties.projectId, 'projectIds'))
    .groupBy(bounties.projectId),
);

/**
 * Review figures of the submissions to these projects' bounties, one grouped query for a page:
 * `staleBefore` (the service clock's now minus 7 days) splits off the long-pending ones.
 */
export function reviewStats(
  ex: Executor,
  projectIds: string[],
  staleBefore: Date,
): Promise<ReviewStatsRow[]> {
  return reviewStatsOf.run(ex, { projectIds, staleBefore: staleBefore.toISOString() });
}

const byStatus = compileOnFirstRun((ex) =>
  ex.select({ status: projects.status, n: count() }).from(projects).groupBy(projects.status),
);

export async function countByStatus(ex: Executor): Promise<Record<string, number>> {
  const rows = await byStatus.run(ex, {});
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** Takes the activation lease of a proposed project unless a live one is held. */
export async function takeActivationLease(
  ex: Executor,
  id: string,
  now: Date,
  until: Date,
): Promise<boolean> {
  const rows = await ex
    .update(projects)
    .set({ activationLeaseUntil: until })
    .where(
      and(
        eq(projects.id, id),
        eq(projects.status, 'proposed'),
        or(isNull(projects.activationLeaseUntil), lt(projects.activationLeaseUntil, now)),
      ),
    )
    .returning({ id: projects.id });
  return rows.length > 0;
}

export async function releaseActivationLease(ex: Executor, id: string): Promise<void> {
  await ex.update(projects).set({ activationLeaseUntil: null }).where(eq(projects.id, id));
}

/** proposed -> active with what activation created; only while still proposed. */
export async function markActive(
  ex: Executor,
  id: string,
  set: Pick<ProjectRow, 'repoUrl' | 'tokenAddress' | 'curveAddress' | 'activatedAt' | 'updatedAt'>,
): Promise<ProjectRow | undefined> {
  const [row] = await ex
    .update(projects)
    .set({ ...set, status: 'active', activationLeaseUntil: null })
    .where(and(eq(projects.id, id), eq(projects.status, 'proposed')))
    .returning();
  return row;
}
