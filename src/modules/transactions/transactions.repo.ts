import { and, desc, eq, gt, gte, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { accountNonces, walletIntents, walletTxs } from '../../infra/db/schema.ts';

/**
 * The transaction engine's rows: each signer's nonce counter and lease (`account_nonces`), each
 * request (`wallet_intents`) and each signed transaction (`wallet_txs`).
 */

export type TxRow = typeof walletTxs.$inferSelect;
export type IntentRow = typeof walletIntents.$inferSelect;
/** Attempts that may still mine: recorded (maybe sent) or sent. */
const OPEN = ['signed', 'sent'] as const;

/** The signer's counter (created at 0: the chain's count raises it), locked until commit. */
export async function lockNext(ex: Executor, signer: string): Promise<number> {
  await ex.insert(accountNonces).values({ address: signer, nextNonce: 0 }).onConflictDoNothing();
  const [row] = await ex
    .select({ next: accountNonces.nextNonce })
    .from(accountNonces)
    .where(eq(accountNonces.address, signer))
    .for('update');
  if (!row) throw new Error(`No nonce counter for ${signer}.`);
  return row.next;
}

/** Nonces in [from, to) that a recorded attempt holds: waiting to mine, or mined (a reorg may undo it). */
export async function heldNonces(ex: Executor, signer: string, from: number, to: number): Promise<number[]> {
  const rows = await ex
    .select({ nonce: walletTxs.nonce })
    .from(walletTxs)
    .where(
      and(
        eq(walletTxs.signer, signer),
        inArray(walletTxs.status, [...OPEN, 'mined', 'reverted']),
        gte(walletTxs.nonce, from),
        lt(walletTxs.nonce, to),
      ),
    );
  return rows.map((r) => r.nonce);
}

export async function setNext(ex: Executor, signer: string, next: number): Promise<void> {
  await ex
    .update(accountNonces)
    .set({ nextNonce: sql`greatest(${accountNonces.nextNonce}, ${next})` })
    .where(eq(accountNonces.address, signer));
}

export async function nextOf(ex: Executor, signer: string): Promise<number | undefined> {
  const [row] = await ex
    .select({ next: accountNonces.nextNonce })
    .from(accountNonces)
    .where(eq(accountNonces.address, signer));
  return row?.next;
}

/** A refused transaction's nonce goes back when it was the last one taken. */
export async function giveBack(ex: Executor, signer: string, nonce: number): Promise<void> {
  await ex
    .update(accountNonces)
    .set({ nextNonce: nonce })
    .where(and(eq(accountNonces.address, signer), eq(accountNonces.nextNonce, nonce + 1)));
}

/**
 * Takes an account's lease for `holdMs` when it is free or lapsed (false while another action holds
 * it), timed by the database's clock: instances whose own clocks disagree still agree on when a
 * lease lapses.
 */
export async function takeLease(ex: Executor, address: string, token: string, holdMs: number) {
  await ex.insert(accountNonces).values({ address, nextNonce: 0 }).onConflictDoNothing();
  const rows = await ex
    .update(accountNonces)
    .set({ busyToken: token, busyUntil: sql`now() + ${Math.ceil(holdMs)}::int * interval '1 millisecond'` })
    .where(
      and(
        eq(accountNonces.address, address),
        or(isNull(accountNonces.busyUntil), lte(accountNonces.busyUntil, sql`now()`)),
      ),
    )
    .returning({ a: accountNonces.address });
  return rows.length > 0;
}

export async function releaseLease(ex: Executor, address: string, token: string): Promise<void> {
  await ex
    .update(accountNonces)
    .set({ busyToken: null, busyUntil: null })
    .where(and(eq(accountNonces.address, address), eq(accountNonces.busyToken, token)));
}

export async function insertIntent(ex: Executor, row: typeof walletIntents.$inferInsert): Promise<void> {
  await ex.insert(walletIntents).values(row);
}

export async function insertTx(ex: Executor, row: typeof walletTxs.$inferInsert): Promise<void> {
  await ex.insert(walletTxs).values(row);
}

/**
 * A gap filler: the same nonce and fees sign the same bytes, so a filler recorded before (one the
 * node refused, or a reorg dropped) is the same row: it is opened again instead of inserted twice.
 */
export async function insertOrReopenFiller(ex: Executor, row: typeof walletTxs.$inferInsert): Promise<void> {
  await ex
    .insert(walletTxs)
    .values(row)
    .onConflictDoUpdate({
      target: walletTxs.hash,
      set: { status: 'signed', blockNumber: null, updatedAt: row.updatedAt },
    });
}

/**
 * Under the signer's row lock (`lockNext`): the counter comes down to `to`, so gaps above every
 * nonce still held wait on nothing and need no filler the signer might not be able to pay.
 */
export async function lowerNext(ex: Executor, signer: string, to: number): Promise<void> {
  await ex
    .update(accountNonces)
    .set({ nextNonce: to })
    .where(and(eq(accountNonces.address, signer), gt(accountNonces.nextNonce, to)));
}

export async function findIntent(ex: Executor, id: string): Promise<IntentRow | undefined> {
  const [row] = await ex.select().from(walletIntents).where(eq(walletIntents.id, id));
  return row;
}

export async function lockIntent(ex: Executor, id: string): Promise<IntentRow | undefined> {
  const [row] = await ex.select().from(walletIntents).where(eq(walletIntents.id, id)).for('update');
  return row;
}

export async function intentByRequest(ex: Executor, agentId: string, requestKey: string) {
  const [row] = await ex
    .select()
    .from(walletIntents)
    .where(and(eq(walletIntents.agentId, agentId), eq(walletIntents.requestKey, requestKey)));
  return row;
}

export function intentsOf(ex: Executor, agentId: string, limit: number) {
  return ex
    .select()
    .from(walletIntents)
    .where(eq(walletIntents.agentId, agentId))
    .orderBy(desc(walletIntents.createdAt), desc(walletIntents.id))
    .limit(limit);
}

export async function updateIntent(
  ex: Executor,
  id: string,
  set: Partial<typeof walletIntents.$inferInsert>,
): Promise<void> {
  await ex.update(walletIntents).set(set).where(eq(walletIntents.id, id));
}

export async function findTx(ex: Executor, hash: string): Promise<TxRow | undefined> {
  const [row] = await ex.select().from(walletTxs).where(eq(walletTxs.hash, hash));
  return row;
}

export async function setStatus(
  ex: Executor,
  hash: string,
  status: TxRow['status'],
  at: Date,
  extra: Partial<Pick<TxRow, 'gasPaidUnits' | 'gasRefundUnits' | 'blockNumber' | 'broadcastAt'>> = {},
): Promise<TxRow | undefined> {
  const [row] = await ex
    .update(walletTxs)
    .set({ status, updatedAt: at, ...extra })
    .where(eq(walletTxs.hash, hash))
    .returning();
  return row;
}

/** The other attempts of an intent that may still mine are replaced by the one that mined. */
export async function replaceOthers(ex: Executor, intentId: string, keep: string, at: Date): Promise<void> {
  await ex
    .update(walletTxs)
    .set({ status: 'replaced', updatedAt: at })
    .where(
      and(eq(walletTxs.intentId, intentId), ne(walletTxs.hash, keep), inArray(walletTxs.status, [...OPEN])),
    );
}

/** An intent's attempts that may still mine are dropped: another transaction took their nonce for good. */
export async function dropOpen(ex: Executor, intentId: string, at: Date): Promise<void> {
  await ex
    .update(walletTxs)
    .set({ status: 'dropped', updatedAt: at })
    .where(and(eq(walletTxs.intentId, intentId), inArray(walletTxs.status, [...OPEN])));
}

export function attemptsOf(ex: Executor, intentIds: string[]) {
  if (intentIds.length === 0) return Promise.resolve([] as TxRow[]);
  return ex
    .select()
    .from(walletTxs)
    .where(inArray(walletTxs.intentId, intentIds))
    .orderBy(walletTxs.createdAt);
}

/** Pending intents not touched since `before`: the engine's to follow. */
export function pendingIntents(ex: Executor, before: Date, limit: number) {
  return ex
    .select()
    .from(walletIntents)
    .where(and(eq(walletIntents.status, 'pending'), lte(walletIntents.updatedAt, before)))
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
 * Signers of requests settled or changed since `since`: a reorg deeper than PAYOUT_CONFIRMATIONS
 * can still take their transactions back, so the engine compares their nonces with the chain's.
 */
export async function recentSigners(ex: Executor, since: Date, limit: number): Promise<string[]> {
  const rows = await ex
    .selectDistinct({ signer: walletIntents.signer })
    .from(walletIntents)
    .where(gte(walletIntents.updatedAt, since))
    .limit(limit);
  return rows.map((r) => r.signer);
}

/** A signer's attempts at nonces in [from, to) that a receipt settled (mined or reverted). */
export function settledAttemptsAt(ex: Executor, signer: string, from: number, to: number) {
  return ex
    .select()
    .from(walletTxs)
    .where(
      and(
        eq(walletTxs.signer, signer),
        inArray(walletTxs.status, ['mined', 'reverted']),
        gte(walletTxs.nonce, from),
        lt(walletTxs.nonce, to),
      ),
    );
}

/** Old journal rows (before intents) still open: sent again or settled like before. */
export function staleOrphans(ex: Executor, before: Date, limit: number) {
  return ex
    .select()
    .from(walletTxs)
    .where(
      and(isNull(walletTxs.intentId), inArray(walletTxs.status, [...OPEN]), lte(walletTxs.updatedAt, before)),
    )
    .limit(limit);
}

/** An agent's requests of `kind` since `since` that count against the kind's quota. */
export async function countedSince(
  ex: Executor,
  agentId: string,
  kind: string,
  since: Date,
): Promise<number> {
  const [row] = await ex
    .select({ n: sql<string>`count(*)` })
    .from(walletIntents)
    .where(
      and(
        eq(walletIntents.agentId, agentId),
        eq(walletIntents.kind, kind),
        eq(walletIntents.counted, true),
        gte(walletIntents.createdAt, since),
      ),
    );
  return Number(row?.n ?? 0);
}
