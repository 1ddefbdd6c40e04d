import type { BroadcastResult, Fees, MinedTx } from '../../../src/infra/chain/chain.ts';
import { lower, type TokenLedger } from './ledger.ts';
import { decode, type FakeTx, hashOf } from './raw-tx.ts';

/**
 * A mined transfer: what a block explorer would show for it. Addresses are lowercase. A router
 * payout shows as its reward transfer and, with a fee, its fee transfer: one hash, one nonce.
 */
export interface FakeTransfer {
  tokenAddress: string;
  from: string;
  to: string;
  amountUnits: bigint;
  hash: string;
  nonce: number;
  status: 'success' | 'reverted';
  blockNumber: bigint;
}

/** The knobs of the node's failures, as the test sets them on the chain. One-shot ones clear when used. */
export interface NodeFaults {
  /** The next transfer to mine reverts whatever the funds. */
  revertNext: boolean;
  /** The next transfer to this address to mine reverts. */
  revertNextTo: string | null;
  /** While true, no receipt is reported. */
  holdReceipts: boolean;
  /** A receipt is reported only this long (wall clock) after its transaction mined. */
  receiptDelayMs: number;
  /** Fee caps below it are refused; fee quotes follow it. */
  baseFeePerGas: bigint;
}

interface Receipt {
  mined: MinedTx;
  /** Wall-clock time (ms) from which `mined()` reports the receipt. */
  visibleAt: number;
}

const FIXED_FEES: Fees = { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };

/** Where a signer's transaction waits for its nonce gap to fill. */
const slot = (signer: string, nonce: number) => `${lower(signer)}:${nonce}`;

/** A replacement at a nonce must raise both fees by at least 10%, as geth and anvil require. */
const outbids = (next: FakeTx, old: FakeTx) =>
  next.maxFeePerGas * 10n >= old.maxFeePerGas * 11n &&
  next.maxPriorityFeePerGas * 10n >= old.maxPriorityFeePerGas * 11n;

/**
 * The node's transaction pool and mining: signed transactions broadcast to it mine in nonce order
 * (later nonces wait until the gap fills), each in a block of its own on the ledger, and are
 * answered with receipts. It answers broadcasts as a node does ('accepted', 'nonce_used',
 * 'underpriced') and fails as the `faults` knobs say.
 */
export class FakeNode {
  /** Every transfer that mined, successful or reverted, in block order. */
  readonly transfers: FakeTransfer[] = [];
  /** The next nonce of each signer (lowercase address). */
  private readonly nonces = new Map<string, number>();
  /** Every mined transaction's signer, nonce and block, in block order: the nonce at a past block. */
  private readonly minedNonces: { signer: string; nonce: number; block: bigint }[] = [];
  /** Transactions waiting for a nonce gap to fill, by signer and nonce. */
  private readonly pool = new Map<string, { tx: FakeTx; hash: string }>();
  private readonly receipts = new Map<string, Receipt>();
  private readonly seen = new Set<string>();

  constructor(
    private readonly ledger: TokenLedger,
    private readonly faults: NodeFaults,
    /** Where a router payout's fee goes. */
    private readonly payouts: { readonly treasuryAddress: string },
  ) {}

  nonceOf(signer: string): number {
    return this.nonces.get(lower(signer)) ?? 0;
  }

  /** The signer's next nonce as of a block: one past the last it mined up to that block. */
  nonceAt(signer: string, block: bigint): number {
    let next = 0;
    for (const m of this.minedNonces) {
      if (m.block <= block && m.signer === lower(signer)) next = Math.max(next, m.nonce + 1);
    }
    return next;
  }

  /** Whether the node has this transaction (waiting or mined). */
  known(hash: string): boolean {
    return this.seen.has(lower(hash));
  }

  /** The fee quote: twice the base fee plus the tip, or the fixed fees when more. */
  quoteFees(): Fees {
    const following = this.faults.baseFeePerGas * 2n + FIXED_FEES.maxPriorityFeePerGas;
    return {
      maxFeePerGas: following > FIXED_FEES.maxFeePerGas ? following : FIXED_FEES.maxFeePerGas,
      maxPriorityFeePerGas: FIXED_FEES.maxPriorityFeePerGas,
    };
  }

