import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../src/infra/db/client.ts';
import { payouts, walletIntents, walletTxs } from '../../src/infra/db/schema.ts';
import { newId } from '../../src/lib/ids.ts';
import { legOf, type PayoutLeg } from '../../src/modules/payouts/payout-legs.ts';

/**
 * A payout's transactions are the transaction engine's intents of the payout key (`wallet_intents`
 * with `payout_id`), each with its signed attempts (`wallet_txs`). These read them as the payout
 * rules do (`legOf`): one leg per intent, in the order they were signed.
 */

/** The legs of the payout of a submission (or of a bounty's payouts), in the order they were signed. */
export async function payoutLegsOf(
  db: Db,
  of: { submissionId: string } | { bountyId: string },
): Promise<PayoutLeg[]> {
  const where =
    'submissionId' in of ? eq(payouts.submissionId, of.submissionId) : eq(payouts.bountyId, of.bountyId);
  const rows = await db
    .select({ intent: walletIntents })
    .from(walletIntents)
    .innerJoin(payouts, eq(payouts.id, walletIntents.payoutId))
    .where(where)
    .orderBy(asc(walletIntents.createdAt), asc(walletIntents.nonce));
  const intents = rows.map((r) => r.intent);
  const attempts = await attemptRowsOf(
    db,
    intents.map((i) => i.id),
  );
  return intents.map((i) =>
    legOf(
      i,
      attempts.filter((a) => a.intentId === i.id),
    ),
  );
}

async function attemptRowsOf(db: Db, intentIds: string[]) {
  if (intentIds.length === 0) return [];
  return db
    .select()
    .from(walletTxs)
    .where(inArray(walletTxs.intentId, intentIds))
    .orderBy(asc(walletTxs.createdAt), asc(walletTxs.maxFeePerGas));
}

/** A leg's signed attempt: its hash, bytes and fees, and when it was first sent. */
export interface LegAttempt {
  txHash: string;
  legId: string;
  rawTx: string;
  kind: string;
  status: string;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  createdAt: Date;
  broadcastAt: Date | null;
}

/** The stored attempts of these legs (cancels included, by their kind), oldest first, then by fee. */
export async function attemptsOfLegs(db: Db, legIds: string[], _inOrder = false): Promise<LegAttempt[]> {
  return (await attemptRowsOf(db, legIds)).map((a) => ({
    txHash: a.hash,
    legId: a.intentId as string,
    rawTx: a.raw,
    kind: a.kind,
    status: a.status,
    maxFeePerGas: a.maxFeePerGas ?? 0n,
    maxPriorityFeePerGas: a.maxPriorityFeePerGas ?? 0n,
    createdAt: a.createdAt,
    broadcastAt: a.broadcastAt,
  }));
}

type IntentRow = typeof walletIntents.$inferSelect;

/** The payout of a paid bounty and the request (intent) that paid it. */
export async function payoutRequestOf(db: Db, bountyId: string) {
  const [payout] = await db.select().from(payouts).where(eq(payouts.bountyId, bountyId));
  const [request] = payout
    ? await db.select().from(walletIntents).where(eq(walletIntents.payoutId, payout.id))
    : [];
  if (!payout || !request) throw new Error(`bounty ${bountyId} has no payout request`);
  return { payout, request };
}

/**
 * Another request made from `like` (a payout's): a new id, of no payout, not yet sent, at `now`,
 * with `over` on top (its signer, nonce, status ...).
 */
export function requestLike(like: IntentRow, now: Date, over: Partial<IntentRow> = {}): IntentRow {
  return {
    ...like,
    id: newId('walletTx'),
    payoutId: null,
    txHash: null,
    blockNumber: null,
    result: null,
    told: null,
    createdAt: now,
    updatedAt: now,
    ...over,
  };
}
