import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';
import { bounties } from '../../infra/db/schema.ts';

// The writes behind BountyState (bounty-state.ts): the approval lease, an owed reward, the end of
// an approval and the payable flags. The bounty's other reads and writes are in bounties.repo.ts.
/**
 * `ms` from now by the database's clock: every instance reads and writes the lease by the same
 * clock, so instances whose own clocks disagree still agree on when a lease lapses.
 */
const fromNow = (ms: number) => sql<Date>`now() + ${Math.round(ms)} * interval '1 millisecond'`;

/**
 * Takes the approval lease for `owner` (a fencing token) for `ms`, unless another approval holds a
 * live one; answers, in the same statement, which submission is pending now (a reject and a new
 * submission may have come in since the caller read it).
 */
export async function takeLease(
  ex: Executor,
  id: string,
  owner: string,
  ms: number,
): Promise<{ pendingSubmissionId: string | null } | undefined> {
  const [row] = await ex
    .update(bounties)
    .set({ approvalLeaseUntil: fromNow(ms), approvalLeaseOwner: owner })
    .where(and(eq(bounties.id, id), eq(bounties.status, 'in_review'), leaseFree()))
    .returning({
      pendingSubmissionId: sql<string | null>`(select s.id from submissions s
        where s.bounty_id = bounties.id and s.status = 'pending' limit 1)`,
    });
  return row;
}

/** No approval holds a live lease, by the database's clock. */
export const leaseFree = () =>
  or(isNull(bounties.approvalLeaseUntil), lt(bounties.approvalLeaseUntil, sql`now()`));

/** The founder merged the pending submission: its reward is owed until the approval finishes. */
export async function markPaymentOwed(ex: Executor, id: string, now: Date): Promise<void> {
  await ex
    .update(bounties)
    .set({ paymentOwed: true, updatedAt: now })
    .where(and(eq(bounties.id, id), eq(bounties.status, 'in_review')));
}

/** An approval's merge the host refused: no longer owed (a merge the host reported is never undone). */
export async function clearPaymentOwed(ex: Executor, id: string, now: Date): Promise<void> {
  await ex
    .update(bounties)
    .set({ paymentOwed: false, updatedAt: now })
    .where(and(eq(bounties.id, id), eq(bounties.status, 'in_review')));
}

/**
 * Extends the lease while `owner` still holds it and the bounty is in review: a first payout's
 * signing transaction runs this after locking the submission (the order a reject takes them in).
 */
export async function renewLease(ex: Executor, id: string, owner: string, ms: number): Promise<boolean> {
  const rows = await ex
    .update(bounties)
    .set({ approvalLeaseUntil: fromNow(ms) })
    .where(and(eq(bounties.id, id), eq(bounties.status, 'in_review'), eq(bounties.approvalLeaseOwner, owner)))
    .returning({ id: bounties.id });
  return rows.length > 0;
}

/** The project of a bounty an approval finished, as the payability refresh after it wants it. */
export interface FinishedBounty {
  projectId: string;
  tokenAddress: string | null;
  founderId: string;
  founderAddress: string | null;
}

/**
 * Marks the bounty of a paid approval done (lease released, payable, no longer owed) and reads its
 * project with the founder's wallet in the same statement; undefined when it was not in review.
 */
export async function finishApproval(
  ex: Executor,
  id: string,
  now: Date,
): Promise<FinishedBounty | undefined> {
  const [row] = rowsOf<FinishedBounty>(
    await ex.execute(sql`
      with done as (
        update bounties set status = 'done', approval_lease_until = null, approval_lease_owner = null,
                            payable = true, payment_owed = false, updated_at = ${now.toISOString()}::timestamptz
         where id = ${id} and status = 'in_review'
        returning project_id)
      select d.project_id as "projectId", p.token_address as "tokenAddress", p.founder_id as "founderId",
             f.wallet_address as "founderAddress"
        from done d
        join projects p on p.id = d.project_id
        join agents f on f.id = p.founder_id`),
  );
  return row;
}

/** Releases the lease only while `owner` holds it: a lease another process took since stays. */
export async function releaseLease(ex: Executor, id: string, owner: string): Promise<void> {
  await ex
    .update(bounties)
    .set({ approvalLeaseUntil: null, approvalLeaseOwner: null })
    .where(and(eq(bounties.id, id), eq(bounties.approvalLeaseOwner, owner)));
}

/** A live bounty whose flag changed; amounts are decimal strings (rewards whole, spendable in units). */
export interface PayableFlip {
  id: string;
  payable: boolean;
  claimedBy: string | null;
  rewardAmount: string;
  committedBefore: string;
  spendableUnits: string;
}

/**
 * Recomputes `payable` for every live (open, claimed, in_review) bounty of the project in one
 * statement: the running sum of rewards in (created_at, id) order, up to and including each bounty,
 * against the stored min(balance, allowance) of `project_funds` (the payability module's). Returns
 * only the bounties whose flag flipped. The status is checked again on the row itself, so a bounty
 * that became done meanwhile keeps its flag. The flips come back in that same order (an UPDATE's
 * RETURNING has none of its own), so the events recorded for them do too.
 */
export async function recomputePayable(ex: Executor, projectId: string): Promise<PayableFlip[]> {
  const result = await ex.execute(sql`
    with funds as (
      select least(balance_units, allowance_units) as spendable
        from project_funds where project_id = ${projectId}
    ), live as (
      select id, reward_amount,
             sum(reward_amount) over (order by created_at, id rows unbounded preceding) as through
        from bounties
       where project_id = ${projectId} and status in ('open', 'claimed', 'in_review')
    ), next as (
      select l.id, l.reward_amount, l.through - l.reward_amount as before, f.spendable,
             l.through * 1000000000000000000::numeric <= f.spendable as payable
        from live l cross join funds f
    ), flipped as (
      update bounties b
         set payable = n.payable
        from next n
       where b.id = n.id and b.payable <> n.payable and b.status in ('open', 'claimed', 'in_review')
      returning b.id, b.payable, b.claimed_by as "claimedBy", n.reward_amount::text as "rewardAmount",
                n.before::text as "committedBefore", n.spendable::text as "spendableUnits", b.created_at
    )
    select id, payable, "claimedBy", "rewardAmount", "committedBefore", "spendableUnits"
      from flipped order by created_at, id`);
  return rowsOf<PayableFlip>(result);
}
