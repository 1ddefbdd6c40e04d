import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../src/infra/db/client.ts';
import { legAttempts, payoutLegs, payouts } from '../../src/infra/db/schema.ts';

/** The legs of the payout of a submission (or of a bounty's payouts), in nonce order. */
export async function payoutLegsOf(db: Db, of: { submissionId: string } | { bountyId: string }) {
  const where =
    'submissionId' in of ? eq(payouts.submissionId, of.submissionId) : eq(payouts.bountyId, of.bountyId);
  const rows = await db
    .select({ leg: payoutLegs })
    .from(payoutLegs)
    .innerJoin(payouts, eq(payouts.id, payoutLegs.payoutId))
    .where(where)
    .orderBy(asc(payoutLegs.nonce));
  return rows.map((r) => r.leg);
}

/** The stored attempts of these legs; `inOrder`: oldest first, then by fee. */
export async function attemptsOfLegs(db: Db, legIds: string[], inOrder = false) {
  if (legIds.length === 0) return [];
  const query = db.select().from(legAttempts).where(inArray(legAttempts.legId, legIds));
  return inOrder
    ? await query.orderBy(asc(legAttempts.createdAt), asc(legAttempts.maxFeePerGas))
    : await query;
}
