import { capFees } from '../../infra/chain/tx-node.ts';
import type { Executor } from '../../infra/db/client.ts';
import { uniqueViolation } from '../../infra/db/errors.ts';
import { AppError, invalidState } from '../../lib/errors.ts';
import { assertReservable } from './funds-reservation.ts';
import { LegBroadcaster, sameAddress, settleFromChain, signLeg } from './leg-broadcast.ts';
import * as repo from './payouts.repo.ts';
import type { DriveResult, DriverDeps, LegKind } from './payouts.types.ts';
import { inFlight, lockFunds } from './reservation.repo.ts';
import * as nonces from './signer-nonces.repo.ts';

/** A reverted leg whose receipt a reorg took away may still mine (and could succeed this time). */
const forgotten = (l: repo.LegRow) => l.status === 'reverted' && l.blockNumber === null;
const isOpen = (l: repo.LegRow) => l.status === 'signed' || l.status === 'sent' || forgotten(l);
const isLive = (l: repo.LegRow) => (l.status !== 'reverted' && l.status !== 'dropped') || forgotten(l);

/**
 * The kinds of leg a payout needs: one router call (`payout`) or, for a payout signed before the
 * router existed, one transferFrom per recipient. A payout never mixes the two.
 */
export function kindsOf(legs: repo.LegRow[]): LegKind[] {
  return legs.some((l) => l.kind !== 'payout') ? ['contributor', 'fee'] : ['payout'];
}

/**
 * Kinds with no leg that may still move (or has moved) the tokens, that signing would add: one
 * never signed, or whose latest leg was dropped (its nonce taken by another transaction). A kind
 * whose latest leg reverted is signed again only when `resignReverted` (an approval asked again),
 * never by the reconciler on its own: a payout that keeps reverting fails instead of burning gas.
 */
export function missingKinds(legs: repo.LegRow[], resignReverted = false): LegKind[] {
  return kindsOf(legs).filter((k) => {
    const ofKind = legs.filter((l) => l.kind === k);
    if (ofKind.some(isLive)) return false;
    const latest = ofKind.at(-1);
    return !latest || latest.status === 'dropped' || resignReverted;
  });
}

/** What one leg of a kind takes from the founder. */
const unitsOf = (p: repo.PayoutRow, kind: LegKind): bigint =>
  kind === 'payout' ? p.rewardUnits : kind === 'fee' ? p.feeUnits : p.contributorUnits;

/**
 * Drives one payout's legs toward the chain: signs a leg only where none may still move the
 * tokens (after the funds reservation), stores every signed transaction before broadcasting it,
 * hands the legs to `LegBroadcaster` (re-broadcasts, replacements), records what mined, and marks
 * dropped a leg whose nonce another transaction took, so it is signed again at a fresh nonce.
 */
export class PayoutDriver {
  private readonly broadcaster: LegBroadcaster;

  constructor(private readonly deps: DriverDeps) {
    this.broadcaster = new LegBroadcaster(deps);
  }

  /** `resignReverted`: an approval asked again, so a kind whose leg reverted is signed once more. */
  async drive(payoutId: string, waitMs: number, resignReverted = false): Promise<DriveResult> {
    const deadline = Date.now() + waitMs;
    // Twice at most: a leg found dropped while waiting is signed again at once.
    for (let round = 0; ; round++) {
      const payout = await repo.findById(this.deps.db, payoutId);
      if (!payout) throw new Error(`No payout ${payoutId}.`);
      await this.settle(payoutId);
      let legs = await repo.legsOf(this.deps.db, payoutId);
      const missing = missingKinds(legs, resignReverted && round === 0);
      if (missing.length > 0 && payout.status === 'pending' && this.deps.signNewLegs) {
        await this.sign(payout, missing);
        legs = await repo.legsOf(this.deps.db, payoutId);
      }
      await this.broadcaster.push(legs.filter(isLive));
      const result = await this.await(payoutId, Math.max(0, deadline - Date.now()));
      if (result.status !== 'pending' || round >= 1 || Date.now() >= deadline) return result;
      if (missingKinds(await repo.legsOf(this.deps.db, payoutId)).length === 0) return result;
    }
  }

