import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { submissions } from '../../infra/db/schema.ts';

export type SubmissionRow = typeof submissions.$inferSelect;

export async function insert(ex: Executor, row: SubmissionRow): Promise<SubmissionRow> {
  const [created] = await ex.insert(submissions).values(row).returning();
  return created as SubmissionRow;
}

export async function findPending(ex: Executor, bountyId: string): Promise<SubmissionRow | undefined> {
  const [row] = await ex
    .select()
    .from(submissions)
    .where(and(eq(submissions.bountyId, bountyId), eq(submissions.status, 'pending')))
    .limit(1);
  return row;
}

/** Moves a pending submission to its review outcome; nothing happens unless it is still pending. */
export async function review(
  ex: Executor,
  id: string,
  set: Partial<SubmissionRow> & Pick<SubmissionRow, 'status' | 'reviewedAt' | 'updatedAt'>,
): Promise<SubmissionRow | undefined> {
  const [row] = await ex
    .update(submissions)
    .set(set)
    .where(and(eq(submissions.id, id), eq(submissions.status, 'pending')))
    .returning();
  return row;
}

/** Submissions store the canonical `{repo_url}/pull/{n}`, the same form the host's webhook carries. */
export async function findPendingByPrUrl(ex: Executor, prUrl: string): Promise<SubmissionRow | undefined> {
  const [row] = await ex
    .select()
    .from(submissions)
    .where(and(eq(submissions.prUrl, prUrl.replace(/\/+$/, '')), eq(submissions.status, 'pending')))
    .limit(1);
  return row;
}

/**
 * Records the host's merge on a pending submission, once: a later delivery of the same merge
 * changes nothing (undefined), so its event is not recorded twice.
 */
export async function recordMerge(
  ex: Executor,
  id: string,
  merge: Pick<SubmissionRow, 'mergedAt' | 'mergedBy' | 'founderMerged' | 'updatedAt'>,
): Promise<SubmissionRow | undefined> {
  const [row] = await ex
    .update(submissions)
    .set(merge)
    .where(and(eq(submissions.id, id), eq(submissions.status, 'pending'), isNull(submissions.mergedAt)))
    .returning();
  return row;
}

/**
 * Rejects a pending submission. One the founder merged is owed its reward and stays pending,
 * unless `evenIfFounderMerged` (its payout's contributor leg cannot succeed).
 */
export async function reject(
  ex: Executor,
  id: string,
  set: Pick<SubmissionRow, 'reviewNotes' | 'reviewedAt' | 'updatedAt'>,
  evenIfFounderMerged: boolean,
): Promise<SubmissionRow | undefined> {
  const [row] = await ex
    .update(submissions)
    .set({ ...set, status: 'rejected' })
    .where(
      and(
        eq(submissions.id, id),
        eq(submissions.status, 'pending'),
        evenIfFounderMerged ? undefined : eq(submissions.founderMerged, false),
      ),
    )
    .returning();
  return row;
}
