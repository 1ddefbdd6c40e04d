import type { Fees, MinedTx } from '../../infra/chain/chain.ts';
import * as fresh from './fresh-payout.repo.ts';
import { capFees, signLeg } from './leg-broadcast.ts';
import type { DriverDeps } from './payout-driver.ts';
import * as repo from './payouts.repo.ts';

/** A leg that mined successfully, as the approval's finishing statement records it. */
export interface PaidLeg {
  legId: string;
  txHash: string;
  blockNumber: bigint;
}

export type FreshResult =
  /** The submission already has a payout (another approval got there first): drive that one. */
  | { status: 'existing' }
  /** The submission was reviewed before signing: the payout is recorded failed, nothing signed. */
  | { status: 'reviewed' }
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
 * transaction: one statement records the payout, locks the submission (still pending), renews
 * the lease and takes both nonces; both legs are signed locally and stored with one statement.
 * After commit both legs are broadcast together, then both receipts are read together, first
 * without waiting (an automining node has them at once). Whatever is not a clean success
 * (a revert, a refusal, a timeout) is left to `PayoutDriver`, which owns every other case.
 */
export class FreshPayout {
  constructor(private readonly deps: DriverDeps) {}

  async pay(payout: repo.PayoutRow, quote: Fees, leaseMs: number, waitMs: number): Promise<FreshResult> {
    const deadline = Date.now() + waitMs;
    const { db, signer } = this.deps;
    const signed = await this.signBoth(payout, capFees(quote, this.deps.maxFeePerGas), leaseMs);
    if (signed === 'existing' || signed === 'reviewed') return { status: signed };
    if (signed === 'unseeded') {
      // The payout is recorded; the counter is seeded from the chain once, after that the
      // database owns the nonces. A failed read leaves the payout without legs (502).
      await repo.seedNonce(db, signer.address, await signer.chainNonce());
      return { status: 'unfinished' };
    }
    // Both legs leave before any wait, in nonce order (so they mine in one block on a chain with
    // block times); a refusal stops there, as a later nonce could not mine before it anyway.
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
   * was recorded (committed, without legs).
   */
  private signBoth(
    payout: repo.PayoutRow,
    fees: Fees,
    leaseMs: number,
  ): Promise<SignedLeg[] | 'existing' | 'reviewed' | 'unseeded'> {
    const { db, signer } = this.deps;
    return db.transaction(async (tx) => {
      const until = new Date(this.deps.clock.now().getTime() + leaseMs);
      const reserved = await fresh.recordAndReserve(tx, payout, signer.address, until);
      if (reserved.status === null) return 'existing';
      if (reserved.status === 'failed') return 'reviewed';
      if (reserved.firstNonce === null) return 'unseeded';
      const legs: SignedLeg[] = [];
      for (const [i, kind] of (['contributor', 'fee'] as const).entries()) {
        legs.push(await signLeg(signer, payout, kind, reserved.firstNonce + i, fees, this.deps.clock.now()));
      }
      await fresh.insertSignedLegs(tx, legs);
      return legs;
    });
  }
}

function confirmed(signed: SignedLeg[], mined: MinedTx[]): FreshResult {
  const legs = signed.map((s, i) => ({
    legId: s.leg.id,
    txHash: s.attempt.txHash,
    blockNumber: (mined[i] as MinedTx).blockNumber,
  }));
  const hashOf = (kind: string) => signed.find((s) => s.leg.kind === kind)?.attempt.txHash as string;
  return {
    status: 'confirmed',
    contributorTxHash: hashOf('contributor'),
    platformFeeTxHash: hashOf('fee'),
    legs,
  };
}
