import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';

/**
 * A leg of another payout from the same founder wallet on the same token that may still move
 * tokens: what the wallet is about to send, beside the payout being signed.
 */
export interface InFlightLeg {
  legId: string;
  /** Everything the leg moves from the founder (a router call: reward minus fee, plus the fee). */
  units: bigint;
  /** Every attempt's hash: one of them may have mined already. */
  hashes: string[];
}

interface InFlightRaw {
  legId: string;
  units: string;
  hashes: string[] | null;
}

/**
 * Locks the (token, founder wallet) row for the rest of the transaction, creating it the first
 * time: every payout signing of this wallet and token, on every instance, waits here, so the
 * in-flight read that follows (a new statement, a new snapshot) sees all the others' legs.
 */
export async function lockFunds(ex: Executor, tokenAddress: string, fromAddress: string): Promise<void> {
  await ex.execute(sql`
    insert into payout_funds_locks (token_address, from_address) values (${tokenAddress}, ${fromAddress})
    on conflict (token_address, from_address) do update set token_address = excluded.token_address`);
}

/**
 * The SQL of the in-flight transactions (the transaction engine's pending intents of the payout
 * key) of a wallet and token, except those of one submission's payout.
 */
export const inFlightSql = (tokenAddress: string, fromAddress: string, exceptSubmissionId: string) => sql`
  select coalesce(json_agg(json_build_object(
           'legId', i.id,
           'units', (case i.kind when 'payout' then p.reward_units when 'payout_fee' then p.fee_units
                                 else p.contributor_units end)::text,
           'hashes', (select array_agg(t.hash) from wallet_txs t
                       where t.intent_id = i.id and t.kind <> 'nonce_filler'))), '[]'::json)
    from wallet_intents i
    join payouts p on p.id = i.payout_id
   where p.token_address = ${tokenAddress} and p.from_address = ${fromAddress}
     and p.submission_id <> ${exceptSubmissionId}
     and i.status = 'pending'`;

export const parseInFlight = (raw: unknown): InFlightLeg[] =>
  (((typeof raw === 'string' ? JSON.parse(raw) : raw) as InFlightRaw[] | null) ?? []).map((r) => ({
    legId: r.legId,
    units: BigInt(r.units),
    hashes: r.hashes ?? [],
  }));

/** The in-flight legs of a wallet and token (call after `lockFunds`, in the same transaction). */
export async function inFlight(
  ex: Executor,
  tokenAddress: string,
  fromAddress: string,
  exceptSubmissionId: string,
): Promise<InFlightLeg[]> {
  const [row] = rowsOf<{ legs: unknown }>(
    await ex.execute(sql`select (${inFlightSql(tokenAddress, fromAddress, exceptSubmissionId)}) as legs`),
  );
  return parseInFlight(row?.legs);
}
