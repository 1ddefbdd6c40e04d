import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';
import { payouts } from '../../infra/db/schema.ts';

export type PayoutRow = typeof payouts.$inferSelect;

/** Inserts the payout unless the submission has one; returns the submission's payout either way. */
export async function insertOrGet(ex: Executor, row: PayoutRow): Promise<PayoutRow> {
  await ex.insert(payouts).values(row).onConflictDoNothing();
  const [found] = await ex.select().from(payouts).where(eq(payouts.submissionId, row.submissionId)).limit(1);
  return found as PayoutRow;
}

export async function findById(ex: Executor, id: string): Promise<PayoutRow | undefined> {
  const [row] = await ex.select().from(payouts).where(eq(payouts.id, id)).limit(1);
  return row;
}

export async function findBySubmission(ex: Executor, submissionId: string): Promise<PayoutRow | undefined> {
  const [row] = await ex.select().from(payouts).where(eq(payouts.submissionId, submissionId)).limit(1);
  return row;
}

/** Moves a payout between states; only from `from`, so two finishers cannot both win. */
export async function setStatus(
  ex: Executor,
  id: string,
  from: PayoutRow['status'][],
  to: PayoutRow['status'],
  lastError: string | null,
  now: Date,
): Promise<boolean> {
  const rows = await ex
    .update(payouts)
    .set({ status: to, lastError, updatedAt: now })
    .where(and(eq(payouts.id, id), inArray(payouts.status, from)))
    .returning({ id: payouts.id });
  return rows.length > 0;
}

/**
 * Marks a pending payout failed only while none of its transactions may still move the tokens: a
 * driver that saw a revert never fails a payout another process has signed anew meanwhile.
 */
export async function failIfIdle(ex: Executor, id: string, lastError: string, now: Date): Promise<boolean> {
  const rows = await ex
    .update(payouts)
    .set({ status: 'failed', lastError, updatedAt: now })
    .where(
      and(
        eq(payouts.id, id),
        eq(payouts.status, 'pending'),
        sql`not exists (select 1 from wallet_intents i where i.payout_id = ${payouts.id}
              and i.status = 'pending')`,
      ),
    )
    .returning({ id: payouts.id });
  return rows.length > 0;
}

/** The review notes an unfinished payout will record on the submission when it is confirmed. */
export async function setReviewNotes(
  ex: Executor,
  id: string,
  notes: string | null,
  now: Date,
): Promise<void> {
  await ex
    .update(payouts)
    .set({ reviewNotes: notes, updatedAt: now })
    .where(and(eq(payouts.id, id), inArray(payouts.status, ['pending', 'failed'])));
}

/** Unfinished payouts in id order, after `afterId` (from the first when null). */
export function unfinishedAfter(ex: Executor, afterId: string | null, limit: number): Promise<PayoutRow[]> {
  return ex
    .select()
    .from(payouts)
    .where(and(eq(payouts.status, 'pending'), afterId === null ? undefined : gt(payouts.id, afterId)))
    .orderBy(asc(payouts.id))
    .limit(limit);
}

/** Locks the payout row for the rest of the transaction: signing and rejecting serialize on it. */
export async function lockBySubmission(ex: Executor, submissionId: string): Promise<PayoutRow | undefined> {
  const [row] = await ex.select().from(payouts).where(eq(payouts.submissionId, submissionId)).for('update');
  return row;
}

export async function lockById(ex: Executor, id: string): Promise<PayoutRow | undefined> {
  const [row] = await ex.select().from(payouts).where(eq(payouts.id, id)).for('update');
  return row;
}

/**
 * Confirmed payouts that lost a transfer (a reorg took back the transaction that paid, and its
 * nonce went to another transaction, or its bytes sent again reverted at a block at or below
 * `finalAt`): a kind whose every transaction failed, nothing of it live. Signed again, after the
 * funds reservation. In id order, after `afterId` (from the first when null), at most `limit`.
 */
export async function confirmedWithLostKind(
  ex: Executor,
  finalAt: bigint,
  afterId: string | null,
  limit: number,
): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await ex.execute(sql`
      select p.id from payouts p
       where p.status = 'confirmed'${afterId === null ? sql`` : sql` and p.id > ${afterId}`}
         and exists (
           select 1 from wallet_intents f
            where f.payout_id = p.id and f.status = 'failed'
              and (f.block_number is null or f.block_number <= ${finalAt.toString()}::bigint)
              and not exists (select 1 from wallet_intents l
                               where l.payout_id = p.id and l.kind = f.kind and l.status <> 'failed'))
       order by p.id
       limit ${limit}`),
  );
  return rows.map((r) => r.id);
}

/** Payout transactions of other signers that may still move tokens, per signer: what only that key can drive. */
export async function inFlightOfOtherSigners(ex: Executor, signer: string) {
  return rowsOf<{ signer: string; legs: number; firstNonce: number; lastNonce: number }>(
    await ex.execute(sql`
      select signer, count(*)::int as legs, min(nonce)::int as "firstNonce", max(nonce)::int as "lastNonce"
        from wallet_intents
       where payout_id is not null and status = 'pending' and signer <> lower(${signer})
       group by signer`),
  );
}
