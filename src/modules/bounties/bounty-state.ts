import type { Db, Executor } from '../../infra/db/client.ts';
import * as repo from './bounties.repo.ts';
import * as state from './bounty-state.repo.ts';

export type { FinishedBounty, PayableFlip } from './bounty-state.repo.ts';

/**
 * What other modules change on a bounty, each as one conditional update of the bounties module:
 * the review's moves (submit, reject, a paid approval), the approval lease (a fencing token that
 * approvals, the reconciler and a first payout's signing hold), and the `payable` flags the
 * payability module recomputes. Methods taking `tx` run in the caller's transaction, so the
 * bounty moves together with the caller's own tables. Built from the database alone, so any
 * service may be given it (payability is built before `BountiesService`, which needs it).
 */
export class BountyState {
  constructor(private readonly db: Db) {}

  /** claimed -> in_review, for the agent that holds the claim; false when it is not (or no longer) so. */
  async startReview(tx: Executor, bountyId: string, agentId: string, now: Date): Promise<boolean> {
    const moved = await repo.transition(
      tx,
      bountyId,
      'claimed',
      { status: 'in_review', revisionDueAt: null, updatedAt: now },
      repo.claimedBy(agentId),
    );
    return moved !== undefined;
  }

  /** in_review -> open after a reject, unless an approval holds a live lease; false then. */
  async reopenRejected(tx: Executor, bountyId: string, now: Date): Promise<boolean> {
    const reopened = await repo.transition(
      tx,
      bountyId,
      'in_review',
      { status: 'open', claimedBy: null, claimedAt: null, claimWarnedAt: null, updatedAt: now },
      state.leaseFree(),
    );
    return reopened !== undefined;
  }

  /**
   * in_review -> claimed by the same claimant after the founder requested changes: the claim now
   * lapses at `due` (and is warned about again), unless an approval holds a live lease; false then.
   */
  async returnForChanges(tx: Executor, bountyId: string, now: Date, due: Date): Promise<boolean> {
    const moved = await repo.transition(
      tx,
      bountyId,
      'in_review',
      { status: 'claimed', revisionDueAt: due, claimWarnedAt: null, updatedAt: now },
      state.leaseFree(),
    );
    return moved !== undefined;
  }

  /**
   * The approval lease for `owner` for `ms` (by the database's clock), unless another holds a live
   * one (undefined), with the submission pending as it was taken.
   */
  takeApprovalLease(bountyId: string, owner: string, ms: number) {
    return state.takeLease(this.db, bountyId, owner, ms);
  }

  /** Extends the lease for `ms` while `owner` still holds it (a first payout's signing transaction). */
  renewApprovalLease(tx: Executor, bountyId: string, owner: string, ms: number): Promise<boolean> {
    return state.renewLease(tx, bountyId, owner, ms);
  }

  /** Gives the lease up, only while `owner` holds it. */
  releaseApprovalLease(bountyId: string, owner: string): Promise<void> {
    return state.releaseLease(this.db, bountyId, owner);
  }

  /** The pending submission's reward is owed (the founder merged it, or asked the approval to). */
  markPaymentOwed(tx: Executor, bountyId: string, now: Date): Promise<void> {
    return state.markPaymentOwed(tx, bountyId, now);
  }

  /** The merge an approval asked for was refused: nothing is owed any more. */
  clearPaymentOwed(tx: Executor, bountyId: string, now: Date): Promise<void> {
    return state.clearPaymentOwed(tx, bountyId, now);
  }

  /** A paid approval: done, lease released, payable, no longer owed; its project, or undefined. */
  finishApproval(tx: Executor, bountyId: string, now: Date): Promise<state.FinishedBounty | undefined> {
    return state.finishApproval(tx, bountyId, now);
  }

  /** Recomputes the project's live bounties' `payable` from its stored funds; the ones that flipped. */
  recomputePayable(tx: Executor, projectId: string): Promise<state.PayableFlip[]> {
    return state.recomputePayable(tx, projectId);
  }
}
