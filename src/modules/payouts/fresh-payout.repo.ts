import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';
import type { PayoutRow } from './payouts.repo.ts';
import { type InFlightLeg, inFlightSql, parseInFlight } from './reservation.repo.ts';

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const num = (v: bigint) => sql`${v.toString()}::numeric`;

/**
 * The fourth statement of a first approval's signing transaction, run with the wallet's funds lock
 * and the submission's row lock held and the bounty's lease renewed (or the submission no longer
 * pending): records the payout (the intent), as failed when the submission was reviewed meanwhile,
 * and reads, in the same statement (its snapshot is taken after the funds lock), the wallet's other
 * payout transactions in flight for the funds check.
 *
 * `status` is null when nothing was recorded: the submission already has a payout (another
 * approval got there first).
 */
export async function recordAndReserve(
  ex: Executor,
  p: PayoutRow,
  submissionPending: boolean,
): Promise<{ status: 'pending' | 'failed' | null; inFlight: InFlightLeg[] }> {
  const status = submissionPending ? 'pending' : 'failed';
  const lastError = submissionPending ? null : 'the submission is no longer pending';
  const [row] = rowsOf<{ status: 'pending' | 'failed' | null; inFlight: unknown }>(
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
      )
      select (select status from recorded) as status,
             (${inFlightSql(p.tokenAddress, p.fromAddress, p.submissionId)}) as "inFlight"`),
  );
  return { status: row?.status ?? null, inFlight: parseInFlight(row?.inFlight) };
}

/**
 * Confirms a pending (or failed) payout whose transaction the engine's journal settled as mined,
 * in the approval's finishing transaction; true when this call confirmed it (a second finisher
 * changes nothing).
 */
export async function confirmPaid(ex: Executor, payoutId: string, now: Date): Promise<boolean> {
  const rows = rowsOf<{ id: string }>(
    await ex.execute(sql`
      update payouts set status = 'confirmed', last_error = null, updated_at = ${at(now)}
       where id = ${payoutId} and status in ('pending', 'failed')
      returning id`),
  );
  return rows.length > 0;
}
