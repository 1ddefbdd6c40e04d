import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';
import { type PullRequestReport, submissions } from '../../infra/db/schema.ts';

export type SubmissionRow = typeof submissions.$inferSelect;

/** What a review (approve, reject) needs to know about a bounty, read in one statement. */
export interface ReviewableRow {
  id: string;
  projectId: string;
  status: string;
  rewardAmount: number;
  founderId: string;
  founderAddress: string | null;
  tokenAddress: string | null;
  /** The pending submission, if any. */
  submissionId: string | null;
  submissionAgentId: string | null;
  /** The pending submission's author's wallet: where its reward goes. */
  contributorAddress: string | null;
  /** The founder merged the pending submission's pull request: its reward is owed. */
  founderMerged: boolean;
  /** Whether the pending submission already has a payout row (an earlier approval). */
  hasPayout: boolean;
}

/** The bounty, its project and founder's wallet, its pending submission and that one's payout. */
export async function findReviewable(ex: Executor, bountyId: string): Promise<ReviewableRow | undefined> {
  const [row] = rowsOf<Omit<ReviewableRow, 'rewardAmount'> & { rewardAmount: string | number }>(
    await ex.execute(sql`
      select b.id, b.project_id as "projectId", b.status, b.reward_amount as "rewardAmount",
             p.founder_id as "founderId", a.wallet_address as "founderAddress",
             p.token_address as "tokenAddress", s.id as "submissionId", s.agent_id as "submissionAgentId",
             c.wallet_address as "contributorAddress", coalesce(s.founder_merged, false) as "founderMerged",
             exists (select 1 from payouts po where po.submission_id = s.id) as "hasPayout"
        from bounties b
        join projects p on p.id = b.project_id
        join agents a on a.id = p.founder_id
        left join submissions s on s.bounty_id = b.id and s.status = 'pending'
        left join agents c on c.id = s.agent_id
       where b.id = ${bountyId}
       limit 1`),
  );
  return row ? { ...row, rewardAmount: Number(row.rewardAmount) } : undefined;
}

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
    // Owed stays owed: a merge an approval asked for (`founder_merged` set before any merge was
    // recorded) arrives as the platform's, not the founder's. It is the approval's merge, recorded
    // as the approval records it (by the founder, merged_by null) whichever of the two comes first.
    .set({
      ...merge,
      mergedBy: sql`case when ${submissions.founderMerged} and not ${merge.founderMerged} then null else ${merge.mergedBy} end`,
      founderMerged: sql`${submissions.founderMerged} or ${merge.founderMerged}`,
    })
    .where(and(eq(submissions.id, id), eq(submissions.status, 'pending'), isNull(submissions.mergedAt)))
    .returning();
  return row;
}

/**
 * An approval with `merge` asked the host to merge: the reward is owed from before the host is
 * asked (a crash after the merge still pays). The pending submission with its merge and report.
 */
export async function requestMerge(ex: Executor, id: string, now: Date) {
  const [row] = await ex
    .update(submissions)
    .set({ founderMerged: true, updatedAt: now })
    .where(and(eq(submissions.id, id), eq(submissions.status, 'pending')))
    .returning({ mergedAt: submissions.mergedAt, prUrl: submissions.prUrl, report: submissions.pullRequest });
  return row;
}

/** The host refused the merge an approval asked for: not owed, unless the host reported a merge. */
export async function undoMergeRequest(ex: Executor, id: string, now: Date): Promise<boolean> {
  const rows = await ex
    .update(submissions)
    .set({ founderMerged: false, updatedAt: now })
    .where(and(eq(submissions.id, id), eq(submissions.status, 'pending'), isNull(submissions.mergedAt)))
    .returning({ id: submissions.id });
  return rows.length > 0;
}

/**
 * Rejects a pending submission, or sends it back for changes, unless the founder merged it: its
 * reward is owed.
 */
