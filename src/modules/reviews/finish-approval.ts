import type { Db } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { DomainEvents } from '../../lib/domain-events.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { BountyState } from '../bounties/bounty-state.ts';
import type { DriveResult, Payout, PayoutsService } from '../payouts/payouts.service.ts';
import * as submissionsRepo from './submissions.repo.ts';

interface FinishDeps {
  db: Db;
  clock: Clock;
  activity: ActivityService;
  payouts: Pick<PayoutsService, 'confirmPaid'>;
  bountyState: Pick<BountyState, 'finishApproval'>;
  /** Told `payout.confirmed` once the approval finished (payability and holdings listen). */
  events: Pick<DomainEvents, 'publish'>;
}

export interface ApprovalResult {
  bounty_id: string;
  status: 'done';
  submission_id: string;
  contributor_tx_hash: string;
  platform_fee_tx_hash: string;
}

/**
 * Confirms the payout (its transaction settled by the engine's journal), approves the submission with
 * both hashes, marks the bounty done (releasing its lease) and records `submission.approved`,
 * in one transaction; each module writes its own table, each step only if the one before it
 * did. `released`: this call finished the approval (a second finisher changes nothing).
 */
export async function finishApproval(
  deps: FinishDeps,
  payout: Payout,
  paid: Extract<DriveResult, { status: 'confirmed' }>,
): Promise<{ result: ApprovalResult; released: boolean }> {
  const { db, clock, activity, payouts, bountyState } = deps;
  const now = clock.now();
  const finished = await db.transaction(async (tx) => {
    // Whoever confirms the payout finishes the approval; a second finisher changes nothing.
    if (!(await payouts.confirmPaid(tx, payout.id, now, paid.mined))) return null;
    const agentId = await submissionsRepo.approvePaid(tx, payout.submissionId, {
      reviewNotes: payout.reviewNotes,
      contributorTxHash: paid.contributorTxHash,
      platformFeeTxHash: paid.platformFeeTxHash,
      rewardUnits: payout.rewardUnits,
      feeUnits: payout.feeUnits,
      now,
    });
    // Never mark the bounty done (nor the payout confirmed) for a submission not the one paid.
    if (!agentId) throw new Error(`Submission ${payout.submissionId} of payout ${payout.id} is not pending.`);
    const bounty = await bountyState.finishApproval(tx, payout.bountyId, now);
    await activity.record(tx, {
      type: 'submission.approved',
      agentId,
      projectId: bounty?.projectId ?? null,
      bountyId: payout.bountyId,
      data: {
        submission_id: payout.submissionId,
        reward_units: payout.rewardUnits.toString(),
        fee_units: payout.feeUnits.toString(),
        contributor_tx_hash: paid.contributorTxHash,
        platform_fee_tx_hash: paid.platformFeeTxHash,
      },
    });
    // Undefined when the bounty was not in review: nothing to refresh; the caller releases the lease.
    return bounty;
  });
  // Paid: the founder's funds fell and the done bounty no longer counts.
  const { projectId, tokenAddress, founderId, founderAddress } = finished ?? {};
  if (projectId && tokenAddress && founderId) {
    const project = { projectId, tokenAddress, founderId, founderAddress: founderAddress ?? null };
    await deps.events.publish({
      type: 'payout.confirmed',
      projectId,
      project,
      holders: [payout.contributorAddress],
    });
  }
  return {
    released: projectId != null,
    result: {
      bounty_id: payout.bountyId,
      status: 'done',
      submission_id: payout.submissionId,
      contributor_tx_hash: paid.contributorTxHash,
      platform_fee_tx_hash: paid.platformFeeTxHash,
    },
  };
}
