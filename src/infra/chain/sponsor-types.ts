// The wallet and sponsor side of the Chain interface (chain.ts re-exports every type here).

export interface SignedTx {
  hash: string;
  raw: string;
}

export interface TxResult {
  txHash: string;
}

/** A transaction before its nonce: what the engine keeps to sign it again (a fee bump, a lost nonce). */
export interface UnsignedTx {
  to: string;
  data: string;
  valueUnits: bigint;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** A receipt as the engine reads it: enough to settle a request and compute its answer. */
export interface TxReceipt {
  status: 'success' | 'reverted';
  blockNumber: bigint;
  gasPaidUnits: bigint;
  logs: unknown[];
}

/**
 * The transaction engine's handle on one request (the wallets module's journal, bound to who asked,
 * what, which project and the request's Idempotency-Key). The chain adapter prepares and signs;
 * the journal decides the nonce, records before anything is sent, and follows the outcome.
 */
export interface TxJournal {
  /** How long the request may wait for a receipt before it answers 202 (PAYOUT_RECEIPT_TIMEOUT_SECONDS). */
  readonly waitMs: number;
  /** The request's transaction id once recorded (`wtx_…`). */
  readonly intentId: string | null;
  /**
   * Under the signer's nonce lock, shared by every instance: takes the nonce (the stored counter,
   * or the chain's pending count when that is higher), signs at it and records the request and the
   * signed bytes. Resolves once that record is committed; nothing is sent yet. Throws (nothing
   * recorded) when a rule checked under the lock refuses (the sponsored-withdraw quota).
   */
  record(
    signer: string,
    chainNonce: () => Promise<number>,
    sign: (nonce: number) => Promise<SignedTx>,
    unsigned: UnsignedTx,
  ): Promise<SignedTx>;
  /** The node took it. */
  sent(hash: string): Promise<void>;
  /** The node said for certain it will never mine it: the request failed, its nonce is given back. */
  refused(hash: string, reason: string): Promise<void>;
  /** It mined: settles the request (its answer computed from the logs) and returns that answer. */
  mined(hash: string, r: TxReceipt, gasRefundUnits?: bigint): Promise<void>;
}

/**
 * Thrown where a request's transaction may still mine but its answer cannot wait any longer (the
 * receipt timeout, a lost answer from the node): the route answers 202 with the transaction, which
 * the engine follows to its end.
 */
export class TxPending extends Error {
  constructor(
    readonly intentId: string,
    readonly txHash: string,
  ) {
    super(`Transaction ${txHash} is pending.`);
    this.name = 'TxPending';
  }
}

/** What an action costs in ETH and what the wallet has: the facts behind `insufficient_eth`. */
export interface EthShortfall {
  address: string;
  haveUnits: bigint;
  needUnits: bigint;
}

/** A sale the sponsor sends for a wallet without ETH; the curve pays the gas back out of it. */
export interface SponsoredSaleQuote {
  /** What the sale pays before the gas refund (the curve's fee deducted). */
  proceedsUnits: bigint;
  /** What its gas should cost at today's base fee, with room for a rise: what the sale must cover. */
  gasUnits: bigint;
}

/**
 * The platform's sponsor key: sends the signed sale or transfer of an in-app wallet that holds no
 * ETH and pays its gas (a sale pays it back). Absent (`address` null) when none is configured.
 */
export interface SponsorActions {
  readonly address: string | null;
  balance(): Promise<bigint>;
  /**
   * A sponsored sale's call data signed again by its holder for higher fees: the same authorization
   * (same nonce and deadline, so at most one of the two executes) with a gas cap (`maxGasFee`) that
   * covers `maxFeePerGas`, within the proceeds above the holder's minimum.
   */
  reauthorizeSale(key: string, curveAddress: string, data: string, maxFeePerGas: bigint): Promise<string>;
  /** Null when the project's contracts predate signed sales (no sponsoring possible). */
  quoteSale(key: string, curveAddress: string, tokensUnits: bigint): Promise<SponsoredSaleQuote | null>;
  sell(
    key: string,
    curveAddress: string,
    tokensUnits: bigint,
    minEthUnits: bigint,
    journal: TxJournal,
  ): Promise<TxResult & { ethUnits: bigint; gasEthUnits: bigint }>;
  /** Null result: the token predates signed transfers. */
  sendToken(
    key: string,
    tokenAddress: string,
    to: string,
    amountUnits: bigint,
    journal: TxJournal,
  ): Promise<(TxResult & { gasEthUnits: bigint }) | null>;
}
