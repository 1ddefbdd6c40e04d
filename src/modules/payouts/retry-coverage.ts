import { kindsOf, type PayoutDriver } from './payout-driver.ts';
import { legsOf } from './payout-legs.ts';
import * as repo from './payouts.repo.ts';
import type { DriverDeps, PayoutIntent } from './payouts.types.ts';

/**
 * Balance and allowance must cover what will actually be sent, before anything is signed again:
 * the legs not already paid, at the amounts and from the wallet frozen in the submission's payout
 * row when one exists (a retry's founder wallet or fee split may differ from the first
 * approval's; its transactions never do). Those of an earlier attempt are settled from the chain
 * first: after a lost answer or a timeout one may have mined unrecorded, and counting it again would
 * refuse a founder who owes only the rest. Refuses with the funds error (400).
 */
export async function assertRetryCovered(
  deps: Pick<DriverDeps, 'db' | 'funds' | 'journal'>,
  driver: Pick<PayoutDriver, 'settle'>,
  intent: PayoutIntent,
): Promise<void> {
  const { db, funds } = deps;
  const earlier = await repo.findBySubmission(db, intent.submissionId);
  if (earlier?.status === 'pending' || earlier?.status === 'failed') await driver.settle(earlier.id);
  const legs = earlier ? await legsOf(deps, db, earlier.id) : [];
  const sent = earlier ?? {
    tokenAddress: intent.tokenAddress,
    fromAddress: intent.founderAddress,
    rewardUnits: intent.split.rewardUnits,
    contributorUnits: intent.split.contributorUnits,
    feeUnits: intent.split.feeUnits,
  };
  const paid = (kind: string) => legs.some((l) => l.kind === kind && l.status === 'success');
  const units = kindsOf(legs).reduce(
    (sum, k) =>
      paid(k)
        ? sum
        : sum + (k === 'payout' ? sent.rewardUnits : k === 'fee' ? sent.feeUnits : sent.contributorUnits),
    0n,
  );
  // A first look, without the others in flight: signing checks again under the wallet's lock.
  if (units > 0n) await funds.assertCovers(sent.tokenAddress, sent.fromAddress, units);
}
