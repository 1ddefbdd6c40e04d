import { and, asc, eq, gt, gte, inArray, isNull, lte } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { walletIntents, walletTxs } from '../../infra/db/schema.ts';
import { OPEN } from './transactions.repo.ts';

/**
 * What each pass of the transaction engine reads, a page at a time: the pages of the rotating
 * lists take the key to go on after (`lib/rotation.ts`), so no row waits behind others forever.
 */

/**
 * Pending intents not touched since `before`, the engine's to follow: in signer and nonce order,
 * those of signers after `afterSigner` (null: from the first), at most `limit`.
 */
export function pendingIntents(ex: Executor, before: Date, afterSigner: string | null, limit: number) {
  return ex
    .select()
    .from(walletIntents)
    .where(
      and(
        eq(walletIntents.status, 'pending'),
        lte(walletIntents.updatedAt, before),
        afterSigner === null ? undefined : gt(walletIntents.signer, afterSigner),
      ),
    )
    .orderBy(walletIntents.signer, walletIntents.nonce)
    .limit(limit);
}

/** Confirmed intents whose receipt was not yet seen final: a reorg may still take them back. */
export function unfinalIntents(ex: Executor, limit: number) {
  return ex
    .select()
    .from(walletIntents)
    .where(and(eq(walletIntents.status, 'confirmed'), eq(walletIntents.final, false)))
    .orderBy(walletIntents.blockNumber)
    .limit(limit);
}

/**
 * Signers of requests settled or changed since `since`, in order, `after` the last one a pass
 * compared (null: from the first): a reorg deeper than PAYOUT_CONFIRMATIONS can still take their
 * transactions back, so the engine compares their nonces with the chain's, `limit` a pass.
 */
export async function recentSigners(
  ex: Executor,
  since: Date,
  after: string | null,
  limit: number,
): Promise<string[]> {
  const rows = await ex
    .selectDistinct({ signer: walletIntents.signer })
    .from(walletIntents)
    .where(
      and(gte(walletIntents.updatedAt, since), after === null ? undefined : gt(walletIntents.signer, after)),
    )
    .orderBy(asc(walletIntents.signer))
    .limit(limit);
  return rows.map((r) => r.signer);
}

/**
 * Old journal rows (before intents) still open, sent again or settled like before: in hash order,
 * after `afterHash` (null: from the first), at most `limit`.
 */
export function staleOrphans(ex: Executor, before: Date, afterHash: string | null, limit: number) {
  return ex
    .select()
    .from(walletTxs)
    .where(
      and(
        isNull(walletTxs.intentId),
        inArray(walletTxs.status, [...OPEN]),
        lte(walletTxs.updatedAt, before),
        afterHash === null ? undefined : gt(walletTxs.hash, afterHash),
      ),
    )
    .orderBy(asc(walletTxs.hash))
    .limit(limit);
}

/**
 * Attempts a receipt settled (mined or reverted) since `since`, `limit` of them in order of hash
 * after `after` (null: from the first): what a reorg deeper than PAYOUT_CONFIRMATIONS may have
 * taken back (`EngineReorgs.recheckSettled`), a page at a time. Ordered by hash, not by time, so
 * that pages neither skip nor repeat an attempt while the recheck itself updates some of them.
 */
export function settledSince(ex: Executor, since: Date, after: string | null, limit: number) {
  return ex
    .select({
      hash: walletTxs.hash,
      kind: walletTxs.kind,
      blockNumber: walletTxs.blockNumber,
      gasPaidUnits: walletTxs.gasPaidUnits,
    })
    .from(walletTxs)
    .where(
      and(
        inArray(walletTxs.status, ['mined', 'reverted']),
        gte(walletTxs.updatedAt, since),
        after === null ? undefined : gt(walletTxs.hash, after),
      ),
    )
    .orderBy(asc(walletTxs.hash))
    .limit(limit);
}
