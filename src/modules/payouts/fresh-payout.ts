import type { MinedTx } from '../../infra/chain/chain.ts';
import { capFees } from '../../infra/chain/tx-node.ts';
import * as fresh from './fresh-payout.repo.ts';
import { assertReservable } from './funds-reservation.ts';
import { signLeg } from './leg-broadcast.ts';
import type * as repo from './payouts.repo.ts';
import type { DriverDeps, PaidLeg, SigningLease } from './payouts.types.ts';
import { lockFunds } from './reservation.repo.ts';
import * as nonces from './signer-nonces.repo.ts';

export type FreshResult =
  /** The submission already has a payout (another approval got there first): drive that one. */
  | { status: 'existing' }
  /** The submission was reviewed before signing: the payout is recorded failed, nothing signed. */
  | { status: 'reviewed' }
  /** The approval lease lapsed and another process holds it now: nothing recorded or signed. */
  | { status: 'lease_lost' }
  /**
   * Recorded, but not a clean success here (a leg refused or reverted, or the signer's nonce
   * counter had to be seeded first): `PayoutDriver.drive` takes it from there.
   */
  | { status: 'unfinished' }
  /** Both legs were sent; their receipts did not show within the wait. */
  | { status: 'pending' }
  | { status: 'confirmed'; contributorTxHash: string; platformFeeTxHash: string; legs: PaidLeg[] };

interface SignedLeg {
  leg: repo.LegRow;
  attempt: repo.AttemptRow;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The first approval of a submission, in as few round trips as the guarantees allow. In one
 * transaction: the founder wallet's funds lock; the submission's row lock (still pending?); the
 * caller's lease renewal (still ours? the bounties module's statement); one statement records the
 * payout, takes a nonce and reads the wallet's other legs in flight; the funds check counts those
 * (nothing is quoted or signed for a founder who cannot pay); the payout's one transaction (a
 * router call making both transfers) is signed locally and stored with one statement. After
 * commit it is broadcast and its receipt read, first without waiting (an automining node has it
 * at once). Whatever is not a clean success (a revert, a refusal, a timeout) is left to
 * `PayoutDriver`, which owns every other case.
 */
export class FreshPayout {
  constructor(private readonly deps: DriverDeps) {}

  async pay(payout: repo.PayoutRow, lease: SigningLease, waitMs: number): Promise<FreshResult> {
    const deadline = Date.now() + waitMs;
    const { db, signer } = this.deps;
    const signed = await this.sign(payout, lease);
    if (signed === 'existing' || signed === 'reviewed' || signed === 'lease_lost') return { status: signed };
    if (signed === 'unseeded') {
      // The payout is recorded; the counter is seeded from the chain once, after that the
      // database owns the nonces. A failed read leaves the payout without legs (502).
      await nonces.seedNonce(db, signer.address, await signer.chainNonce());
      return { status: 'unfinished' };
    }
    // Legs leave before any wait, in nonce order; a refusal stops there, as a later nonce could
    // not mine before it anyway.
    const sent: string[] = [];
    for (const s of signed) {
      sent.push(await signer.broadcast(s.attempt.rawTx));
      if (sent[sent.length - 1] !== 'accepted') break;
    }
    let marked = false;
    const markSent = async () => {
      if (marked) return;
      marked = true;
      const legs = signed.map((s) => ({ legId: s.leg.id, txHash: s.attempt.txHash }));
      await fresh.markSent(db, legs, this.deps.clock.now());
    };
    if (sent.some((r) => r !== 'accepted')) {
      await markSent();
      return { status: 'unfinished' };
    }
    try {
      for (;;) {
        const mined = await Promise.all(signed.map((s) => signer.mined(s.attempt.txHash)));
        if (mined.every((m) => m?.status === 'success')) return confirmed(signed, mined as MinedTx[]);
        if (mined.some((m) => m?.status === 'reverted')) {
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
      // The receipts could not be read: both legs went out, and the ledger says so.
      await markSent();
      throw err;
    }
  }

  /**
   * The signing transaction. 'unseeded': the signer has no nonce counter yet, so only the payout
   * was recorded (committed, without legs). A funds refusal throws and rolls everything back.
   */
  private sign(
    payout: repo.PayoutRow,
    lease: SigningLease,
  ): Promise<SignedLeg[] | 'existing' | 'reviewed' | 'lease_lost' | 'unseeded'> {
    const { db, signer, clock } = this.deps;
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
      const reserved = await fresh.recordAndReserve(tx, payout, signer.address, pending);
      if (reserved.status === 'failed') return 'reviewed';
      if (!leased) return 'lease_lost';
      if (reserved.status === null) return 'existing';
      await assertReservable(
        this.deps,
        payout.tokenAddress,
        payout.fromAddress,
        reserved.inFlight,
        payout.rewardUnits,
      );
      if (reserved.nonce === null) return 'unseeded';
      const fees = capFees(await signer.quoteFees(), this.deps.maxFeePerGas);
      const leg = await signLeg(signer, payout, 'payout', reserved.nonce, fees, clock.now());
      await fresh.insertSignedLegs(tx, [leg]);
      return [leg];
    });
  }
}

function confirmed(signed: SignedLeg[], mined: MinedTx[]): FreshResult {
  const legs = signed.map((s, i) => ({
    legId: s.leg.id,
    txHash: s.attempt.txHash,
    blockNumber: (mined[i] as MinedTx).blockNumber,
  }));
  // One router call carries both transfers: its hash is the contributor's and the fee's.
  const hash = (signed[0] as SignedLeg).attempt.txHash;
  return { status: 'confirmed', contributorTxHash: hash, platformFeeTxHash: hash, legs };
}
