import {
  and,
  asc,
  count,
  eq,
  gt,
  gte,
  inArray,
  isNull,
  lt,
  max,
  min,
  ne,
  notInArray,
  sql,
} from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';
import { legAttempts, payoutLegs, payouts, submissions } from '../../infra/db/schema.ts';

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

/**
 * The status of the payout's submission, its row locked for the rest of the transaction: a reject
 * updates that row, so a leg is signed either before the reject starts or never.
 */
export async function lockSubmissionStatus(ex: Executor, submissionId: string): Promise<string | undefined> {
  const [row] = await ex
    .select({ status: submissions.status })
    .from(submissions)
    .where(eq(submissions.id, submissionId))
    .for('update');
  return row?.status;
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

/**
 * A reverted leg whose transaction a reorg took back: it keeps its status (it is never sent again:
 * it could succeed now) and loses its block until its nonce is filled and final (then `dropped`)
 * or its bytes mine again (settled as they mine).
 */
export async function forgetRevert(ex: Executor, legId: string, now: Date): Promise<void> {
  await ex
    .update(payoutLegs)
    .set({ blockNumber: null, updatedAt: now })
    .where(and(eq(payoutLegs.id, legId), eq(payoutLegs.status, 'reverted')));
}

/** The signer's reverted legs whose receipt a reorg took away. */
export function forgottenReverts(ex: Executor, signer: string): Promise<LegRow[]> {
  return ex
    .select()
    .from(payoutLegs)
    .where(
      and(eq(payoutLegs.signer, signer), eq(payoutLegs.status, 'reverted'), isNull(payoutLegs.blockNumber)),
    )
    .orderBy(asc(payoutLegs.nonce));
}

/** A leg whose nonce another transaction used: it moved nothing and never will. */
export async function markDropped(ex: Executor, legId: string, now: Date): Promise<boolean> {
  const rows = await ex
    .update(payoutLegs)
    .set({ status: 'dropped', updatedAt: now })
    .where(and(eq(payoutLegs.id, legId), unsettledLeg))
    .returning({ id: payoutLegs.id });
  return rows.length > 0;
}

/** A mined leg seen again in another block (a reorg that re-included it): its new place. */
export async function moveLeg(ex: Executor, legId: string, blockNumber: bigint, now: Date): Promise<void> {
  await ex
    .update(payoutLegs)
    .set({ blockNumber: Number(blockNumber), updatedAt: now })
    .where(and(eq(payoutLegs.id, legId), eq(payoutLegs.status, 'success')));
}

/**
 * The signer's mined legs above a block (success or reverted): what a reorg may still take back
 * (PAYOUT_CONFIRMATIONS).
 */
export function minedLegsAbove(ex: Executor, signer: string, block: bigint): Promise<LegRow[]> {
  return ex
    .select()
    .from(payoutLegs)
    .where(
      and(
        eq(payoutLegs.signer, signer),
        inArray(payoutLegs.status, ['success', 'reverted']),
        gt(payoutLegs.blockNumber, Number(block)),
      ),
    )
    .orderBy(asc(payoutLegs.nonce));
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

/** The signer's legs at or above a nonce, in nonce order. */
export function legsFrom(ex: Executor, signer: string, nonce: number): Promise<LegRow[]> {
  return ex
    .select()
    .from(payoutLegs)
    .where(and(eq(payoutLegs.signer, signer), gte(payoutLegs.nonce, nonce)))
    .orderBy(asc(payoutLegs.nonce));
}

/** A leg recorded as mined whose transaction the chain no longer has: in flight again. */
export async function unsettle(ex: Executor, legId: string, now: Date): Promise<void> {
  await ex
    .update(payoutLegs)
    .set({ status: 'sent', blockNumber: null, updatedAt: now })
    .where(and(eq(payoutLegs.id, legId), eq(payoutLegs.status, 'success')));
}

/**
 * Confirmed payouts of the signer with a kind whose legs were all dropped (a reorg took the paid
 * transaction back and another transaction used its nonce) and none signed again yet: unpaid.
 */
export async function confirmedWithLostKind(ex: Executor, signer: string): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await ex.execute(sql`
      select distinct p.id
        from payouts p
        join payout_legs l on l.payout_id = p.id and l.status = 'dropped' and l.signer = ${signer}
       where p.status = 'confirmed'
         and not exists (select 1 from payout_legs k where k.payout_id = p.id and k.kind = l.kind
                           and (k.status in ('success', 'signed', 'sent')
                                or (k.status = 'reverted' and k.block_number is null)))`),
  );
  return rows.map((r) => r.id);
}

/** The signer's legs in flight of payouts nobody drives any more (confirmed, reopened by a reorg). */
export async function openLegsOfClosedPayouts(ex: Executor, signer: string): Promise<LegRow[]> {
  return ex
    .select({ leg: payoutLegs })
    .from(payoutLegs)
    .innerJoin(payouts, eq(payouts.id, payoutLegs.payoutId))
    .where(
      and(
        eq(payoutLegs.signer, signer),
        inArray(payoutLegs.status, ['signed', 'sent']),
        ne(payouts.status, 'pending'),
      ),
    )
    .orderBy(asc(payoutLegs.nonce))
    .then((rows) => rows.map((r) => r.leg));
}
