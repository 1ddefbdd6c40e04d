import { and, eq, gt, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { walletIntents, walletTxs } from '../../infra/db/schema.ts';

/**
 * The transaction engine's rows: each signer's nonce counter and lease (`account_nonces`), each
 * request (`wallet_intents`) and each signed transaction (`wallet_txs`).
 */

export type TxRow = typeof walletTxs.$inferSelect;
export type IntentRow = typeof walletIntents.$inferSelect;
// The reads the wallet's API shows, compiled once: intent-reads.repo.ts.
export { findIntent, intentsOf } from './intent-reads.repo.ts';

/** Attempts that may still mine: recorded (maybe sent) or sent. */
/** An attempt's statuses while it may still mine: recorded (`signed`) or taken by the node (`sent`). */
export const OPEN = ['signed', 'sent'] as const;
/** True while an attempt with this status may still mine (`OPEN`). */
export const isOpen = (status: string): boolean => (OPEN as readonly string[]).includes(status);

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const num = (v: bigint | null | undefined) =>
  v === null || v === undefined ? sql`null` : sql`${v.toString()}::numeric`;

/**
 * A request's intent, its first signed attempt and the signer's counter past its nonce, in one
 * statement (under the counter's lock, `lockNext`), before anything is sent.
 */
export async function insertSigned(
  ex: Executor,
  i: typeof walletIntents.$inferInsert,
  t: typeof walletTxs.$inferInsert,
): Promise<void> {
  await ex.execute(sql`
    with intent as (
      insert into wallet_intents (id, agent_id, payout_id, request_key, kind, project_id, holder, signer,
                                  nonce, to_address, data, value_units, gas, tx_hash, created_at, updated_at)
      values (${i.id}, ${i.agentId ?? null}, ${i.payoutId ?? null}, ${i.requestKey ?? null}, ${i.kind},
              ${i.projectId ?? null}, ${i.holder}, ${i.signer}, ${i.nonce}, ${i.toAddress}, ${i.data},
              ${num(i.valueUnits)}, ${num(i.gas)}, ${i.txHash ?? null}, ${at(i.createdAt)}, ${at(i.updatedAt)})
      returning id
    ), attempt as (
      insert into wallet_txs (hash, signer, nonce, raw, kind, agent_id, project_id, intent_id,
                              max_fee_per_gas, max_priority_fee_per_gas, created_at, updated_at)
      select ${t.hash}, ${t.signer}, ${t.nonce}, ${t.raw}, ${t.kind}, ${t.agentId ?? null},
             ${t.projectId ?? null}, intent.id, ${num(t.maxFeePerGas)}, ${num(t.maxPriorityFeePerGas)},
             ${at(t.createdAt)}, ${at(t.updatedAt)}
        from intent
      returning hash
    )
    update account_nonces set next_nonce = greatest(next_nonce, ${i.nonce + 1})
     where address = ${i.signer} and exists (select 1 from attempt)`);
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

/**
 * An open attempt (signed or sent) moved on by the node's answer to its broadcast: `sent` when the
 * node accepted it, `failed` when it refused it. Only while it is still open: an answer that comes
 * late, after the attempt was settled (mined, or dropped because another transaction took its
 * nonce) by this instance or another, never reopens or fails it. A reopened attempt under a
 * settled request is followed by nothing and holds its signer's nonce open for good
 * (wallets-interleave, seed 1941262689). The row when it moved, else undefined.
 */
export async function answerOpen(
  ex: Executor,
  hash: string,
  status: 'sent' | 'failed',
  at: Date,
  extra: Partial<Pick<TxRow, 'broadcastAt'>> = {},
): Promise<TxRow | undefined> {
  const [row] = await ex
    .update(walletTxs)
    .set({ status, updatedAt: at, ...extra })
    .where(and(eq(walletTxs.hash, hash), inArray(walletTxs.status, [...OPEN])))
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

/** The intents of these payouts (the payout key's transactions), oldest first. */
export function intentsOfPayouts(ex: Executor, payoutIds: string[]) {
  if (payoutIds.length === 0) return Promise.resolve([] as IntentRow[]);
  return ex
    .select()
    .from(walletIntents)
    .where(inArray(walletIntents.payoutId, payoutIds))
    .orderBy(walletIntents.createdAt, walletIntents.nonce);
}

/**
 * Intents recorded without their call (a migration from signed bytes only): to, data, gas to read
 * back. In id order, those after `afterId` (null: from the first), at most `limit`.
 */
export function intentsWithoutCall(ex: Executor, afterId: string | null, limit: number) {
  return ex
    .select()
    .from(walletIntents)
    .where(and(eq(walletIntents.data, ''), afterId === null ? undefined : gt(walletIntents.id, afterId)))
    .orderBy(walletIntents.id)
    .limit(limit);
}

/** Another request for the same payout and kind that may still move (or has moved) its tokens. */
export async function liveSiblingOf(ex: Executor, intent: IntentRow): Promise<boolean> {
  if (!intent.payoutId) return false;
  const [row] = await ex
    .select({ id: walletIntents.id })
    .from(walletIntents)
    .where(
      and(
        eq(walletIntents.payoutId, intent.payoutId),
        eq(walletIntents.kind, intent.kind),
        ne(walletIntents.id, intent.id),
        ne(walletIntents.status, 'failed'),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Confirms, in one statement, the agentless request (the payout key's) whose attempt `hash` mined
 * successfully: the intent row first (only while pending), then its attempts (this one mined, any
 * other still open replaced). Nothing when it is settled already.
 */
export async function settleMined(
  ex: Executor,
  hash: string,
  r: { blockNumber: bigint; gasPaidUnits: bigint },
  now: Date,
): Promise<void> {
  await ex.execute(sql`
    with i as (
      update wallet_intents
         set status = 'confirmed', tx_hash = ${hash}, block_number = ${r.blockNumber.toString()}::bigint,
             result = ${JSON.stringify({ tx_hash: hash })}::jsonb, error_code = null, error_message = null,
             updated_at = ${now.toISOString()}::timestamptz
       where id = (select intent_id from wallet_txs where hash = ${hash} and kind <> 'nonce_filler')
         and agent_id is null and status = 'pending'
      returning id)
    update wallet_txs
       set status = case when hash = ${hash} then 'mined' else 'replaced' end,
           block_number = case when hash = ${hash} then ${r.blockNumber.toString()}::bigint else block_number end,
           gas_paid_units = case when hash = ${hash} then ${r.gasPaidUnits.toString()}::numeric else gas_paid_units end,
           updated_at = ${now.toISOString()}::timestamptz
     where intent_id in (select id from i) and (hash = ${hash} or status in ('signed', 'sent'))`);
}
