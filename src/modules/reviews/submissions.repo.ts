import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';
import { submissions } from '../../infra/db/schema.ts';

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

/** Rejects a pending submission, unless the founder merged it: its reward is owed. */
export async function reject(
  ex: Executor,
  id: string,
  set: Pick<SubmissionRow, 'reviewNotes' | 'reviewedAt' | 'updatedAt'>,
): Promise<SubmissionRow | undefined> {
  const [row] = await ex
    .update(submissions)
    .set({ ...set, status: 'rejected' })
    .where(
      and(eq(submissions.id, id), eq(submissions.status, 'pending'), eq(submissions.founderMerged, false)),
    )
    .returning();
  return row;
}

export interface PaidLeg {
  legId: string;
  txHash: string;
  blockNumber: bigint;
}

/**
 * Finishes a paid approval in one statement: the legs that mined are recorded (when the caller
 * read their receipts itself), the payout confirmed, the submission approved with both hashes and
 * the bounty done with its lease released. Each step applies only if the one before it did: a
 * second finisher changes nothing (`confirmed` false). `agentId` is null when the payout was
 * confirmed but the submission was no longer pending, which the caller must roll back.
 */
/** What finishing an approval changed; the project fields (null unless it finished) spare a re-read. */
export interface ApprovedPaid {
  confirmed: boolean;
  agentId: string | null;
  projectId: string | null;
  tokenAddress: string | null;
  founderId: string | null;
  founderAddress: string | null;
}

export async function approvePaid(
  ex: Executor,
  a: {
    payoutId: string;
    submissionId: string;
    bountyId: string;
    reviewNotes: string | null;
    contributorTxHash: string;
    platformFeeTxHash: string;
    rewardUnits: bigint;
    feeUnits: bigint;
    legs: PaidLeg[];
    now: Date;
  },
): Promise<ApprovedPaid> {
  const now = sql`${a.now.toISOString()}::timestamptz`;
  const settle: SQL =
    a.legs.length === 0
      ? sql``
      : sql`settled as (
          update payout_legs l
             set status = 'success', tx_hash = v.tx_hash, block_number = v.block_number::bigint, updated_at = ${now}
            from (values ${sql.join(
              a.legs.map((l) => sql`(${l.legId}, ${l.txHash}, ${l.blockNumber.toString()})`),
              sql`, `,
            )}) as v(id, tx_hash, block_number)
           where l.id = v.id and l.status in ('signed', 'sent')
          returning l.id),
        sent as (
          update leg_attempts set broadcast_at = ${now}
           where tx_hash in (${sql.join(
             a.legs.map((l) => sql`${l.txHash}`),
             sql`, `,
           )}) and broadcast_at is null
          returning tx_hash),`;
  const [row] = rowsOf<ApprovedPaid>(
    await ex.execute(sql`
      with ${settle}
      paid as (
        update payouts set status = 'confirmed', last_error = null, updated_at = ${now}
         where id = ${a.payoutId} and status in ('pending', 'failed')
        returning id),
      approved as (
        update submissions
           set status = 'approved', review_notes = ${a.reviewNotes},
               contributor_tx_hash = ${a.contributorTxHash}, platform_fee_tx_hash = ${a.platformFeeTxHash},
               payout_failed_reason = null,
               reward_units = ${a.rewardUnits.toString()}::numeric, fee_units = ${a.feeUnits.toString()}::numeric,
               reviewed_at = ${now}, updated_at = ${now}
         where id = ${a.submissionId} and status = 'pending' and exists (select 1 from paid)
        returning agent_id),
      done as (
        update bounties set status = 'done', approval_lease_until = null, approval_lease_owner = null,
                            payable = true, payment_owed = false, updated_at = ${now}
         where id = ${a.bountyId} and status = 'in_review' and exists (select 1 from approved)
        returning project_id)
      select exists (select 1 from paid) as confirmed, (select agent_id from approved) as "agentId",
             d.project_id as "projectId", p.token_address as "tokenAddress", p.founder_id as "founderId",
             f.wallet_address as "founderAddress"
        from (select 1) as one
        left join done d on true
        left join projects p on p.id = d.project_id
        left join agents f on f.id = p.founder_id`),
  );
  return (
    row ?? {
      confirmed: false,
      agentId: null,
      projectId: null,
      tokenAddress: null,
      founderId: null,
      founderAddress: null,
    }
  );
}
