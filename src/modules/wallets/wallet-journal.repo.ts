import { and, eq, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { accountNonces, walletTxs } from '../../infra/db/schema.ts';

export type WalletTxRow = typeof walletTxs.$inferSelect;
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

/** Nonces in [from, to) that a recorded transaction holds: waiting to mine, or mined (a reorg may undo it). */
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

export async function insertTx(ex: Executor, row: typeof walletTxs.$inferInsert): Promise<void> {
  await ex.insert(walletTxs).values(row);
}

export async function setStatus(
  ex: Executor,
  hash: string,
  status: WalletTxRow['status'],
  at: Date,
  extra: { gasPaidUnits?: bigint; gasRefundUnits?: bigint } = {},
): Promise<WalletTxRow | undefined> {
  const [row] = await ex
    .update(walletTxs)
    .set({ status, updatedAt: at, ...extra })
    .where(eq(walletTxs.hash, hash))
    .returning();
  return row;
}

/** A refused transaction's nonce goes back when it was the last one taken. */
export async function giveBack(ex: Executor, signer: string, nonce: number): Promise<void> {
  await ex
    .update(accountNonces)
    .set({ nextNonce: nonce })
    .where(and(eq(accountNonces.address, signer), eq(accountNonces.nextNonce, nonce + 1)));
}

/** Recorded transactions not known to have mined, last touched before `before`: the reconciler's. */
export function stale(ex: Executor, before: Date, limit: number) {
  return ex
    .select()
    .from(walletTxs)
    .where(and(inArray(walletTxs.status, [...OPEN]), lte(walletTxs.updatedAt, before)))
    .orderBy(walletTxs.signer, walletTxs.nonce)
    .limit(limit);
}

/** Sponsored token withdraws of an agent since `since` that were not refused or dropped. */
export async function sponsoredWithdrawsSince(ex: Executor, agentId: string, since: Date): Promise<number> {
  const [row] = await ex
    .select({ n: sql<string>`count(*)` })
    .from(walletTxs)
    .where(
      and(
        eq(walletTxs.agentId, agentId),
        eq(walletTxs.kind, 'sponsored_withdraw'),
        gte(walletTxs.createdAt, since),
        inArray(walletTxs.status, ['signed', 'sent', 'mined', 'reverted']),
      ),
    );
  return Number(row?.n ?? 0);
}
