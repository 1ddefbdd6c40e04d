import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { signerNonces } from '../../infra/db/schema.ts';

/**
 * The payout signers' nonce counters (`signer_nonces`): seeded from the chain once, then owned by
 * the database; taken inside the transaction that stores the signed transaction.
 */

/** Seeds a signer's nonce counter from the chain the first time the signer is used. */
export async function seedNonce(ex: Executor, address: string, chainNonce: number): Promise<void> {
  await ex.insert(signerNonces).values({ address, nextNonce: chainNonce }).onConflictDoNothing();
}

/** Takes the next nonce. The row lock serializes allocation across instances until commit. */
export async function allocateNonce(ex: Executor, address: string): Promise<number> {
  const [row] = await ex
    .update(signerNonces)
    .set({ nextNonce: sql`${signerNonces.nextNonce} + 1` })
    .where(eq(signerNonces.address, address))
    .returning({ nonce: sql<string>`${signerNonces.nextNonce} - 1` });
  if (!row) throw new Error(`No nonce counter for signer ${address}.`);
  return Number(row.nonce);
}

export async function hasNonceCounter(ex: Executor, address: string): Promise<boolean> {
  const [row] = await ex
    .select({ a: signerNonces.address })
    .from(signerNonces)
    .where(eq(signerNonces.address, address));
  return row !== undefined;
}

export async function nextNonceOf(ex: Executor, address: string): Promise<number | undefined> {
  const [row] = await ex
    .select({ next: signerNonces.nextNonce })
    .from(signerNonces)
    .where(eq(signerNonces.address, address));
  return row?.next;
}

/** Raises the signer's counter to at least `nonce` (the chain's), never lowers it. */
export async function raiseNonce(ex: Executor, address: string, nonce: number): Promise<void> {
  await ex
    .update(signerNonces)
    .set({ nextNonce: sql`greatest(${signerNonces.nextNonce}, ${nonce})` })
    .where(eq(signerNonces.address, address));
}