  /**
   * Reserves the funds, allocates nonces and stores the signed transactions in one transaction,
   * before any broadcast. Throws 409 when the submission was reviewed meanwhile (its payout is
   * then closed), and the funds error when the founder cannot cover it beside the wallet's other
   * payouts in flight (the payout is then failed, to be reopened by the next approval).
   */
  private async sign(payout: repo.PayoutRow, kinds: LegKind[]): Promise<void> {
    const { db, clock, signer } = this.deps;
    // The counter is seeded from the chain once; after that the database owns the nonces.
    if (!(await nonces.hasNonceCounter(db, signer.address))) {
      await nonces.seedNonce(db, signer.address, await signer.chainNonce());
    }
    const now = clock.now();
    let reviewed = false;
    try {
      await db.transaction(async (tx) => {
        // The funds lock first, as every signing takes it: the in-flight read below is complete.
        await lockFunds(tx, payout.tokenAddress, payout.fromAddress);
        // A reject holds this lock too: a payout it closed is never signed afterwards.
        const locked = await repo.lockById(tx, payout.id);
        if (locked?.status !== 'pending') return;
        // A reject with no payout row yet (or one whose lease ran out) locks only the submission.
        if ((await this.deps.lockSubmission(tx, payout.submissionId)) !== 'pending') {
          await repo.setStatus(
            tx,
            payout.id,
            ['pending'],
            'failed',
            'the submission is no longer pending',
            now,
          );
          reviewed = true;
          return;
        }
        await this.signInTx(tx, payout, kinds, now);
      });
    } catch (err) {
      // Another process signed this payout's legs first; its legs are the ones to drive.
      if (uniqueViolation(err) === 'payout_legs_live_key') return;
      if (err instanceof AppError && err.code === 'insufficient_funds') {
        // Nothing was signed: the payout waits for the founder's next approval (or, when owed,
        // for funds), instead of being retried by every reconciler pass.
        await repo.failIfIdle(db, payout.id, err.message, clock.now());
      }
      throw err;
    }
    if (reviewed) {
      throw invalidState('The submission was reviewed while this approval ran; nothing was paid.');
    }
  }

  /** Inside a signing transaction holding the funds lock: reservation, fee quote, nonces, legs. */
  private async signInTx(tx: Executor, payout: repo.PayoutRow, kinds: LegKind[], now: Date): Promise<void> {
    const { signer } = this.deps;
    const others = await inFlight(tx, payout.tokenAddress, payout.fromAddress, payout.submissionId);
    const units = kinds.reduce((sum, k) => sum + unitsOf(payout, k), 0n);
    await assertReservable(this.deps, payout.tokenAddress, payout.fromAddress, others, units);
    const fees = capFees(await signer.quoteFees(), this.deps.maxFeePerGas);
    for (const kind of kinds) {
      const nonce = await nonces.allocateNonce(tx, signer.address);
      const { leg, attempt } = await signLeg(signer, payout, kind, nonce, fees, now);
      await repo.insertLeg(tx, leg, attempt);
    }
  }

  /**
   * A payout already confirmed (its submission approved, its bounty done) whose mined transaction
   * a reorg took back and whose nonce another transaction then used: it is owed again, so its
   * dropped kind is signed at a fresh nonce, after the funds reservation (a refusal throws and is
   * tried again on the next pass). Returns the new legs, for the caller to broadcast.
   */
  async resignConfirmed(payoutId: string): Promise<repo.LegRow[]> {
    const { db, clock } = this.deps;
    try {
      await db.transaction(async (tx) => {
        const payout = await repo.findById(tx, payoutId);
        if (!payout) return;
        await lockFunds(tx, payout.tokenAddress, payout.fromAddress);
        if ((await repo.lockById(tx, payout.id))?.status !== 'confirmed') return;
        // A confirmed payout's kind without a live leg lost its transfer (dropped, or a final revert).
        const missing = missingKinds(await repo.legsOf(tx, payout.id), true);
        if (missing.length > 0) await this.signInTx(tx, payout, missing, clock.now());
      });
    } catch (err) {
      if (uniqueViolation(err) !== 'payout_legs_live_key') throw err;
    }
    return (await repo.legsOf(db, payoutId)).filter(isOpen);
  }