export async function closeReview(
  ex: Executor,
  id: string,
  status: 'rejected' | 'changes_requested',
  set: Pick<SubmissionRow, 'reviewNotes' | 'reviewedAt' | 'updatedAt'>,
): Promise<SubmissionRow | undefined> {
  // A submission sent back keeps the head the founder reviewed: its report's head moves with pushes.
  const reviewed = sql`jsonb_set(${submissions.pullRequest}, '{reviewed_head_sha}', coalesce(${submissions.pullRequest} -> 'head_sha', 'null'::jsonb))`;
  const [row] = await ex
    .update(submissions)
    .set({ ...set, status, ...(status === 'changes_requested' ? { pullRequest: reviewed } : {}) })
    .where(
      and(eq(submissions.id, id), eq(submissions.status, 'pending'), eq(submissions.founderMerged, false)),
    )
    .returning();
  return row;
}

/**
 * Approves the pending submission of a paid approval with both hashes and the amounts paid, in the
 * approval's finishing transaction (after its payout was confirmed). The submission's author, or
 * undefined when it is no longer pending, which the caller must roll back.
 */
export async function approvePaid(
  ex: Executor,
  id: string,
  a: {
    reviewNotes: string | null;
    contributorTxHash: string;
    platformFeeTxHash: string;
    rewardUnits: bigint;
    feeUnits: bigint;
    now: Date;
  },
): Promise<string | undefined> {
  const [row] = await ex
    .update(submissions)
    .set({
      status: 'approved',
      reviewNotes: a.reviewNotes,
      contributorTxHash: a.contributorTxHash,
      platformFeeTxHash: a.platformFeeTxHash,
      payoutFailedReason: null,
      rewardUnits: a.rewardUnits,
      feeUnits: a.feeUnits,
      reviewedAt: a.now,
      updatedAt: a.now,
    })
    .where(and(eq(submissions.id, id), eq(submissions.status, 'pending')))
    .returning({ agentId: submissions.agentId });
  return row?.agentId;
}

/**
 * Live submissions (pending, or sent back for changes) of a pull request URL, or whose reported
 * head commit is `sha` in that repository (`owner/name`, matched against the URL's path).
 */
export function liveForReport(
  ex: Executor,
  match: { prUrl: string } | { repositoryFullName: string; sha: string },
) {
  const live = inArray(submissions.status, ['pending', 'changes_requested']);
  const which =
    'prUrl' in match
      ? eq(submissions.prUrl, match.prUrl)
      : and(
          sql`(${submissions.pullRequest} ->> 'head_sha') = ${match.sha}`,
          sql`lower(${submissions.prUrl}) like ${`%/${match.repositoryFullName.toLowerCase()}/pull/%`}`,
        );
  return ex
    .select({ id: submissions.id, prUrl: submissions.prUrl, bountyId: submissions.bountyId })
    .from(submissions)
    .where(and(live, which));
}

/** The report read again; the head the founder last reviewed stays (the host does not know it). */
export async function storeReport(ex: Executor, id: string, report: PullRequestReport, now: Date) {
  const kept = sql`jsonb_strip_nulls(jsonb_build_object('reviewed_head_sha', ${submissions.pullRequest} -> 'reviewed_head_sha'))`;
  await ex
    .update(submissions)
    .set({ pullRequest: sql`${JSON.stringify(report)}::jsonb || ${kept}`, updatedAt: now })
    .where(eq(submissions.id, id));
}

/** The agent's latest submission of the bounty: a resubmission's predecessor when sent back. */
export async function latestOfAgent(
  ex: Executor,
  bountyId: string,
  agentId: string,
): Promise<SubmissionRow | undefined> {
  const [row] = await ex
    .select()
    .from(submissions)
    .where(and(eq(submissions.bountyId, bountyId), eq(submissions.agentId, agentId)))
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(1);
  return row;
}

/** A submission of the bounty, by its id. */
export async function findOfBounty(ex: Executor, bountyId: string, id: string) {
  const [row] = await ex
    .select()
    .from(submissions)
    .where(and(eq(submissions.id, id), eq(submissions.bountyId, bountyId)))
    .limit(1);
  return row;
}

/**
 * The submission's status, its row locked for the rest of the transaction: a reject updates that
 * row, so a payout is signed either before the reject starts or never (payouts asks, through the
 * port compose.ts wires).
 */
export async function lockStatus(ex: Executor, submissionId: string): Promise<string | undefined> {
  const [row] = await ex
    .select({ status: submissions.status })
    .from(submissions)
    .where(eq(submissions.id, submissionId))
    .for('update');
  return row?.status;
}
