import type { Fees, PayoutSigner, SignedTx } from '../../infra/chain/chain.ts';
import { replacementFees } from '../../infra/chain/tx-node.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './payouts.repo.ts';
import type { DriverDeps, LegKind } from './payouts.types.ts';

/** A leg signed but unsent this long belongs to an approval that died before broadcasting it. */
const ORPHAN_AFTER_MS = 2_000;
/** Fee raises per leg and pass when the node refuses a leg's fees; the next pass goes on. */
const UNDERPRICED_ROUNDS = 3;

export const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function attemptRow(
  legId: string,
  signed: { hash: string; raw: string },
  fees: Fees,
  now: Date,
): repo.AttemptRow {
  return {
    txHash: signed.hash,
    legId,
    rawTx: signed.raw,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    createdAt: now,
    broadcastAt: null,
  };
}

/**
 * Signs one leg's transaction at `nonce`. Kind `payout`: one router call that transfers reward
 * minus fee to the contributor and the fee to the treasury, both or neither. Kinds `contributor`
 * and `fee` (payouts signed before the router): one transferFrom each.
 */
export function signLegTx(
  signer: PayoutSigner,
  payout: repo.PayoutRow,
  leg: Pick<repo.LegRow, 'kind' | 'toAddress' | 'amountUnits' | 'nonce'>,
  fees: Fees,
): Promise<SignedTx> {
  const common = { tokenAddress: payout.tokenAddress, from: payout.fromAddress, nonce: leg.nonce, fees };
  if (leg.kind === 'payout') {
    return signer.signPayout({
      ...common,
      to: leg.toAddress,
      amountUnits: leg.amountUnits,
      feeUnits: payout.feeUnits,
    });
  }
  return signer.signTransferFrom({ ...common, to: leg.toAddress, amountUnits: leg.amountUnits });
}

/**
 * Signs one leg of a payout at `nonce`, and returns it with its first attempt, both for the caller
 * to store before anything is broadcast.
 */
export async function signLeg(
  signer: PayoutSigner,
  payout: repo.PayoutRow,
  kind: LegKind,
  nonce: number,
  fees: Fees,
  now: Date,
): Promise<{ leg: repo.LegRow; attempt: repo.AttemptRow }> {
  const to = kind === 'fee' ? payout.treasuryAddress : payout.contributorAddress;
  const amountUnits = kind === 'fee' ? payout.feeUnits : payout.contributorUnits;
  const signed = await signLegTx(signer, payout, { kind, toAddress: to, amountUnits, nonce }, fees);
  const id = newId('leg');
  const leg: repo.LegRow = {
    id,
    payoutId: payout.id,
    kind,
    signer: signer.address,
    nonce,
    toAddress: to,
    amountUnits,
    status: 'signed',
    txHash: null,
    blockNumber: null,
    createdAt: now,
    updatedAt: now,
  };
  return { leg, attempt: attemptRow(id, signed, fees, now) };
}

/**
 * Settles the leg if any of its attempts mined; true when one did. A reverted receipt counts only
 * `revertConfirmations` blocks deep: until then a reorg may still mine the transfer, so the leg
 * stays sent (and is neither replaced nor followed by a new leg).
 */
export async function settleFromChain(
  deps: DriverDeps,
  leg: repo.LegRow,
  attempts: repo.AttemptRow[],
): Promise<boolean> {
  const { db, signer, clock, revertConfirmations } = deps;
  for (const a of attempts) {
    const mined = await signer.mined(a.txHash);
    if (!mined) continue;
    if (mined.status === 'reverted' && revertConfirmations > 0) {
      const depth = (await signer.headBlock()) - mined.blockNumber;
      if (depth < BigInt(revertConfirmations)) return true;
    }
    const settled = await repo.settleLeg(db, leg.id, mined.status, a.txHash, mined.blockNumber, clock.now());
    // A payout already confirmed (a reorg took its transaction back) is paid by this one now.
    if (
      settled &&
      mined.status === 'success' &&
      (await repo.findById(db, leg.payoutId))?.status === 'confirmed'
    ) {
      await deps.onRepaid?.(leg.payoutId, leg.kind as LegKind, a.txHash);
    }
    return true;
  }
  return false;
}

/**
 * Puts a payout's signed legs on the chain: broadcasts (or re-broadcasts) each unsettled leg's
 * latest attempt in nonce order, replaces stuck or underpriced ones at the same nonce under the
 * fee cap, and never touches a leg signed by another key.
 */
export class LegBroadcaster {
  constructor(private readonly deps: DriverDeps) {}