  /**
   * Records what mined for each unsettled leg, its receipts read together, and marks dropped the
   * legs whose nonce another transaction took. An approval retried after a lost answer uses it
   * before the funds check: a leg that mined unrecorded is paid.
   */
  async settle(payoutId: string): Promise<void> {
    const legs = await repo.legsOf(this.deps.db, payoutId);
    const open = legs.filter(isOpen);
    if (open.length === 0) return;
    const attempts = await repo.attemptsOf(
      this.deps.db,
      open.map((l) => l.id),
    );
    const triedBy = (l: repo.LegRow) => attempts.filter((a) => a.legId === l.id);
    const settled = await Promise.all(open.map((l) => settleFromChain(this.deps, l, triedBy(l))));
    const unmined = open.filter((_, i) => !settled[i]);
    if (unmined.length > 0) await this.dropTaken(unmined, triedBy);
  }

  /**
   * A leg none of whose attempts mined, at a nonce the chain has used (at least PAYOUT_CONFIRMATIONS
   * deep), was overtaken by a transaction the service did not sign (the same key elsewhere, a
   * manual send, a restored database): its bytes can never mine. It is marked `dropped`, the
   * nonce counter is raised past what the chain holds, and the payout gets a new leg at a fresh
   * nonce. Never both: the dropped bytes' nonce is final on chain.
   */
  async dropTaken(legs: repo.LegRow[], triedBy: (l: repo.LegRow) => repo.AttemptRow[]): Promise<number> {
    const { db, signer, clock, log, confirmations } = this.deps;
    const mine = legs.filter((l) => sameAddress(l.signer, signer.address));
    if (mine.length === 0) return 0;
    let dropped = 0;
    const head = await signer.headBlock();
    const final = head - BigInt(confirmations);
    const used = await signer.chainNonce(final < 0n ? 0n : final);
    for (const leg of mine.filter((l) => l.nonce < used)) {
      // Read again now that the nonce is known used: one of ours may have mined since the first
      // look, and a node that still knows one of ours (a receipt index lagging the nonce count,
      // say) is not certainty that another transaction took the nonce.
      const tried = triedBy(leg);
      const receipts = await Promise.all(tried.map((a) => signer.mined(a.txHash)));
      if (receipts.some(Boolean)) continue;
      if ((await Promise.all(tried.map((a) => signer.known(a.txHash)))).some(Boolean)) continue;
      if (!(await repo.markDropped(db, leg.id, clock.now()))) continue;
      dropped++;
      await nonces.raiseNonce(db, signer.address, await signer.chainNonce('pending'));
      log.warn(
        { leg: leg.id, payout: leg.payoutId, nonce: leg.nonce },
        'another transaction used this payout nonce; the payout is signed again at a fresh nonce',
      );
    }
    return dropped;
  }

  /** Polls every unsettled leg until all settle or the time is up; receipts are awaited together. */
  private async await(payoutId: string, waitMs: number): Promise<DriveResult> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      await this.settle(payoutId);
      const settled = await repo.legsOf(this.deps.db, payoutId);
      const result = outcome(settled);
      // Nothing in flight (signing is off, say): waiting cannot change the answer.
      if (result.status !== 'pending' || Date.now() >= deadline || !settled.some(isOpen)) return result;
      await new Promise((r) => setTimeout(r, this.deps.pollIntervalMs));
    }
  }
}

/**
 * The payout's state from its legs: every kind paid; failed when nothing is in flight and a kind's
 * latest leg reverted; otherwise still moving (a dropped leg waits to be signed again).
 */
export function outcome(legs: repo.LegRow[]): DriveResult {
  const kinds = kindsOf(legs);
  const paid = kinds.map((k) => legs.find((l) => l.kind === k && l.status === 'success'));
  if (paid.every((l) => l?.txHash)) {
    const hashes = paid.map((l) => l?.txHash as string);
    return {
      status: 'confirmed',
      contributorTxHash: hashes[0] as string,
      platformFeeTxHash: hashes.at(-1) as string,
    };
  }
  if (legs.some(isOpen)) return { status: 'pending' };
  // Legs are listed in nonce order: a kind's last leg is its latest.
  const reverted = kinds.filter(
    (k, i) => !paid[i] && legs.filter((l) => l.kind === k).at(-1)?.status === 'reverted',
  );
  if (reverted.length > 0) {
    const what = reverted.includes('payout') ? 'payout' : `${reverted.join(' and ')} transfer`;
    return { status: 'failed', error: `the ${what} reverted` };
  }
  return { status: 'pending' };
}
