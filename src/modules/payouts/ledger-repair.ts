import { bump, capFees, LegBroadcaster, settleFromChain } from './leg-broadcast.ts';
import type { DriverDeps } from './payout-driver.ts';
import * as repo from './payouts.repo.ts';

const maxBig = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * Closes any gap between the ledger and a chain that lost transactions under it (the embedded
 * chain restored from an older state file after a crash, a deep reorg). Every nonce from the
 * chain's next one up to the database's counter is put back on chain, in nonce order:
 *
 * - a leg's stored bytes are broadcast again (a leg recorded as mined whose transaction the chain
 *   no longer has goes back to `sent`: same bytes, same hash, and its receipt is read again);
 * - a reverted leg, or a nonce with no leg, gets a transaction that moves nothing: the reverted
 *   transfer could succeed if mined again, after a new leg of its kind has paid.
 *
 * So no payout waits behind a hole forever, and the counter is never ahead of the chain with holes.
 */
export class LedgerRepair {
  private readonly broadcaster: LegBroadcaster;

  constructor(private readonly deps: DriverDeps) {
    this.broadcaster = new LegBroadcaster(deps);
  }

  /** How many nonces it put back on chain. */
  async run(): Promise<number> {
    const { db, signer, log } = this.deps;
    const chainNonce = await signer.chainNonce();
    // The counter first: every nonce below it was allocated with its leg, in a committed transaction.
    const next = await repo.nextNonceOf(db, signer.address);
    let repaired = 0;
    if (next !== undefined && next > chainNonce) {
      const legs = new Map((await repo.legsFrom(db, signer.address, chainNonce)).map((l) => [l.nonce, l]));
      const attempts = await repo.attemptsOf(
        db,
        [...legs.values()].map((l) => l.id),
      );
      for (let nonce = chainNonce; nonce < next; nonce++) {
        const leg = legs.get(nonce);
        const tried = leg ? attempts.filter((a) => a.legId === leg.id) : [];
        if (leg && leg.status !== 'reverted') {
          if (await this.resend(leg, tried)) repaired++;
        } else {
          await this.fill(nonce, tried[tried.length - 1]);
          repaired++;
        }
      }
      if (repaired > 0)
        log.warn(
          { from: chainNonce, to: next - 1, repaired },
          'payout ledger repaired: the chain had lost transactions',
        );
    }
    await this.settleReopened();
    return repaired;
  }

  /** Broadcasts a lost leg's bytes again; false when the node still has it (queued behind a gap). */
  private async resend(leg: repo.LegRow, tried: repo.AttemptRow[]): Promise<boolean> {
    const { db, signer, clock } = this.deps;
    // Never broadcast: nothing was lost, and the payout's own drive sends it.
    if (leg.status === 'signed') return false;
    const mined = leg.status === 'success' ? tried.filter((a) => a.txHash === leg.txHash) : tried;
    const bytes = mined[mined.length - 1];
    if (!bytes) return false;
    if (await signer.known(bytes.txHash)) return false;
    if (leg.status === 'success') await repo.unsettle(db, leg.id, clock.now());
    await this.broadcaster.send({ ...leg, status: 'sent' }, bytes);
    return true;
  }

  /** A transaction that moves nothing at `nonce`, outbidding any copy of a lost leg still around. */
  private async fill(nonce: number, lastAttempt: repo.AttemptRow | undefined): Promise<void> {
    const { signer, maxFeePerGas, log } = this.deps;
    const quote = await signer.quoteFees();
    const fees = capFees(
      lastAttempt
        ? {
            maxFeePerGas: maxBig(bump(lastAttempt.maxFeePerGas), quote.maxFeePerGas),
            maxPriorityFeePerGas: maxBig(bump(lastAttempt.maxPriorityFeePerGas), quote.maxPriorityFeePerGas),
          }
        : quote,
      maxFeePerGas,
    );
    const signed = await signer.signNonceFiller({ nonce, fees });
    // Not stored: it moves nothing, and any transaction at this nonce does the same job.
    const result = await signer.broadcast(signed.raw);
    log.warn({ nonce, txHash: signed.hash, result }, 'filled a payout nonce the chain had lost');
  }

  /** Receipts of legs sent again for payouts nobody drives any more (already confirmed). */
  private async settleReopened(): Promise<void> {
    const { db, signer, log } = this.deps;
    const legs = await repo.sentLegsOfClosedPayouts(db, signer.address);
    if (legs.length === 0) return;
    const attempts = await repo.attemptsOf(
      db,
      legs.map((l) => l.id),
    );
    for (const leg of legs) {
      const tried = attempts.filter((a) => a.legId === leg.id);
      if (!(await settleFromChain(this.deps, leg, tried))) {
        await this.broadcaster.push([leg]);
        continue;
      }
      if ((await repo.findLeg(db, leg.id))?.status === 'reverted') {
        log.error(
          { leg: leg.id, payout: leg.payoutId },
          'a repaired payout leg reverted; the payout is recorded as paid',
        );
      }
    }
  }
}
