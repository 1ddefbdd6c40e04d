import { and, asc, count, eq, gt, inArray, lt, max, min, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { legAttempts, payoutLegs, payouts } from '../../infra/db/schema.ts';

export type PayoutRow = typeof payouts.$inferSelect;
export type LegRow = typeof payoutLegs.$inferSelect;
export type AttemptRow = typeof legAttempts.$inferSelect;

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
 * Marks a pending payout failed only while none of its legs may still move the tokens: a driver
 * that saw a revert never fails a payout another process has signed a new leg for meanwhile.
 */
export async function failIfIdle(ex: Executor, id: string, lastError: string, now: Date): Promise<boolean> {
  const rows = await ex
    .update(payouts)
    .set({ status: 'failed', lastError, updatedAt: now })
    .where(
      and(
        eq(payouts.id, id),
        eq(payouts.status, 'pending'),
        sql`not exists (select 1 from payout_legs l where l.payout_id = ${payouts.id}
              and (l.status in ('signed', 'sent') or (l.status = 'reverted' and l.block_number is null)))`,
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

export async function findLeg(ex: Executor, id: string): Promise<LegRow | undefined> {
  const [row] = await ex.select().from(payoutLegs).where(eq(payoutLegs.id, id));
  return row;
}

export function legsOf(ex: Executor, payoutId: string): Promise<LegRow[]> {
  return ex.select().from(payoutLegs).where(eq(payoutLegs.payoutId, payoutId)).orderBy(asc(payoutLegs.nonce));
}

export async function liveLegsOfSubmission(ex: Executor, submissionId: string): Promise<LegRow[]> {
  return ex
    .select({ leg: payoutLegs })
    .from(payoutLegs)
    .innerJoin(payouts, eq(payouts.id, payoutLegs.payoutId))
    .where(
      and(eq(payouts.submissionId, submissionId), notInArray(payoutLegs.status, ['reverted', 'dropped'])),
    )
    .then((rows) => rows.map((r) => r.leg));
}

export function attemptsOf(ex: Executor, legIds: string[]): Promise<AttemptRow[]> {
  if (legIds.length === 0) return Promise.resolve([]);
  return (
    ex
      .select()
      .from(legAttempts)
      .where(inArray(legAttempts.legId, legIds))
      // A leg's attempts raise the fee each time: the fee orders attempts made within one instant.
      .orderBy(asc(legAttempts.createdAt), asc(legAttempts.maxFeePerGas))
  );
}

export async function insertLeg(ex: Executor, leg: LegRow, attempt: AttemptRow): Promise<void> {
  await ex.insert(payoutLegs).values(leg);
  await ex.insert(legAttempts).values(attempt);
}

/** Stores a replacement; the same bytes signed by another instance at the same moment are one attempt. */
export async function insertAttempt(ex: Executor, attempt: AttemptRow): Promise<void> {
  await ex.insert(legAttempts).values(attempt).onConflictDoNothing();
}

export async function markBroadcast(ex: Executor, leg: LegRow, txHash: string, now: Date): Promise<void> {
  await ex.update(legAttempts).set({ broadcastAt: now }).where(eq(legAttempts.txHash, txHash));
  await ex
    .update(payoutLegs)
    .set({ status: 'sent', updatedAt: now })
    .where(and(eq(payoutLegs.id, leg.id), eq(payoutLegs.status, 'signed')));
}

/**
 * Records what mined for a leg; a settled leg is never changed again, except a reverted one whose
 * receipt a reorg took away (`forgetRevert`), which takes whatever mines at its nonce now.
 */
export async function settleLeg(
  ex: Executor,
  legId: string,
  status: 'success' | 'reverted',
  txHash: string,
  blockNumber: bigint,
  now: Date,
): Promise<boolean> {
  const rows = await ex
    .update(payoutLegs)
    .set({ status, txHash, blockNumber: Number(blockNumber), updatedAt: now })
    .where(and(eq(payoutLegs.id, legId), unsettledLeg))
    .returning({ id: payoutLegs.id });
  return rows.length > 0;
}

/** In flight, or reverted with its receipt gone (a reorg): what may still mine at the leg's nonce. */
const unsettledLeg = sql`(${payoutLegs.status} in ('signed', 'sent') or (${payoutLegs.status} = 'reverted' and ${payoutLegs.blockNumber} is null))`;

/** A leg whose nonce another transaction used: it moved nothing and never will. */
export async function markDropped(ex: Executor, legId: string, now: Date): Promise<boolean> {
  const rows = await ex
    .update(payoutLegs)
    .set({ status: 'dropped', updatedAt: now })
    .where(and(eq(payoutLegs.id, legId), unsettledLeg))
    .returning({ id: payoutLegs.id });
  return rows.length > 0;
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

/** Legs of any payout signed but never broadcast below a nonce: the node holds later nonces until these arrive. */
export function unsentBelow(
  ex: Executor,
  signer: string,
  nonce: number,
  signedBefore: Date,
): Promise<LegRow[]> {
  return ex
    .select()
    .from(payoutLegs)
    .where(
      and(
        eq(payoutLegs.signer, signer),
        eq(payoutLegs.status, 'signed'),
        lt(payoutLegs.nonce, nonce),
        lt(payoutLegs.createdAt, signedBefore),
      ),
    )
    .orderBy(asc(payoutLegs.nonce));
}

/** Legs of other signers that may still move tokens, per signer: what only that key can drive. */
export function inFlightOfOtherSigners(ex: Executor, signer: string) {
  return ex
    .select({
      signer: payoutLegs.signer,
      legs: count(),
      firstNonce: min(payoutLegs.nonce),
      lastNonce: max(payoutLegs.nonce),
    })
    .from(payoutLegs)
    .where(
      and(
        inArray(payoutLegs.status, ['signed', 'sent']),
        sql`lower(${payoutLegs.signer}) <> lower(${signer})`,
      ),
    )
    .groupBy(payoutLegs.signer);
}
