import type {
  SignedTx,
  SponsorActions,
  TxJournal,
  TxReceipt,
  TxResult,
  UnsignedTx,
} from './sponsor-types.ts';

export type {
  EthShortfall,
  SignedTx,
  SponsorActions,
  SponsoredSaleQuote,
  TxJournal,
  TxReceipt,
  TxResult,
  UnsignedTx,
} from './sponsor-types.ts';
export { TxPending } from './sponsor-types.ts';

/** Project tokens are ERC-20s with 18 decimals; rewards are whole tokens. */
export const TOKEN_DECIMALS = 18;
const UNIT = 10n ** BigInt(TOKEN_DECIMALS);

export const tokensToUnits = (whole: number | bigint): bigint => BigInt(whole) * UNIT;

/** Whole tokens as a decimal string, exact: 1500000000000000000 units -> "1.5". */
export function unitsToTokens(units: bigint): string {
  const neg = units < 0n;
  const abs = neg ? -units : units;
  const whole = abs / UNIT;
  const frac = (abs % UNIT).toString().padStart(TOKEN_DECIMALS, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

export interface TokenFunds {
  balanceUnits: bigint;
  /** What the owner lets the platform's payout spender (the payout router) move. */
  allowanceUnits: bigint;
}

export interface PublicChainInfo {
  id: number;
  name: string;
  /** The RPC URL clients may use; never the service's own, which may carry a provider's API key. */
  publicRpcUrl: string | null;
  explorerUrl: string | null;
  factoryAddress: string | null;
  /** Deploys project contracts (and funds the dev faucet): a platform address, never an agent's. */
  operatorAddress: string | null;
  /**
   * What founders approve on their project token: the payout router, which pays reward and fee in
   * one transaction. Not the payout key, which only calls the router.
   */
  payoutSpenderAddress: string | null;
  treasuryAddress: string | null;
  devChain: boolean;
}

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface MinedTx {
  status: 'success' | 'reverted';
  blockNumber: bigint;
}

/**
 * What broadcasting a stored transaction told us: the node took it (or already had it), the
 * nonce is already used on chain (by this transaction or, if no receipt says so, by another), or
 * the node refuses its fees (underpriced, a replacement bumped too little, a fee cap below the
 * block's base fee): only a new attempt at the same nonce with higher fees can move it.
 */
export type BroadcastResult = 'accepted' | 'nonce_used' | 'underpriced';

/**
 * The platform payout wallet, as the payout workflow drives it: transactions are signed locally
 * at a nonce the workflow chose and stored, then broadcast and tracked by hash.
 */
export interface PayoutSigner {
  readonly address: string;
  /** The payout router this key pays through: the spender founders approve. */
  readonly routerAddress: string;
  /**
   * The payout key itself, for the transaction engine to sign with (`WalletActions.signTx`): it
   * never leaves the service. Empty when no chain is configured.
   */
  readonly key: string;
  /**
   * The call of one router `pay`: amountUnits to `to` and feeUnits to the treasury, from `from`,
   * in one transaction that moves both or neither. Unsigned; no I/O.
   */
  payCall(t: { tokenAddress: string; from: string; to: string; amountUnits: bigint; feeUnits: bigint }): Call;
  /**
   * The call of a plain ERC-20 transferFrom by the payout key: a leg of a two-transaction payout
   * signed before the router existed (it needs the founder's allowance for the payout key itself).
   */
  transferFromCall(t: { tokenAddress: string; from: string; to: string; amountUnits: bigint }): Call;
  /** The number of the latest block, to count the confirmations of a receipt. */
  headBlock(): Promise<bigint>;
}

/** A contract call to sign: where to, its data, and a gas limit fixed so signing needs no I/O. */
export interface Call {
  to: string;
  data: string;
  gas: bigint;
}

/**
 * A Transfer or Approval log of a project token, as the payability watcher reads them: addresses
 * checksummed, only logs of mined blocks.
 */
export type FundsLog =
  | { kind: 'transfer'; tokenAddress: string; from: string; to: string; blockNumber: bigint }
  | { kind: 'approval'; tokenAddress: string; owner: string; spender: string; blockNumber: bigint };

/**
 * A linear bonding curve as the contract defines it: price per whole token at supply x (base
 * units) is a + b * x / 1e18 wei; with the token's supply, every quote follows exactly.
 */
export interface CurveState {
  a: bigint;
  b: bigint;
  supplyUnits: bigint;
}

/**
 * The latest round of a Chainlink-style aggregator (AggregatorV3Interface) as the feed states it:
 * `answer` scaled by 10^`decimals`, `updatedAt` in seconds since the epoch. Whether it is a usable
 * price (positive, recent enough) is the reader's rule (modules/prices).
 */
export interface FeedRound {
  answer: bigint;
  decimals: number;
  updatedAt: bigint;
}

export interface DeployedProject {
  tokenAddress: string;
  curveAddress: string;
}

/**
 * Actions an in-app (custodial) wallet takes; the service signs with the agent's key. With a
 * journal, the nonce comes from the database and the transaction is recorded before it is sent.
 * A wallet whose ETH cannot pay the value and the gas gets `insufficient_eth` before anything is
 * signed.
 */
export interface WalletActions {
  /** At the head, or at `blockNumber` (the holdings module stores it with that block). */
  ethBalance(address: string, blockNumber?: bigint): Promise<bigint>;
  tokenBalance(tokenAddress: string, owner: string): Promise<bigint>;
  buy(
    key: string,
    curveAddress: string,
    ethUnits: bigint,
    minTokensUnits: bigint,
    journal?: TxJournal,
  ): Promise<TxResult & { tokensUnits: bigint }>;
  sell(
    key: string,
    curveAddress: string,
    tokensUnits: bigint,
    minEthUnits: bigint,
    journal?: TxJournal,
  ): Promise<TxResult & { ethUnits: bigint }>;
  /** Sets the allowance of the platform's payout spender (the payout router) on a token. */
  approvePayouts(
    key: string,
    tokenAddress: string,
    amountUnits: bigint,
    journal?: TxJournal,
  ): Promise<TxResult & { allowanceUnits: bigint }>;
  sendToken(
    key: string,
    tokenAddress: string,
    to: string,
    amountUnits: bigint,
    journal?: TxJournal,
  ): Promise<TxResult>;
  sendEth(key: string, to: string, amountUnits: bigint, journal?: TxJournal): Promise<TxResult>;
  /** Balances of (token, holder) pairs at one block, read in one round trip. */
  readBalances(pairs: { tokenAddress: string; holder: string }[], blockNumber: bigint): Promise<bigint[]>;
  /**
   * The next nonce of an address counting pending transactions ('pending'), mined ones ('latest'),
   * or those mined by a block (a final one).
   */
  nonceOf(address: string, at: 'pending' | 'latest' | bigint): Promise<number>;
  /** `no_funds`: the node refused for certain (the signer cannot pay); a throw: outcome unknown. */
  broadcast(raw: string): Promise<BroadcastResult | 'no_funds'>;
  /** The receipt of a mined transaction with its logs, or null while it is not mined. */
  receipt(hash: string): Promise<TxReceipt | null>;
  /** True when the node knows the transaction (in its pool or mined). */
  known(hash: string): Promise<boolean>;
  headBlock(): Promise<bigint>;
  /** The hash of the block at `blockNumber` on the node's chain now, or null past its head. */
  blockHash(blockNumber: bigint): Promise<string | null>;
  quoteFees(): Promise<Fees>;
  /**
   * A dry run against the pending state (what the pool holds counts) or the latest block: null
   * when it would succeed, else the revert's reason.
   */
  dryRun(
    from: string,
    tx: Pick<UnsignedTx, 'to' | 'data' | 'valueUnits' | 'gas'>,
    at?: 'pending' | 'latest',
  ): Promise<string | null>;
  /** Signs `tx` at `nonce` with an in-app wallet's key, or with the sponsor's (key null). */
  signTx(key: string | null, tx: UnsignedTx, nonce: number): Promise<SignedTx>;
}

/**
 * What the marketplace needs from the chain. `EvmChain` (viem, against the embedded anvil or an
 * RPC such as Base) is the real one; while none is configured, `unavailableChain` refuses honestly
 * rather than inventing balances or transaction hashes.
 */
export interface Chain {
  readonly info: PublicChainInfo | null;
  /**
   * Balance of the owner and its allowance for the payout spender, read in one round trip: now,
   * or at the end of a block (`blockNumber`).
   */
  readFunds(tokenAddress: string, ownerAddress: string, blockNumber?: bigint): Promise<TokenFunds>;
  readonly payoutSigner: PayoutSigner;
  readonly wallets: WalletActions;
  readonly sponsor: SponsorActions;
  /**
   * Transfer and Approval logs of these tokens in blocks [fromBlock, toBlock], in chain order: what
   * may have changed a founder's balance or allowance. Callers keep the ranges small (eth_getLogs
   * limits of providers).
   */
  tokenFundsLogs(tokenAddresses: string[], fromBlock: bigint, toBlock: bigint): Promise<FundsLog[]>;
  /** The curve's parameters and its token's total supply, read in one round trip (at a block). */
  readCurve(curveAddress: string, tokenAddress: string, blockNumber?: bigint): Promise<CurveState>;
  /**
   * The latest round of the price feed at `feedAddress` (`decimals()` and `latestRoundData()`, in
   * one round trip); null when nothing there answers them (no contract at the address).
   */
  readPriceFeed(feedAddress: string): Promise<FeedRound | null>;
  /** Deploys the project's token and curve through the factory; a repeat returns the same pair. */
  deployProject(projectId: string, name: string, symbol: string): Promise<DeployedProject>;
  /** Dev chain only: sends test ETH from the operator account. */
  faucet(to: string, ethUnits: bigint): Promise<TxResult>;
  close(): Promise<void>;
}
