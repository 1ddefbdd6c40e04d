// The wallet and sponsor side of the Chain interface (chain.ts re-exports every type here).

export interface SignedTx {
  hash: string;
  raw: string;
}

export interface TxResult {
  txHash: string;
}

/**
 * How a wallet transaction gets its nonce and is recorded before it is sent (the wallets module's
 * journal, bound to one action: who, what, which project).
 */
export interface TxJournal {
  /**
   * Under the signer's nonce lock, shared by every instance: takes the nonce (the stored counter,
   * or the chain's pending count when that is higher), signs at it and records the signed bytes.
   * Resolves once that record is committed; nothing is sent yet.
   */
  record(
    signer: string,
    chainNonce: () => Promise<number>,
    sign: (nonce: number) => Promise<SignedTx>,
  ): Promise<SignedTx>;
  /** The node took it. */
  sent(hash: string): Promise<void>;
  /** The node refused it: nothing will mine, and its nonce is given back if no later one was taken. */
  refused(hash: string): Promise<void>;
  /** It mined: its status and what its gas cost the signer (and, for a sale, what it paid back). */
  mined(
    hash: string,
    r: { status: 'success' | 'reverted'; gasPaidUnits: bigint; gasRefundUnits?: bigint },
  ): Promise<void>;
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
