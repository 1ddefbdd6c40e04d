import { and, asc, eq, gt, gte, inArray, isNull, ne, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';
import { payoutLegs, payouts } from '../../infra/db/schema.ts';
import type { LegRow } from './payouts.repo.ts';

/**
 * What ledger repair asks of the payout tables: legs a reorg or a lost node state may have taken
 * back, and the payouts they leave unpaid.
 */

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

/** A mined leg seen again in another block (a reorg that re-included it): its new place. */
export async function moveLeg(ex: Executor, legId: string, blockNumber: bigint, now: Date): Promise<void> {
  await ex
    .update(payoutLegs)
    .set({ blockNumber: Number(blockNumber), updatedAt: now })
    .where(and(eq(payoutLegs.id, legId), eq(payoutLegs.status, 'success')));
}

/**
 * Confirmed payouts of the signer with a kind whose legs were all dropped (a reorg took the paid
 * transaction back and another transaction used its nonce) and none signed again yet: unpaid.
 */
export async function confirmedWithLostKind(
  ex: Executor,
  signer: string,
  finalAt: bigint,
): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await ex.execute(sql`
      select distinct p.id
        from payouts p
        join payout_legs l on l.payout_id = p.id and l.signer = ${signer}
         and (l.status = 'dropped'
              or (l.status = 'reverted' and l.block_number is not null
                  and l.block_number <= ${finalAt.toString()}::bigint))
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

/** A leg recorded as mined whose transaction the chain no longer has: in flight again. */
export async function unsettle(ex: Executor, legId: string, now: Date): Promise<void> {
  await ex
    .update(payoutLegs)
    .set({ status: 'sent', blockNumber: null, updatedAt: now })
    .where(and(eq(payoutLegs.id, legId), eq(payoutLegs.status, 'success')));
}

/** The signer's legs at or above a nonce, in nonce order. */
export function legsFrom(ex: Executor, signer: string, nonce: number): Promise<LegRow[]> {
  return ex
    .select()
    .from(payoutLegs)
    .where(and(eq(payoutLegs.signer, signer), gte(payoutLegs.nonce, nonce)))
    .orderBy(asc(payoutLegs.nonce));
}
