import { and, eq, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';
import { submissions } from '../../infra/db/schema.ts';

/** Owed rewards (the founder merged) and what became of paid ones: the reviews module's money reads. */

/** A pending submission and who is concerned: one whose pull request was merged, or is owed. */
export interface OwedSubmission {
  submissionId: string;
  bountyId: string;
  projectId: string;
  founderId: string;
  contributorId: string;
  /** The canonical `{repo_url}/pull/{n}` the submission was made with. */
  prUrl: string;
}

/** A payout transaction of an owed submission that reverted on chain. */
export interface RevertedLeg {
  legId: string;
  /** The founder's wallet and token it took from, and how much (a router call: the whole reward). */
  tokenAddress: string;
  fromAddress: string;
  units: bigint;
  /** The block it reverted in; null while a reorg took its receipt away. */
  blockNumber: bigint | null;
  /** When the revert was recorded. */
  revertedAt: Date;
}

/** An owed submission with how its payout last went: a payout that keeps reverting waits longer. */
export interface OwedPayoutState extends OwedSubmission {
  /** Its payout's status, if it has one. */
  payoutStatus: string | null;
  /** Its payout's transactions that reverted on chain, in nonce order (the last is the latest). */
  reverted: RevertedLeg[];
}

interface RevertedRaw {
  legId: string;
  tokenAddress: string;
  fromAddress: string;
  units: string;
  blockNumber: string | null;
  revertedAt: string;
}

/** Owed submissions (their bounty flagged `payment_owed`), the longest waiting first. */
export async function owed(ex: Executor, limit: number): Promise<OwedPayoutState[]> {
  const rows = rowsOf<Omit<OwedPayoutState, 'reverted'> & { reverted: unknown }>(
    await ex.execute(sql`
      select s.id as "submissionId", b.id as "bountyId", b.project_id as "projectId",
             p.founder_id as "founderId", s.agent_id as "contributorId", s.pr_url as "prUrl",
             po.status as "payoutStatus",
             (select coalesce(json_agg(json_build_object(
                       'legId', i.id,
                       'tokenAddress', po.token_address,
                       'fromAddress', po.from_address,
                       'units', (case i.kind when 'payout' then po.reward_units when 'payout_fee' then po.fee_units
                                      else po.contributor_units end)::text,
                       'blockNumber', i.block_number::text,
                       'revertedAt', i.updated_at) order by i.created_at), '[]'::json)
                from wallet_intents i
               where i.payout_id = po.id and i.status = 'failed' and i.block_number is not null) as reverted
        from bounties b
        join submissions s on s.bounty_id = b.id and s.status = 'pending' and s.founder_merged
        join projects p on p.id = b.project_id
        left join payouts po on po.submission_id = s.id
       where b.payment_owed and b.status = 'in_review'
       order by b.updated_at
       limit ${limit}`),
  );
  return rows.map((r) => ({ ...r, reverted: parseReverted(r.reverted) }));
}

const parseReverted = (raw: unknown): RevertedLeg[] =>
  (((typeof raw === 'string' ? JSON.parse(raw) : raw) as RevertedRaw[] | null) ?? []).map((l) => ({
    legId: l.legId,
    tokenAddress: l.tokenAddress,
    fromAddress: l.fromAddress,
    units: BigInt(l.units),
    blockNumber: l.blockNumber === null ? null : BigInt(l.blockNumber),
    revertedAt: new Date(l.revertedAt),
  }));

/** Records why an owed payout failed; false when that reason was already recorded (told once). */
export async function setPayoutFailure(
  ex: Executor,
  id: string,
  reason: string,
  now: Date,
): Promise<boolean> {
  const rows = await ex
    .update(submissions)
    .set({ payoutFailedReason: reason, updatedAt: now })
    .where(
      and(
        eq(submissions.id, id),
        eq(submissions.status, 'pending'),
        sql`${submissions.payoutFailedReason} is distinct from ${reason}`,
      ),
    )
    .returning({ id: submissions.id });
  return rows.length > 0;
}

/**
 * An approved submission whose payout a reorg took back was paid by another transaction: its
 * recorded hashes follow the one that paid (`payout`, one router transaction, is both).
 */
export async function recordRepaid(
  ex: Executor,
  r: { submissionId: string; kind: 'payout' | 'contributor' | 'fee'; txHash: string },
  now: Date,
): Promise<void> {
  const set =
    r.kind === 'payout'
      ? { contributorTxHash: r.txHash, platformFeeTxHash: r.txHash }
      : r.kind === 'contributor'
        ? { contributorTxHash: r.txHash }
        : { platformFeeTxHash: r.txHash };
  await ex
    .update(submissions)
    .set({ ...set, updatedAt: now })
    .where(and(eq(submissions.id, r.submissionId), eq(submissions.status, 'approved')));
}

/** The bounty's approved submission with its paid hashes (a confirmed payout), if any. */
export async function findPaid(
  ex: Executor,
  bountyId: string,
): Promise<{ id: string; contributorTxHash: string; platformFeeTxHash: string } | undefined> {
  const [row] = rowsOf<{ id: string; contributorTxHash: string; platformFeeTxHash: string }>(
    await ex.execute(sql`
      select s.id, s.contributor_tx_hash as "contributorTxHash", s.platform_fee_tx_hash as "platformFeeTxHash"
        from submissions s
        join payouts p on p.submission_id = s.id and p.status = 'confirmed'
       where s.bounty_id = ${bountyId} and s.status = 'approved'
       order by s.reviewed_at desc
       limit 1`),
  );
  return row;
}
