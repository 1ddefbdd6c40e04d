import type { FastifyBaseLogger } from 'fastify';
import type { Fees, PayoutSigner } from '../../infra/chain/chain.ts';
import type { Db } from '../../infra/db/client.ts';
import { uniqueViolation } from '../../infra/db/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './payouts.repo.ts';

export const LEG_KINDS = ['contributor', 'fee'] as const;
export type LegKind = (typeof LEG_KINDS)[number];

export type DriveResult =
  | { status: 'confirmed'; contributorTxHash: string; platformFeeTxHash: string }
  | { status: 'failed'; error: string }
  | { status: 'pending' };

export interface DriverDeps {
  db: Db;
  clock: Clock;
  signer: PayoutSigner;
  log: FastifyBaseLogger;
  pollIntervalMs: number;
  stuckAfterMs: number;
}

/** A leg signed but unsent this long belongs to an approval that died before broadcasting it. */
const ORPHAN_AFTER_MS = 2_000;

/** +12.5% (rounded up) clears every node's minimum replacement bump of 10%. */
const bump = (v: bigint) => (v * 1125n + 999n) / 1000n;
const maxBig = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * Drives one payout's legs toward the chain: signs a leg only where none may still move the
 * tokens, stores every signed transaction before broadcasting it, re-broadcasts stored bytes,
 * replaces stuck ones at the same nonce, and records what mined.
 */
export class PayoutDriver {
  constructor(private readonly deps: DriverDeps) {}

  async drive(payoutId: string, waitMs: number): Promise<DriveResult> {
    const payout = await repo.findById(this.deps.db, payoutId);
    if (!payout) throw new Error(`No payout ${payoutId}.`);
    let legs = await this.liveLegs(payoutId);
    const missing = LEG_KINDS.filter((k) => !legs.has(k));
    if (missing.length > 0 && payout.status === 'pending') {
      await this.sign(payout, missing);
      legs = await this.liveLegs(payoutId);
    }
    await this.push([...legs.values()]);
    return this.await(payoutId, waitMs);
  }

  private async liveLegs(payoutId: string): Promise<Map<LegKind, repo.LegRow>> {
    const legs = await repo.legsOf(this.deps.db, payoutId);
    return new Map(legs.filter((l) => l.status !== 'reverted').map((l) => [l.kind as LegKind, l]));
  }

  /** Allocates nonces and stores the signed transfers in one transaction, before any broadcast. */
  private async sign(payout: repo.PayoutRow, kinds: LegKind[]): Promise<void> {
    const { db, clock, signer } = this.deps;
    // The counter is seeded from the chain once; after that the database owns the nonces.
    if (!(await repo.hasNonceCounter(db, signer.address))) {
      await repo.seedNonce(db, signer.address, await signer.chainNonce());
    }
    const fees = await signer.quoteFees();
    const now = clock.now();
    try {
      await db.transaction(async (tx) => {
        // A reject holds this lock too: a payout it closed is never signed afterwards.
        const locked = await repo.lockById(tx, payout.id);
        if (locked?.status !== 'pending') return;
        for (const kind of kinds) {
          const nonce = await repo.allocateNonce(tx, signer.address);
          const to = kind === 'contributor' ? payout.contributorAddress : payout.treasuryAddress;
          const amountUnits = kind === 'contributor' ? payout.contributorUnits : payout.feeUnits;
          const signed = await signer.signTransferFrom({
            tokenAddress: payout.tokenAddress,
            from: payout.fromAddress,
            to,
            amountUnits,
            nonce,
            fees,
          });
          const legId = newId('leg');
          await repo.insertLeg(
            tx,
            {
              id: legId,
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
            },
            this.attempt(legId, signed, fees, now),
          );
        }
      });
    } catch (err) {
      // Another process signed this payout's legs first; its legs are the ones to drive.
      if (uniqueViolation(err) !== 'payout_legs_live_key') throw err;
    }
  }

