import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';
import type { AttemptRow, LegRow, PayoutRow } from './payouts.repo.ts';
import { type InFlightLeg, inFlightSql, parseInFlight } from './reservation.repo.ts';

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const num = (v: bigint) => sql`${v.toString()}::numeric`;

/**
 * The second statement of a first approval's signing transaction, run once the wallet's funds
 * lock is held (`lockFunds`, the first). Locks the submission and renews the bounty's approval
 * lease while `lease.owner` still holds it; only then, while the submission is pending: records the
 * payout (the intent) and takes a nonce from the signer's counter, whose row lock serializes
 * allocation across instances until commit. A submission reviewed meanwhile records the payout as
 * failed instead. Reads, in the same statement (its snapshot is taken after the funds lock), the
 * wallet's other legs in flight for the funds check.
 *
 * `status` is null when nothing was recorded: the submission already has a payout (another
 * approval got there first) or, with `leased` false, the lease is no longer ours. `nonce` is null
 * when nothing was allocated (not pending, or no counter for the signer yet).
 */
export async function recordAndReserve(
  ex: Executor,
  p: PayoutRow,
  signer: string,
  lease: { owner: string; until: Date },
): Promise<{
  status: 'pending' | 'failed' | null;
  leased: boolean;
  nonce: number | null;
  inFlight: InFlightLeg[];
}> {
  const [row] = rowsOf<{
    status: 'pending' | 'failed' | null;
    leased: boolean;
    nonce: string | number | null;
    inFlight: unknown;
  }>(
    await ex.execute(sql`
      with sub as (
        select status from submissions where id = ${p.submissionId} for update
      ), leased as (
        -- After the submission's lock, the order a reject takes them in too.
        update bounties set approval_lease_until = ${at(lease.until)}
         where id = ${p.bountyId} and status = 'in_review' and approval_lease_owner = ${lease.owner}
           and exists (select 1 from sub)
        returning id
      ), recorded as (
        insert into payouts (id, submission_id, bounty_id, token_address, from_address,
                             contributor_address, treasury_address, reward_units, contributor_units,
                             fee_units, review_notes, status, last_error, created_at, updated_at)
        select ${p.id}, ${p.submissionId}, ${p.bountyId}, ${p.tokenAddress}, ${p.fromAddress},
               ${p.contributorAddress}, ${p.treasuryAddress}, ${num(p.rewardUnits)},
               ${num(p.contributorUnits)}, ${num(p.feeUnits)}, ${p.reviewNotes},
               case when sub.status = 'pending' then 'pending' else 'failed' end,
               case when sub.status = 'pending' then null else 'the submission is no longer pending' end,
               ${at(p.createdAt)}, ${at(p.updatedAt)}
          from sub
         -- A submission reviewed meanwhile is recorded failed whoever holds the lease.
         where exists (select 1 from leased) or sub.status <> 'pending'
        on conflict (submission_id) do nothing
        returning status
      ), nonces as (
        update signer_nonces set next_nonce = next_nonce + 1
         where address = ${signer} and exists (select 1 from recorded where status = 'pending')
        returning next_nonce - 1 as nonce
      )
      select (select status from recorded) as status, exists (select 1 from leased) as leased,
             (select nonce from nonces) as nonce,
             (${inFlightSql(p.tokenAddress, p.fromAddress, p.submissionId)}) as "inFlight"`),
  );
  return {
    status: row?.status ?? null,
    leased: row?.leased === true,
    nonce: row?.nonce === null || row?.nonce === undefined ? null : Number(row.nonce),
    inFlight: parseInFlight(row?.inFlight),
  };
}

/** Stores the signed legs and their first attempts in one statement (before any broadcast). */
export async function insertSignedLegs(
  ex: Executor,
  legs: { leg: LegRow; attempt: AttemptRow }[],
): Promise<void> {
  const legValues = legs.map(
    ({ leg: l }) =>
      sql`(${l.id}, ${l.payoutId}, ${l.kind}, ${l.signer}, ${l.nonce}, ${l.toAddress}, ${num(l.amountUnits)},
           ${l.status}, null, null, ${at(l.createdAt)}, ${at(l.updatedAt)})`,
  );
  const attemptValues = legs.map(
    ({ attempt: a }) =>
      sql`(${a.txHash}, ${a.legId}, ${a.rawTx}, ${num(a.maxFeePerGas)}, ${num(a.maxPriorityFeePerGas)},
           ${at(a.createdAt)}, null::timestamptz)`,
  );
  await ex.execute(sql`
    with legs as (
      insert into payout_legs (id, payout_id, kind, signer, nonce, to_address, amount_units, status,
                               tx_hash, block_number, created_at, updated_at)
      values ${sql.join(legValues, sql`, `)}
      returning id
    )
    insert into leg_attempts (tx_hash, leg_id, raw_tx, max_fee_per_gas, max_priority_fee_per_gas,
                              created_at, broadcast_at)
    values ${sql.join(attemptValues, sql`, `)}`);
}

/** Marks legs broadcast (and their attempts' broadcast time) in one statement. */
export async function markSent(
  ex: Executor,
  legs: { legId: string; txHash: string }[],
  now: Date,
): Promise<void> {
  await ex.execute(sql`
    with sent as (
      update leg_attempts set broadcast_at = ${at(now)}
       where tx_hash in (${sql.join(
         legs.map((l) => sql`${l.txHash}`),
         sql`, `,
       )}) and broadcast_at is null
      returning tx_hash
    )
    update payout_legs set status = 'sent', updated_at = ${at(now)}
     where id in (${sql.join(
       legs.map((l) => sql`${l.legId}`),
       sql`, `,
     )}) and status = 'signed'`);
}
