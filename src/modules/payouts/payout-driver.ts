import { uniqueViolation } from '../../infra/db/errors.ts';
import { AppError, invalidState } from '../../lib/errors.ts';
import { OncePer } from '../../lib/once-per.ts';
import { Rotation } from '../../lib/rotation.ts';
import { isLive, isOpen, legsOf, type PayoutLeg } from './payout-legs.ts';
import { countEarly, reserveAndSign } from './payout-signing.ts';
import * as repo from './payouts.repo.ts';
import type { DriveResult, DriverDeps, LegKind } from './payouts.types.ts';
import { inFlight, lockFunds } from './reservation.repo.ts';

/** A payout's transactions never mix the router call with legacy transfers. */
const LIVE_KEY = 'wallet_intents_payout_live';

/**
 * The kinds of transaction a payout needs: one router call (`payout`) or, for a payout signed
 * before the router existed, one transferFrom per recipient. A payout never mixes the two.
 */
export function kindsOf(legs: PayoutLeg[]): LegKind[] {
  return legs.some((l) => l.kind !== 'payout') ? ['contributor', 'fee'] : ['payout'];
}

/**
 * Kinds with no transaction that may still move (or has moved) the tokens, that signing would
 * add: one never signed, or whose latest was dropped (its nonce taken by another transaction). A
 * kind whose latest reverted is signed again only when `resignReverted` (an approval asked again),
 * never by the reconciler on its own: a payout that keeps reverting fails instead of burning gas.
 */
export function missingKinds(legs: PayoutLeg[], resignReverted = false): LegKind[] {
  return kindsOf(legs).filter((k) => {
    const ofKind = legs.filter((l) => l.kind === k);
    if (ofKind.some(isLive)) return false;
    const latest = ofKind.at(-1);
    return !latest || latest.status === 'dropped' || resignReverted;
  });
}

/**
 * Drives one payout toward the chain. Its transactions are the transaction engine's intents: the
 * engine sends them, replaces stuck ones, settles them from receipts and puts back what a reorg
 * took. What is the payout's own: a transaction is signed only where none may still move the
 * tokens, and only after the funds reservation under the founder wallet's funds lock; a kind the
 * engine gave up (another transaction took its nonce for good) is signed anew here, by the same rule.
 */
export class PayoutDriver {
  /** Payouts waiting for their founder's funds (`resignLost`): said once a minute each. */
  private readonly shortLogged = new OncePer(60_000);
  /** Confirmed payouts that lost a transfer, a batch a pass (`Rotation`). */
  private readonly lostPages = new Rotation<string>();

  constructor(private readonly deps: DriverDeps) {}

  /** `resignReverted`: an approval asked again, so a kind whose transaction reverted is signed once more. */
  async drive(payoutId: string, waitMs: number, resignReverted = false): Promise<DriveResult> {
    const deadline = Date.now() + waitMs;
    // Twice at most: a transaction found dropped while waiting is signed again at once.
    for (let round = 0; ; round++) {
      const payout = await repo.findById(this.deps.db, payoutId);
      if (!payout) throw new Error(`No payout ${payoutId}.`);
      await this.settle(payoutId);
      const legs = await legsOf(this.deps, this.deps.db, payoutId);
      const missing = missingKinds(legs, resignReverted && round === 0);
      if (missing.length > 0 && payout.status === 'pending' && this.deps.signNewLegs) {
        await this.sign(payout, missing);
      }
      await this.push(payoutId);
      const result = await this.await(payoutId, Math.max(0, deadline - Date.now()));
      if (result.status !== 'pending' || round >= 1 || Date.now() >= deadline) return result;
      if (missingKinds(await legsOf(this.deps, this.deps.db, payoutId)).length === 0) return result;
    }
  }