  /** Takes a broadcast transaction: mines it (and what waited behind it) when its nonce is next. */
  accept(raw: string): BroadcastResult {
    const tx = decode(raw);
    const hash = hashOf(raw);
    if (this.seen.has(hash)) return 'accepted';
    const expected = this.nonceOf(tx.signer);
    if (tx.nonce < expected) return 'nonce_used';
    // A node refuses a fee cap below the base fee, and a replacement that does not outbid.
    if (tx.maxFeePerGas < this.faults.baseFeePerGas) return 'underpriced';
    const waiting = this.pool.get(slot(tx.signer, tx.nonce));
    if (waiting && !outbids(tx, waiting.tx)) return 'underpriced';
    if (tx.nonce > expected) {
      if (waiting) this.seen.delete(waiting.hash);
      this.pool.set(slot(tx.signer, tx.nonce), { tx, hash });
      this.seen.add(hash);
      return 'accepted';
    }
    this.seen.add(hash);
    this.mine(tx, hash);
    for (
      let next = this.pool.get(slot(tx.signer, this.nonceOf(tx.signer)));
      next;
      next = this.pool.get(slot(tx.signer, this.nonceOf(tx.signer)))
    ) {
      this.pool.delete(slot(tx.signer, next.tx.nonce));
      this.mine(next.tx, next.hash);
    }
    return 'accepted';
  }

  /** The receipt of a mined transaction, once it is visible and unless receipts are held. */
  mined(hash: string): MinedTx | null {
    if (this.faults.holdReceipts) return null;
    const r = this.receipts.get(lower(hash));
    if (!r || Date.now() < r.visibleAt) return null;
    return { ...r.mined };
  }

  /** The returned function rolls nonces, pool, receipts and mined transfers back to now. */
  snapshot(): () => void {
    const nonces = new Map(this.nonces);
    const pool = new Map(this.pool);
    const receipts = new Map(this.receipts);
    const seen = new Set(this.seen);
    const transfers = this.transfers.length;
    const minedNonces = this.minedNonces.length;
    return () => {
      const reset = <K, V>(m: Map<K, V>, from: Map<K, V>) => {
        m.clear();
        for (const [k, v] of from) m.set(k, v);
      };
      reset(this.nonces, nonces);
      reset(this.pool, pool);
      reset(this.receipts, receipts);
      this.seen.clear();
      for (const h of seen) this.seen.add(h);
      this.transfers.splice(transfers);
      this.minedNonces.splice(minedNonces);
    };
  }

  /**
   * Executes the transferFrom or the router payout: it reverts when the founder's balance or
   * allowance falls short of all it moves (a payout's amount plus fee), and then moves nothing.
   */
  private mine(tx: FakeTx, hash: string): void {
    this.nonces.set(lower(tx.signer), tx.nonce + 1);
    this.ledger.block += 1n;
    const block = this.ledger.block;
    this.minedNonces.push({ signer: lower(tx.signer), nonce: tx.nonce, block });
    if (tx.filler) {
      this.receipts.set(hash, { mined: { status: 'success', blockNumber: block }, visibleAt: Date.now() });
      return;
    }
    // A router payout's transfers: the reward, then the fee when there is one.
    const moves: [to: string, units: bigint][] = [[tx.to, tx.amountUnits]];
    if (tx.feeUnits) moves.push([lower(this.payouts.treasuryAddress), tx.feeUnits]);
    const target = this.faults.revertNextTo === null ? null : lower(this.faults.revertNextTo);
    const forced = this.faults.revertNext || moves.some(([to]) => to === target);
    if (this.faults.revertNext) this.faults.revertNext = false;
    else if (forced) this.faults.revertNextTo = null;
    const paid = !forced && this.ledger.pay(tx.tokenAddress, tx.from, moves);
    const status = paid ? 'success' : 'reverted';
    for (const [to, units] of moves) {
      this.transfers.push({
        tokenAddress: tx.tokenAddress,
        from: tx.from,
        to,
        amountUnits: units,
        hash,
        nonce: tx.nonce,
        status,
        blockNumber: block,
      });
    }
    this.receipts.set(hash, {
      mined: { status, blockNumber: block },
      visibleAt: Date.now() + this.faults.receiptDelayMs,
    });
  }
}
