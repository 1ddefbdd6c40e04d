import { outbid } from '../../infra/chain/tx-node.ts';
import { LegBroadcaster, settleFromChain } from './leg-broadcast.ts';
import type { PayoutDriver } from './payout-driver.ts';
import * as repo from './payouts.repo.ts';
import type { DriverDeps } from './payouts.types.ts';
import * as repairRepo from './repair.repo.ts';
import * as nonces from './signer-nonces.repo.ts';

/**
 * Closes any gap between the ledger and a chain that lost transactions under it (a reorg, the
 * embedded chain restored from an older state file, a node that lost its pool):
 *
 * - mined legs are watched until PAYOUT_CONFIRMATIONS deep: one whose receipt moved is recorded
 *   in its new block; one whose transaction the chain dropped goes back to `sent` and its stored
 *   bytes are broadcast again (same bytes, same hash: it can only pay once);
 * - every nonce from the chain's latest (mined) count up to the database's counter is put back:
 *   a leg the node no longer knows is broadcast again from its stored bytes; a reverted leg gets a
 *   transaction that moves nothing, outbidding any copy of it a node put back in its pool (it could
 *   succeed after a new leg of its kind has paid); a nonce with no leg and nothing pending at it
 *   gets the same, so no payout waits behind a hole.
 */
export class LedgerRepair {
  private readonly broadcaster: LegBroadcaster;

  constructor(
    private readonly deps: DriverDeps,
    private readonly driver: PayoutDriver,
  ) {
    this.broadcaster = new LegBroadcaster(deps);
  }

  /** How many transactions it put back on chain. */
  async run(): Promise<number> {
    const { db, signer, log } = this.deps;
    let repaired = await this.watchUnfinal();
    const [latest, pending] = await Promise.all([signer.chainNonce('latest'), signer.chainNonce('pending')]);
    // The counter first: every nonce below it was allocated with its leg, in a committed transaction.
    const next = await nonces.nextNonceOf(db, signer.address);
    if (next !== undefined && next > latest) {
      const legs = new Map((await repairRepo.legsFrom(db, signer.address, latest)).map((l) => [l.nonce, l]));
      const attempts = await repo.attemptsOf(
        db,
        [...legs.values()].map((l) => l.id),
      );
      let put = 0;
      for (let nonce = latest; nonce < next; nonce++) {
        const leg = legs.get(nonce);
        const tried = leg ? attempts.filter((a) => a.legId === leg.id) : [];
        if (leg && leg.status !== 'reverted' && leg.status !== 'dropped') {
          if (await this.resend(leg, tried)) put++;
        } else if (leg?.status === 'reverted' || nonce >= pending) {
          // Below `pending` without a leg: a transaction the service did not sign waits there.
          if (leg) await repairRepo.forgetRevert(db, leg.id, this.deps.clock.now());
          await this.fill(nonce, tried[tried.length - 1]);
          put++;
        }
      }
      if (put > 0)
        log.warn(
          { from: latest, to: next - 1, repaired: put },
          'payout ledger repaired: the chain had lost transactions',
        );
      repaired += put;
    }
    await this.settleReopened();
    await this.resignLost();
    await this.settleForgotten();
    return repaired;
  }

  /**
   * Reverted legs whose receipt a reorg took away: settled again if their bytes mined after all,
   * dropped once the transaction that filled their nonce is final.
   */
  private async settleForgotten(): Promise<void> {
    const legs = await repairRepo.forgottenReverts(this.deps.db, this.deps.signer.address);
    await this.settleOrDrop(legs, 'success', 'a payout transaction that had reverted mined again and paid');
  }

  /**
   * Settles each leg from its attempts' receipts (logging `alarm` if it settles as `alarming`);
   * an unmined one whose nonce another transaction took is dropped, any other is pushed when
   * `push` (in flight) or left to wait (a forgotten revert is never sent again).
   */
  private async settleOrDrop(
    legs: repo.LegRow[],
    alarming: 'success' | 'reverted',
    alarm: string,
    push = false,
  ): Promise<void> {
    if (legs.length === 0) return;
    const { db, log } = this.deps;
    const attempts = await repo.attemptsOf(
      db,
      legs.map((l) => l.id),
    );
    const triedBy = (l: repo.LegRow) => attempts.filter((a) => a.legId === l.id);
    for (const leg of legs) {
      // A success of a confirmed payout tells the submission its hash (in `settleFromChain`).
      if (await settleFromChain(this.deps, leg, triedBy(leg))) {
        if ((await repo.findLeg(db, leg.id))?.status === alarming) {
          log.error({ leg: leg.id, payout: leg.payoutId }, alarm);
        }
        continue;
      }
      if ((await this.driver.dropTaken([leg], triedBy)) > 0 || !push) continue;
      await this.broadcaster.push([leg]);
    }
  }

