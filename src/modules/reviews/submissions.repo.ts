import { and, eq } from 'drizzle-orm';
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