  /**
   * Reserves the funds and records the signed transactions in one transaction, before any
   * broadcast. Throws 409 when the submission was reviewed meanwhile (its payout is then closed),
   * and the funds error when the founder cannot cover it beside the wallet's other payouts in
   * flight (the payout is then failed, to be reopened by the next approval).
   */
  private async sign(payout: repo.PayoutRow, kinds: LegKind[]): Promise<void> {
    const { db, clock } = this.deps;
    const now = clock.now();
    let reviewed = false;
    const earlyCount = countEarly(this.deps);
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
        const others = await inFlight(tx, payout.tokenAddress, payout.fromAddress, payout.submissionId);
        await reserveAndSign(this.deps, tx, payout, kinds, others, earlyCount);
      });
    } catch (err) {
      // Another process signed this payout first; its transactions are the ones to drive.
      if (uniqueViolation(err) === LIVE_KEY) return;
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

  /**
   * A payout already confirmed (its submission approved, its bounty done) whose mined transaction
   * a reorg took back and whose nonce another transaction then used, or whose bytes sent again
   * then reverted: it is owed again, so its lost kind is signed at a fresh nonce, after the funds
   * reservation (a refusal throws and is tried again on the next pass).
   */
  async resignConfirmed(payoutId: string): Promise<void> {
    const { db } = this.deps;
    try {
      await db.transaction(async (tx) => {
        const payout = await repo.findById(tx, payoutId);
        if (!payout) return;
        await lockFunds(tx, payout.tokenAddress, payout.fromAddress);
        if ((await repo.lockById(tx, payout.id))?.status !== 'confirmed') return;
        // A confirmed payout's kind without a live transaction lost its transfer.
        const missing = missingKinds(await legsOf(this.deps, tx, payout.id), true);
        if (missing.length === 0) return;
        const others = await inFlight(tx, payout.tokenAddress, payout.fromAddress, payout.submissionId);
        await reserveAndSign(this.deps, tx, payout, missing, others, countEarly(this.deps));
      });
    } catch (err) {
      if (uniqueViolation(err) !== LIVE_KEY) throw err;
    }
    await this.push(payoutId);
  }

  /**
   * Confirmed payouts that lost a transfer for good (their failed transaction at or below
   * `finalAt`): each signed again at a fresh nonce, on every pass until the funds reservation lets
   * it, so a founder short of funds at that moment only delays it. How many were signed again.
   */
  async resignLost(finalAt: bigint): Promise<number> {
    let signed = 0;
    // A batch a pass, in turn: payouts waiting for their founder's funds never hold back the others.
    const batch = await this.lostPages.next(
      50,
      (after, n) => repo.confirmedWithLostKind(this.deps.db, finalAt, after, n),
      (id) => id,
    );
    for (const payoutId of batch) {
      try {
        await this.resignConfirmed(payoutId);
        this.shortLogged.forget(payoutId);
        signed++;
      } catch (err) {
        // A founder short of funds is a state that lasts, not a fault: said once a minute, not per pass.
        if (err instanceof AppError && err.code === 'insufficient_funds') {
          if (!this.shortLogged.due(payoutId, this.deps.clock.now().getTime())) continue;
          this.deps.log.warn(
            { payout: payoutId, reason: err.message },
            "a paid payout a reorg took back waits for its founder's funds to be signed again",
          );
          continue;
        }
        this.deps.log.error(
          { err, payout: payoutId },
          'a paid payout a reorg took back could not be signed again yet; will retry',
        );
      }
    }
    return signed;
  }

  /**
   * Records what mined for each open transaction of the payout, its receipts read together (a
   * revert only PAYOUT_REVERT_CONFIRMATIONS deep: until then a reorg may still mine it). Nothing is
   * sent: an approval retried after a lost answer uses it before the funds check, so a transaction
   * that mined unrecorded is paid, and one still on its way counts once.
   */
  async settle(payoutId: string): Promise<void> {
    const { db, chain, journal, signer, revertConfirmations } = this.deps;
    const open = (await legsOf(this.deps, db, payoutId)).filter(isOpen);
    if (open.length === 0) return;
    const head = revertConfirmations > 0 ? await signer.headBlock() : 0n;
    await Promise.all(
      open.map(async (leg) => {
        for (const hash of [...leg.hashes].reverse()) {
          const r = await chain.receipt(hash);
          if (!r) continue;
          if (r.status === 'reverted' && head - r.blockNumber < BigInt(revertConfirmations)) return;
          await journal.settle(hash, r);
          return;
        }
      }),
    );
  }

  /** The engine follows the payout's open transactions at once: sent, replaced, settled. */
  private async push(payoutId: string): Promise<void> {
    const open = (await legsOf(this.deps, this.deps.db, payoutId)).filter(isOpen);
    if (open.length > 0) await this.deps.follow(open.map((l) => l.id));
  }

  /** Follows the payout's open transactions until all settle or the time is up. */
  private async await(payoutId: string, waitMs: number): Promise<DriveResult> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      await this.push(payoutId);
      const settled = await legsOf(this.deps, this.deps.db, payoutId);
      const result = outcome(settled);
      // Nothing in flight (signing is off, say): waiting cannot change the answer.
      if (result.status !== 'pending' || Date.now() >= deadline || !settled.some(isOpen)) return result;
      await new Promise((r) => setTimeout(r, this.deps.pollIntervalMs));
    }
  }
}

/**
 * The payout's state from its transactions: every kind paid; failed when nothing is in flight and
 * a kind's latest reverted; otherwise still moving (a dropped one waits to be signed again).
 */
export function outcome(legs: PayoutLeg[]): DriveResult {
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
  // Legs are listed in the order they were signed: a kind's last is its latest.
  const reverted = kinds.filter(
    (k, i) => !paid[i] && legs.filter((l) => l.kind === k).at(-1)?.status === 'reverted',
  );
  if (reverted.length > 0) {
    const what = reverted.includes('payout') ? 'payout' : `${reverted.join(' and ')} transfer`;
    return { status: 'failed', error: `the ${what} reverted` };
  }
  return { status: 'pending' };
}