  /**
   * Mined legs less than PAYOUT_CONFIRMATIONS deep (or above the head: a chain rolled back) are
   * looked up by hash: a receipt in another block moves the leg; no receipt puts it back in flight.
   */
  private async watchUnfinal(): Promise<number> {
    const { db, signer, clock, confirmations } = this.deps;
    const head = await signer.headBlock();
    const legs = await repairRepo.minedLegsAbove(db, signer.address, head - BigInt(confirmations));
    let put = 0;
    for (const leg of legs) {
      if (!leg.txHash) continue;
      const mined = await signer.mined(leg.txHash);
      if (mined) {
        if (BigInt(leg.blockNumber ?? -1) !== mined.blockNumber) {
          await repairRepo.moveLeg(db, leg.id, mined.blockNumber, clock.now());
        }
        continue;
      }
      if (leg.status === 'reverted') {
        // Never sent again (it could succeed now): the nonce loop below fills its nonce.
        await repairRepo.forgetRevert(db, leg.id, clock.now());
        continue;
      }
      const [bytes] = (await repo.attemptsOf(db, [leg.id])).filter((a) => a.txHash === leg.txHash);
      await repairRepo.unsettle(db, leg.id, clock.now());
      if (bytes && !(await signer.known(bytes.txHash))) {
        await this.broadcaster.send({ ...leg, status: 'sent' }, bytes);
        put++;
      }
      this.deps.log.warn(
        { leg: leg.id, txHash: leg.txHash },
        'a mined payout transaction left the chain; in flight again',
      );
    }
    return put;
  }

  /** Broadcasts a lost leg's bytes again; false when the chain or the node still has it. */
  private async resend(leg: repo.LegRow, tried: repo.AttemptRow[]): Promise<boolean> {
    const { db, signer, clock } = this.deps;
    // Never broadcast: nothing was lost, and the payout's own drive sends it.
    if (leg.status === 'signed') return false;
    const mined = leg.status === 'success' ? tried.filter((a) => a.txHash === leg.txHash) : tried;
    const bytes = mined[mined.length - 1];
    if (!bytes) return false;
    if (leg.status === 'success' && (await signer.mined(bytes.txHash))) return false;
    if (leg.status === 'success') await repairRepo.unsettle(db, leg.id, clock.now());
    if (await signer.known(bytes.txHash)) return false;
    await this.broadcaster.send({ ...leg, status: 'sent' }, bytes);
    return true;
  }

  /** A transaction that moves nothing at `nonce`, outbidding any copy of a lost leg still around. */
  private async fill(nonce: number, lastAttempt: repo.AttemptRow | undefined): Promise<void> {
    const { signer, maxFeePerGas, log } = this.deps;
    const fees = outbid(lastAttempt ?? null, await signer.quoteFees(), maxFeePerGas);
    const signed = await signer.signNonceFiller({ nonce, fees });
    // Not stored: it moves nothing, and any transaction at this nonce does the same job.
    const result = await signer.broadcast(signed.raw);
    log.warn({ nonce, txHash: signed.hash, result }, 'filled a payout nonce the chain had lost');
  }

  /**
   * Legs in flight again for payouts nobody drives any more (already confirmed): their receipts
   * are read; a leg whose nonce another transaction took is dropped (`resignLost` signs the payout
   * again at a fresh nonce); the submission is told the transaction that finally paid.
   */
  private async settleReopened(): Promise<void> {
    const legs = await repairRepo.openLegsOfClosedPayouts(this.deps.db, this.deps.signer.address);
    await this.settleOrDrop(
      legs,
      'reverted',
      'a repaired payout leg reverted: the payout is signed again once that is final and the funds allow',
      true,
    );
  }

  /**
   * Confirmed payouts whose paid transaction a reorg took back and another transaction's nonce
   * replaced, or whose bytes sent again then reverted (the founder's funds moved meanwhile): signed again at a fresh nonce (after the funds reservation), on every pass until one
   * is signed, so a founder short of funds at that moment only delays it.
   */
  private async resignLost(): Promise<void> {
    const { db, signer, log, confirmations, revertConfirmations } = this.deps;
    // A leg whose re-sent bytes reverted once final counts as lost too: its nonce is used, so it
    // can never pay; deep enough that no reorg can bring it back before the new one is signed.
    const finalAt = (await signer.headBlock()) - BigInt(Math.max(confirmations, revertConfirmations));
    for (const payoutId of await repairRepo.confirmedWithLostKind(db, signer.address, finalAt)) {
      try {
        await this.broadcaster.push(await this.driver.resignConfirmed(payoutId));
      } catch (err) {
        log.error(
          { err, payout: payoutId },
          'a paid payout a reorg took back could not be signed again yet; will retry',
        );
      }
    }
  }
}