  private attempt(
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

  /** Broadcasts (or re-broadcasts) each unsettled leg's latest attempt, back to back in nonce order. */
  private async push(legs: repo.LegRow[]): Promise<void> {
    const { db, clock, signer, log, stuckAfterMs } = this.deps;
    const mine = legs.filter((l) => l.status === 'signed' || l.status === 'sent');
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
      let latest = tried[tried.length - 1];
      if (!latest) continue;
      // A leg never marked sent may still have reached the node (a crash between broadcast and
      // bookkeeping); re-sending the same bytes is harmless and its receipt is read below.
      if (leg.status === 'sent' && (await this.settleFromChain(leg, tried))) continue;
      const now = clock.now();
      if (latest.broadcastAt && now.getTime() - latest.broadcastAt.getTime() > stuckAfterMs) {
        latest = await this.replace(leg, latest);
      } else if (latest.broadcastAt && (await signer.known(latest.txHash))) {
        continue;
      }
      const result = await signer.broadcast(latest.rawTx);
      if (result === 'nonce_used') {
        log.warn({ leg: leg.id, nonce: leg.nonce }, 'payout nonce already used; waiting for its receipt');
      }
      await repo.markBroadcast(db, leg, latest.txHash, clock.now());
    }
  }

  /** A stuck transaction replaced at the same nonce with fees raised by at least 10%. */
  private async replace(leg: repo.LegRow, old: repo.AttemptRow): Promise<repo.AttemptRow> {
    const { db, clock, signer, log } = this.deps;
    const quote = await signer.quoteFees();
    const fees = {
      maxFeePerGas: maxBig(bump(old.maxFeePerGas), quote.maxFeePerGas),
      maxPriorityFeePerGas: maxBig(bump(old.maxPriorityFeePerGas), quote.maxPriorityFeePerGas),
    };
    const payout = await repo.findById(db, leg.payoutId);
    if (!payout) throw new Error(`No payout ${leg.payoutId}.`);
    const signed = await signer.signTransferFrom({
      tokenAddress: payout.tokenAddress,
      from: payout.fromAddress,
      to: leg.toAddress,
      amountUnits: leg.amountUnits,
      nonce: leg.nonce,
      fees,
    });
    const attempt = this.attempt(leg.id, signed, fees, clock.now());
    await repo.insertAttempt(db, attempt);
    log.info(
      { leg: leg.id, nonce: leg.nonce, replaces: old.txHash, txHash: signed.hash },
      'replacing a stuck payout',
    );
    return attempt;
  }

  /** Settles the leg if any of its attempts mined; true when it did. */
  private async settleFromChain(leg: repo.LegRow, attempts: repo.AttemptRow[]): Promise<boolean> {
    for (const a of attempts) {
      const mined = await this.deps.signer.mined(a.txHash);
      if (mined) {
        await repo.settleLeg(
          this.deps.db,
          leg.id,
          mined.status,
          a.txHash,
          mined.blockNumber,
          this.deps.clock.now(),
        );
        return true;
      }
    }
    return false;
  }

  /**
   * Records what mined for each unsettled leg, its receipts read together. An approval retried
   * after a lost answer uses it before the funds check: a leg that mined unrecorded is paid.
   */
  async settle(payoutId: string): Promise<void> {
    const legs = await repo.legsOf(this.deps.db, payoutId);
    const open = legs.filter((l) => l.status === 'signed' || l.status === 'sent');
    if (open.length === 0) return;
    const attempts = await repo.attemptsOf(
      this.deps.db,
      open.map((l) => l.id),
    );
    await Promise.all(
      open.map((l) =>
        this.settleFromChain(
          l,
          attempts.filter((a) => a.legId === l.id),
        ),
      ),
    );
  }

  /** Polls every unsettled leg until all settle or the time is up; receipts are awaited together. */
  private async await(payoutId: string, waitMs: number): Promise<DriveResult> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      await this.settle(payoutId);
      const settled = await repo.legsOf(this.deps.db, payoutId);
      const result = outcome(settled);
      if (result.status !== 'pending' || Date.now() >= deadline) return result;
      await new Promise((r) => setTimeout(r, this.deps.pollIntervalMs));
    }
  }
}

/** The payout's state from its legs: both kinds paid, a live leg reverted, or still moving. */
export function outcome(legs: repo.LegRow[]): DriveResult {
  const success = new Map(legs.filter((l) => l.status === 'success').map((l) => [l.kind, l]));
  const contributor = success.get('contributor');
  const fee = success.get('fee');
  if (contributor?.txHash && fee?.txHash) {
    return { status: 'confirmed', contributorTxHash: contributor.txHash, platformFeeTxHash: fee.txHash };
  }
  const live = legs.filter((l) => l.status !== 'reverted');
  const liveKinds = new Set(live.map((l) => l.kind));
  const reverted = legs.filter((l) => l.status === 'reverted' && !liveKinds.has(l.kind));
  if (reverted.length > 0 && live.every((l) => l.status === 'success')) {
    return { status: 'failed', error: `the ${reverted.map((l) => l.kind).join(' and ')} transfer reverted` };
  }
  return { status: 'pending' };
}