  async push(legs: repo.LegRow[]): Promise<void> {
    const { db, clock, signer, log, stuckAfterMs } = this.deps;
    const unsettled = legs.filter((l) => l.status === 'signed' || l.status === 'sent');
    const mine = unsettled.filter((l) => sameAddress(l.signer, signer.address));
    for (const l of unsettled.filter((x) => !mine.includes(x))) {
      // Another key's transaction at another key's nonce: replacing it from here would let both land.
      log.warn(
        { leg: l.id, signer: l.signer, nonce: l.nonce },
        'payout leg signed by another payout key; left to an instance with that key',
      );
    }
    if (mine.length === 0) return;
    // Another payout's leg signed below ours but never sent (its request died) would hold ours
    // in the node's queue: send it first.
    // Only legs left unsent for a while: a live approval broadcasts its own within milliseconds.
    const stale = new Date(clock.now().getTime() - ORPHAN_AFTER_MS);
    const backlog = await repo.unsentBelow(db, signer.address, Math.max(...mine.map((l) => l.nonce)), stale);
    const ids = new Set(mine.map((l) => l.id));
    const open = [...mine, ...backlog.filter((l) => !ids.has(l.id))].sort((a, b) => a.nonce - b.nonce);
    const attempts = await repo.attemptsOf(
      db,
      open.map((l) => l.id),
    );
    for (const leg of open) {
      const tried = attempts.filter((a) => a.legId === leg.id);
      const latest = tried[tried.length - 1];
      if (!latest) continue;
      // A leg never marked sent may still have reached the node (a crash between broadcast and
      // bookkeeping); re-sending the same bytes is harmless and its receipt is read below.
      if (leg.status === 'sent' && (await settleFromChain(this.deps, leg, tried))) continue;
      const now = clock.now();
      let next = latest;
      if (latest.broadcastAt && now.getTime() - latest.broadcastAt.getTime() > stuckAfterMs) {
        next = (await this.replace(leg, latest, 'stuck')) ?? latest;
      }
      if (next === latest && latest.broadcastAt && (await signer.known(latest.txHash))) continue;
      await this.send(leg, next);
    }
  }

  /** Broadcasts one attempt; bytes the node refuses as underpriced are replaced with higher fees. */
  async send(leg: repo.LegRow, attempt: repo.AttemptRow): Promise<void> {
    const { db, clock, signer, log } = this.deps;
    let current = attempt;
    for (let round = 0; ; round++) {
      const result = await signer.broadcast(current.rawTx);
      if (result === 'underpriced') {
        const higher = round < UNDERPRICED_ROUNDS ? await this.replace(leg, current, 'underpriced') : null;
        if (higher) {
          current = higher;
          continue;
        }
        log.warn({ leg: leg.id, nonce: leg.nonce }, 'the node refuses the payout fees; will retry');
        return;
      }
      if (result === 'nonce_used') {
        log.warn({ leg: leg.id, nonce: leg.nonce }, 'payout nonce already used; waiting for its receipt');
      }
      await repo.markBroadcast(db, leg, current.txHash, clock.now());
      return;
    }
  }

  /** A new attempt at the leg's nonce with fees raised by at least 10%; null when capped. */
  private async replace(
    leg: repo.LegRow,
    old: repo.AttemptRow,
    why: 'stuck' | 'underpriced',
  ): Promise<repo.AttemptRow | null> {
    const { db, clock, signer, log, maxFeePerGas } = this.deps;
    if (!sameAddress(leg.signer, signer.address)) throw new Error(`Leg ${leg.id} belongs to ${leg.signer}.`);
    const fees = replacementFees(old, await signer.quoteFees(), maxFeePerGas);
    if (!fees) {
      log.warn(
        {
          leg: leg.id,
          nonce: leg.nonce,
          maxFeePerGas: old.maxFeePerGas.toString(),
          cap: maxFeePerGas.toString(),
        },
        'a payout replacement would pass PAYOUT_MAX_FEE_PER_GAS_GWEI; keeping the last attempt',
      );
      return null;
    }
    const payout = await repo.findById(db, leg.payoutId);
    if (!payout) throw new Error(`No payout ${leg.payoutId}.`);
    const signed = await signLegTx(signer, payout, leg, fees);
    const attempt = attemptRow(leg.id, signed, fees, clock.now());
    await repo.insertAttempt(db, attempt);
    log.info(
      { leg: leg.id, nonce: leg.nonce, replaces: old.txHash, txHash: signed.hash, why },
      'replacing a payout transaction',
    );
    return attempt;
  }
}
