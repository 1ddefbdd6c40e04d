import type { TxReceipt } from '../../infra/chain/chain.ts';
import * as fresh from './fresh-payout.repo.ts';
import { countEarly, reserveAndSign, type SignedPayoutTx } from './payout-signing.ts';
import type * as repo from './payouts.repo.ts';
import type { DriverDeps, SigningLease } from './payouts.types.ts';
import { lockFunds } from './reservation.repo.ts';

export type FreshResult =
  /** The submission already has a payout (another approval got there first): drive that one. */
  | { status: 'existing' }
  /** The submission was reviewed before signing: the payout is recorded failed, nothing signed. */
  | { status: 'reviewed' }
  /** The approval lease lapsed and another process holds it now: nothing recorded or signed. */
  | { status: 'lease_lost' }
  /**
   * Recorded and signed, but not a clean success here (the node refused it, or it reverted):
   * `PayoutDriver.drive` takes it from there.
   */
  | { status: 'unfinished' }
  /** Sent; its receipt did not show within the wait. */
  | { status: 'pending' }
  | {
      status: 'confirmed';
      contributorTxHash: string;
      platformFeeTxHash: string;
      mined: { hash: string; receipt: TxReceipt };
    };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The first approval of a submission, in as few round trips as the guarantees allow. In one
 * transaction: the founder wallet's funds lock; the submission's row lock (still pending?); the
 * caller's lease renewal (still ours? the bounties module's statement); one statement records the
 * payout and reads the wallet's other payouts in flight; the funds check counts those (nothing is
 * quoted or signed for a founder who cannot pay); the payout's one transaction (a router call
 * making both transfers) is recorded through the transaction engine's journal (the payout key's
 * nonce under its counter lock, the signed bytes stored). After commit it is broadcast and its
 * receipt read, first without waiting (an automining node has it at once); the approval's
 * finishing transaction records it mined with the payout confirmed. Whatever is not a clean success (a revert, a refusal, a timeout) is left to
 * `PayoutDriver`, and to the engine, which follow every other case.
 */
export class FreshPayout {
  constructor(private readonly deps: DriverDeps) {}

  async pay(payout: repo.PayoutRow, lease: SigningLease, waitMs: number): Promise<FreshResult> {
    const deadline = Date.now() + waitMs;
    const { chain, journal } = this.deps;
    const signed = await this.sign(payout, lease);
    if (signed === 'existing' || signed === 'reviewed' || signed === 'lease_lost') return { status: signed };
    const { hash, raw } = signed.signed;
    const sent = await chain.broadcast(raw);
    let marked = false;
    const markSent = async () => {
      if (marked) return;
      marked = true;
      await journal.sent(hash);
    };
    if (sent !== 'accepted') {
      await markSent();
      return { status: 'unfinished' };
    }
    try {
      for (;;) {
        const r = await chain.receipt(hash);
        if (r?.status === 'success') {
          // One router call carries both transfers: its hash is the contributor's and the fee's.
          // The approval's finishing transaction records it (`PayoutsService.confirmPaid`).
          return {
            status: 'confirmed',
            contributorTxHash: hash,
            platformFeeTxHash: hash,
            mined: { hash, receipt: r },
          };
        }
        if (r) {
          await markSent();
          return { status: 'unfinished' };
        }
        if (Date.now() >= deadline) {
          await markSent();
          return { status: 'pending' };
        }
        // Not mined yet (a chain with block times): recorded as sent while waiting for the next look.
        await Promise.all([markSent(), sleep(this.deps.pollIntervalMs)]);
      }
    } catch (err) {
      // The receipt could not be read: the transaction went out, and the journal says so.
      await markSent();
      throw err;
    }
  }

  /** The signing transaction. A funds refusal throws and rolls everything back. */
  private sign(
    payout: repo.PayoutRow,
    lease: SigningLease,
  ): Promise<SignedPayoutTx | 'existing' | 'reviewed' | 'lease_lost'> {
    const { db } = this.deps;
    const earlyCount = countEarly(this.deps);
    return db.transaction(async (tx) => {
      await lockFunds(tx, payout.tokenAddress, payout.fromAddress);
      // The submission's lock before the bounty's lease: the order a reject takes them in too.
      const submission = await this.deps.lockSubmission(tx, payout.submissionId);
      if (submission === undefined) return 'lease_lost';
      const pending = submission === 'pending';
      const leased = await lease.renew(tx);
      // Pending but the lease is another's: nothing recorded. A submission reviewed meanwhile is
      // recorded failed whoever holds the lease.
      if (pending && !leased) return 'lease_lost';
      const reserved = await fresh.recordAndReserve(tx, payout, pending);
      if (reserved.status === 'failed') return 'reviewed';
      if (!leased) return 'lease_lost';
      if (reserved.status === null) return 'existing';
      const [one] = await reserveAndSign(this.deps, tx, payout, ['payout'], reserved.inFlight, earlyCount);
      return one as SignedPayoutTx;
    });
  }
}
