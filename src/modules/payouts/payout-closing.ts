import type { Executor } from '../../infra/db/client.ts';
import { isLive, legsOf, type PayoutLeg } from './payout-legs.ts';
import * as repo from './payouts.repo.ts';
import type { DriverDeps } from './payouts.types.ts';

/** Closing a payout that will not be paid: a reject, or a payout whose submission was reviewed. */

type ClosingDeps = Pick<DriverDeps, 'db' | 'clock' | 'journal'>;

/**
 * Gives up an unfinished payout none of whose legs was signed, so nothing will ever sign one;
 * false (and nothing changed) when a leg exists, since that leg may move the tokens.
 */
export async function abandon(deps: ClosingDeps, payoutId: string, reason: string): Promise<boolean> {
  const { db, clock } = deps;
  return db.transaction(async (tx) => {
    // Signing holds this lock while it stores legs: they are either seen here or never signed.
    if ((await repo.lockById(tx, payoutId))?.status !== 'pending') return false;
    if ((await legsOf(deps, tx, payoutId)).length > 0) return false;
    return repo.setStatus(tx, payoutId, ['pending'], 'failed', reason, clock.now());
  });
}

/**
 * For a reject, inside its transaction, under the payout's row lock (signing takes it too, so no
 * leg appears meanwhile): 'paying' while a leg may still move tokens or has paid. Otherwise
 * closes the submission's payout so nothing is signed for it afterwards, and says whether (a
 * payout signed before the router) its contributor transfer reverted while its fee mined: such
 * a payout never wedges the bounty.
 */
export async function closeForReject(
  deps: ClosingDeps,
  tx: Executor,
  submissionId: string,
): Promise<'closed' | 'contributor_failed' | 'paying'> {
  const payout = await repo.lockBySubmission(tx, submissionId);
  if (!payout) return 'closed';
  const legs = await legsOf(deps, tx, payout.id);
  const contributor = legs.filter((l) => l.kind === 'contributor');
  const contributorFailed = contributor.length > 0 && !contributor.some(isLive);
  const settledFee = (l: PayoutLeg) => contributorFailed && l.kind === 'fee' && l.status === 'success';
  if (legs.some((l) => isLive(l) && !settledFee(l))) return 'paying';
  await repo.setStatus(
    tx,
    payout.id,
    ['pending', 'failed'],
    'failed',
    'submission rejected',
    deps.clock.now(),
  );
  return contributorFailed ? 'contributor_failed' : 'closed';
}
