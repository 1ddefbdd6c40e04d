import { type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';
import type { AttemptRow, LegRow, PayoutRow } from './payouts.repo.ts';
import type { PaidLeg } from './payouts.types.ts';
import { type InFlightLeg, inFlightSql, parseInFlight } from './reservation.repo.ts';

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const num = (v: bigint) => sql`${v.toString()}::numeric`;

/**
 * The fourth statement of a first approval's signing transaction, run with the wallet's funds lock
 * and the submission's row lock held and the bounty's lease renewed (or the submission no longer
 * pending): records the payout (the intent), as failed when the submission was reviewed meanwhile,
 * and takes a nonce from the signer's counter, whose row lock serializes allocation across
 * instances until commit. Reads, in the same statement (its snapshot is taken after the funds
 * lock), the wallet's other legs in flight for the funds check.
 *
 * `status` is null when nothing was recorded: the submission already has a payout (another
 * approval got there first). `nonce` is null when nothing was allocated (recorded failed, or no
 * counter for the signer yet).
 */
export async function recordAndReserve(
  ex: Executor,
  p: PayoutRow,
  signer: string,
  submissionPending: boolean,
): Promise<{ status: 'pending' | 'failed' | null; nonce: number | null; inFlight: InFlightLeg[] }> {
  const status = submissionPending ? 'pending' : 'failed';
  const lastError = submissionPending ? null : 'the submission is no longer pending';
  const [row] = rowsOf<{
    status: 'pending' | 'failed' | null;
    nonce: string | number | null;
    inFlight: unknown;
  }>(
    await ex.execute(sql`
      with recorded as (
        insert into payouts (id, submission_id, bounty_id, token_address, from_address,
                             contributor_address, treasury_address, reward_units, contributor_units,
                             fee_units, review_notes, status, last_error, created_at, updated_at)
        values (${p.id}, ${p.submissionId}, ${p.bountyId}, ${p.tokenAddress}, ${p.fromAddress},
                ${p.contributorAddress}, ${p.treasuryAddress}, ${num(p.rewardUnits)},
                ${num(p.contributorUnits)}, ${num(p.feeUnits)}, ${p.reviewNotes}, ${status}, ${lastError},
                ${at(p.createdAt)}, ${at(p.updatedAt)})
        on conflict (submission_id) do nothing
        returning status
      ), nonces as (
        update signer_nonces set next_nonce = next_nonce + 1
         where address = ${signer} and exists (select 1 from recorded where status = 'pending')
        returning next_nonce - 1 as nonce
      )
      select (select status from recorded) as status, (select nonce from nonces) as nonce,
             (${inFlightSql(p.tokenAddress, p.fromAddress, p.submissionId)}) as "inFlight"`),
  );
  return {
    status: row?.status ?? null,
    nonce: row?.nonce === null || row?.nonce === undefined ? null : Number(row.nonce),
    inFlight: parseInFlight(row?.inFlight),
  };
}

/**
 * Confirms a pending (or failed) payout, first recording the legs the caller saw mine itself (the
 * fast path read their receipts): each leg's block, and its attempt's broadcast. One statement, in
 * the approval's finishing transaction. The legs are recorded whether or not this call confirms
 * the payout; true when it did (a second finisher changes nothing else).
 */
export async function confirmPaid(
  ex: Executor,
  payoutId: string,
  legs: PaidLeg[],
  now: Date,
): Promise<boolean> {
  const settle: SQL =
    legs.length === 0
      ? sql``
      : sql`settled as (
          update payout_legs l
             set status = 'success', tx_hash = v.tx_hash, block_number = v.block_number::bigint,
                 updated_at = ${at(now)}
            from (values ${sql.join(
              legs.map((l) => sql`(${l.legId}, ${l.txHash}, ${l.blockNumber.toString()})`),
              sql`, `,
            )}) as v(id, tx_hash, block_number)
           where l.id = v.id and l.status in ('signed', 'sent')
          returning l.id),
        sent as (
          update leg_attempts set broadcast_at = ${at(now)}
           where tx_hash in (${sql.join(
             legs.map((l) => sql`${l.txHash}`),
             sql`, `,
           )}) and broadcast_at is null
          returning tx_hash),`;
  const [row] = rowsOf<{ confirmed: boolean }>(
    await ex.execute(sql`
      with ${settle}
      paid as (
        update payouts set status = 'confirmed', last_error = null, updated_at = ${at(now)}
         where id = ${payoutId} and status in ('pending', 'failed')
        returning id)
      select exists (select 1 from paid) as confirmed`),
  );
  return row?.confirmed === true;
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
