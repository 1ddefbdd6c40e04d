import { and, eq, gt, gte, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';
import { accountNonces, walletTxs } from '../../infra/db/schema.ts';
import { OPEN } from './transactions.repo.ts';

/**
 * Each signer's nonce counter and lease (`account_nonces`): the counter is taken under its row
 * lock in the transaction that records the signed transaction, so two instances never sign one
 * nonce twice; the lease lets one action of an account run at a time on every instance.
 */

/**
 * The signer's counter (created at 0: the chain's count raises it), locked until commit: one
 * statement (an upsert that touches the row takes its lock whether it inserted it or not).
 */
export async function lockNext(ex: Executor, signer: string): Promise<number> {
  const [row] = rowsOf<{ next: string | number }>(
    await ex.execute(sql`
      insert into account_nonces (address, next_nonce) values (${signer}, 0)
      on conflict (address) do update set address = excluded.address
      returning next_nonce as next`),
  );
  if (!row) throw new Error(`No nonce counter for ${signer}.`);
  return Number(row.next);
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
