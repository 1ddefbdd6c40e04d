import { createHash } from 'node:crypto';
import { getAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type {
  BroadcastResult,
  Chain,
  CurveState,
  DeployedProject,
  FeedRound,
  Fees,
  FundsLog,
  MinedTx,
  PayoutSigner,
  SignedTx,
  SponsorActions,
  TokenFunds,
  TxResult,
  WalletActions,
} from '../../src/infra/chain/chain.ts';
import { upstream } from '../../src/infra/chain/evm-chain.ts';
import { AppError } from '../../src/lib/errors.ts';

const UNIT = 10n ** 18n;
const lower = (a: string) => a.toLowerCase();
const key = (token: string, owner: string) => `${lower(token)}:${lower(owner)}`;

/**
 * A transaction the payout signer signed, as the fake encodes it in the raw transaction: a router
 * payout (`feeUnits` set: amountUnits to `to` and feeUnits to the treasury, both or neither), a
 * plain transferFrom (no `feeUnits`), or a nonce filler (`filler: true`) that moves nothing and
 * only uses its nonce.
 */
export interface FakeTx {
  chainId: number;
  filler?: boolean;
  signer: string;
  tokenAddress: string;
  from: string;
  to: string;
  amountUnits: bigint;
  feeUnits?: bigint;
  nonce: number;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

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

interface Receipt {
  mined: MinedTx;
  /** Wall-clock time (ms) from which `mined()` reports the receipt. */
  visibleAt: number;
}

/** The payout key's address; the spender founders approve is the router (`info.payoutSpenderAddress`). */
const PAYOUT_KEY = '0x00000000000000000000000000000000000000A1';

const FIXED_FEES: Fees = { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };

function encode(tx: FakeTx): string {
  const json = JSON.stringify({
    ...tx,
    amountUnits: tx.amountUnits.toString(),
    feeUnits: tx.feeUnits?.toString(),
    maxFeePerGas: tx.maxFeePerGas.toString(),
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas.toString(),
  });
  return `0x${Buffer.from(json, 'utf8').toString('hex')}`;
}

function decode(raw: string): FakeTx {
  try {
    const o = JSON.parse(Buffer.from(raw.slice(2), 'hex').toString('utf8'));
    return {
      ...o,
      amountUnits: BigInt(o.amountUnits),
      ...(o.feeUnits === undefined ? {} : { feeUnits: BigInt(o.feeUnits) }),
      maxFeePerGas: BigInt(o.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(o.maxPriorityFeePerGas),
    } as FakeTx;
  } catch {
    throw new AppError('upstream_error', 'The blockchain node failed to broadcast a payout: invalid raw tx');
  }
}

const hashOf = (raw: string) =>
  `0x${createHash('sha256')
    .update(Buffer.from(raw.slice(2), 'hex'))
    .digest('hex')}`;

/** Where a signer's transaction waits for its nonce gap to fill. */
const slot = (signer: string, nonce: number) => `${lower(signer)}:${nonce}`;

/** A replacement at a nonce must raise both fees by at least 10%, as geth and anvil require. */
const outbids = (next: FakeTx, old: FakeTx) =>
  next.maxFeePerGas * 10n >= old.maxFeePerGas * 11n &&
  next.maxPriorityFeePerGas * 10n >= old.maxPriorityFeePerGas * 11n;

const refuse = (): never => {
  throw new AppError('chain_unavailable', 'The fake chain has no wallets, factory or faucet.');
};

/**
 * An in-memory chain for tests of the HTTP and state rules only: a token ledger (balances and the
 * payout spender's allowances, set by the test) and one payout signer whose signed router payouts
 * and transferFroms are broadcast, mined in nonce order and answered with receipts, as a node would.
 * The ledger keeps one allowance per owner and token, for the spender: router payouts and the
 * older plain transferFroms both draw on it.
 *
 * - A transaction mines when its nonce is the signer's next one; later nonces wait in the pool
 *   until the gap fills. A transfer the founder cannot cover still mines, with status 'reverted';
 *   a router payout is covered only by amount + fee, and moves both or neither.
 * - Broadcasting the same bytes again is a no-op ('accepted'); another transaction at a nonce
 *   already mined is 'nonce_used'; a waiting one is replaced only by a 10% fee bump, and a fee
 *   cap below `baseFeePerGas` is refused ('underpriced'), as a node's answers say.
 * - Knobs model real failures: `failNextBroadcast` (the RPC call throws), `revertNext` /
 *   `revertNextTo` (the transfer mines reverted), `holdReceipts` and `receiptDelayMs` (receipts
 *   withheld or late) and `payoutDelayMs` (a slow fee quote, the first chain call of each payout that signs).
 * - Races are driven by one-shot hooks (`onReadFunds`, `onSign`); `mineEmpty` buries receipts,
 *   `withPayoutKey` signs with another key on the same chain, and `snapshot` rolls it all back.
 * - Token logs (`tokenFundsLogs`): a mined transfer, `approveOnChain` and `transferOnChain` (what a
 *   founder does with another wallet, outside the service) each add a block with its log; the
 *   in-app wallets' `approvePayouts` sets the key's allowance the same way. `setFunds` logs nothing.
 */
export class FakeChain implements Chain {
  readonly info = {
    id: 31337,
    name: 'fake',
    publicRpcUrl: 'http://127.0.0.1:0',
    explorerUrl: null,
    factoryAddress: '0x00000000000000000000000000000000000000F1',
    operatorAddress: '0x00000000000000000000000000000000000000C1',
    payoutSpenderAddress: '0x00000000000000000000000000000000000000D1',
    treasuryAddress: '0x00000000000000000000000000000000000000B1',
    devChain: true,
  };

  /** Every transfer that mined, successful or reverted, in block order. */
  readonly transfers: FakeTransfer[] = [];
  /** Transfer and Approval logs of every token, in block order. */
  readonly fundsLogs: FundsLog[] = [];
  /** Every transaction the payout signer signed (including ones never broadcast), in order. */
  readonly signed: (FakeTx & { hash: string })[] = [];

  /** When set, the next broadcast throws this error (wrapped as EvmChain wraps RPC errors), then clears. */
  failNextBroadcast: Error | null = null;
  /** When true, the next transfer to mine reverts whatever the funds, then the knob clears. */
  revertNext = false;
  /** When set, the next transfer to this address to mine reverts, then the knob clears. */
  revertNextTo: string | null = null;
  /** While true, `mined()` reports no receipt: transactions stay pending as far as anyone can tell. */
  holdReceipts = false;
  /** A receipt is reported only this long (wall clock) after its transaction mined. */
  receiptDelayMs = 0;
  /** Delay of the first call of each payout's signing (the nonce read), before anything is signed. */
  payoutDelayMs = 0;
  /**
   * The block base fee: a broadcast whose fee cap is below it is refused as underpriced, and fee
   * quotes follow it (twice the base fee plus the tip), as a node's do.
   */
  baseFeePerGas = 0n;
  /** When set, runs once on the next funds read (the approval's funds check), then clears. */
  onReadFunds: (() => Promise<void>) | null = null;
  /** What every price feed answers: null (no feed there) unless a test sets a round, or an error to throw. */
  priceFeed: FeedRound | Error | null = null;
  /** Price feed reads so far (the cache's tests count them). */
  priceFeedReads = 0;
  /** When set, runs once before the next transfer is signed (inside the signing transaction), then clears. */
  onSign: (() => Promise<void>) | null = null;
  /** When set, runs once before the next broadcast (after the signing transaction committed), then clears. */
  onBroadcast: (() => Promise<void>) | null = null;

  private readonly funds = new Map<string, TokenFunds>();
  /** The next nonce of each signer (lowercase address). */
  private readonly nonces = new Map<string, number>();
  /** Every mined transaction's signer, nonce and block, in block order: the nonce at a past block. */
  private readonly minedNonces: { signer: string; nonce: number; block: bigint }[] = [];
  private block = 0n;
  /** Transactions waiting for a nonce gap to fill, by signer and nonce. */
  private readonly pool = new Map<string, { tx: FakeTx; hash: string }>();
  private readonly receipts = new Map<string, Receipt>();
  private readonly seen = new Set<string>();

  readonly payoutSigner: PayoutSigner = this.signerFor(PAYOUT_KEY);

  readonly wallets: WalletActions = {
    ethBalance: async () => refuse(),
    tokenBalance: async () => refuse(),
    buy: async () => refuse(),
    sell: async () => refuse(),
    approvePayouts: async (key, token, amountUnits) => {
      const owner = privateKeyToAccount(key as Hex).address;
      const txHash = this.approveUnits(token, owner, amountUnits);
      return { txHash, allowanceUnits: amountUnits };
    },
    sendToken: async () => refuse(),
    sendEth: async () => refuse(),
    readBalances: async (pairs) =>
      pairs.map((p) => this.funds.get(key(p.tokenAddress, p.holder))?.balanceUnits ?? 0n),
    nonceOf: async () => refuse(),
    broadcast: async () => refuse(),
    receipt: async () => refuse(),
    known: async () => refuse(),
    headBlock: async () => refuse(),
    quoteFees: async () => refuse(),
    dryRun: async () => refuse(),
    signTx: async () => refuse(),
  };

  /** No sponsor: a wallet without ETH cannot cash out here. */
  readonly sponsor: SponsorActions = {
    address: null,
    balance: async () => 0n,
    quoteSale: async () => refuse(),
    reauthorizeSale: async () => refuse(),
    sell: async () => refuse(),
    sendToken: async () => refuse(),
  };

  /** The owner approves the payout spender for `allowanceTokens` on chain: a new block with its log. */
  approveOnChain(token: string, owner: string, allowanceTokens: bigint): void {
    this.approveUnits(token, owner, allowanceTokens * UNIT);
  }

  /** Moves tokens between two holders on chain (allowances untouched): a new block with its log. */
  transferOnChain(token: string, from: string, to: string, tokens: bigint): void {
    const f = this.funds.get(key(token, from)) ?? { balanceUnits: 0n, allowanceUnits: 0n };
    const t = this.funds.get(key(token, to)) ?? { balanceUnits: 0n, allowanceUnits: 0n };
    this.funds.set(key(token, from), { ...f, balanceUnits: f.balanceUnits - tokens * UNIT });
    this.funds.set(key(token, to), { ...t, balanceUnits: t.balanceUnits + tokens * UNIT });
    this.block += 1n;
    this.logTransfer(token, from, to);
  }

  async tokenFundsLogs(tokens: string[], fromBlock: bigint, toBlock: bigint): Promise<FundsLog[]> {
    const wanted = new Set(tokens.map(lower));
    return this.fundsLogs.filter(
      (l) => wanted.has(lower(l.tokenAddress)) && l.blockNumber >= fromBlock && l.blockNumber <= toBlock,
    );
  }

  private approveUnits(token: string, owner: string, allowanceUnits: bigint): string {
    const f = this.funds.get(key(token, owner)) ?? { balanceUnits: 0n, allowanceUnits: 0n };
    this.funds.set(key(token, owner), { ...f, allowanceUnits });
    this.block += 1n;
    this.fundsLogs.push({
      kind: 'approval',
      tokenAddress: getAddress(token),
      owner: getAddress(owner),
      spender: getAddress(this.info.payoutSpenderAddress),
      blockNumber: this.block,
    });
    return `0x${this.block.toString(16).padStart(64, '0')}`;
  }

  private logTransfer(token: string, from: string, to: string): void {
    this.fundsLogs.push({
      kind: 'transfer',
      tokenAddress: getAddress(token),
      from: getAddress(from),
      to: getAddress(to),
      blockNumber: this.block,
    });
  }

  /** Sets the owner's balance and its allowance for the payout spender, in whole tokens. */
  setFunds(token: string, owner: string, balanceTokens: bigint, allowanceTokens = balanceTokens): void {
    this.setFundsUnits(token, owner, balanceTokens * UNIT, allowanceTokens * UNIT);
  }

  /** Sets the owner's balance and allowance in base units, for checks that must not round. */
  setFundsUnits(token: string, owner: string, balanceUnits: bigint, allowanceUnits = balanceUnits): void {
    this.funds.set(key(token, owner), { balanceUnits, allowanceUnits });
  }

  /** Curves by lowercase address; reading one no test set fails as an unreachable node would. */
  private readonly curves = new Map<string, CurveState>();

  setCurve(curveAddress: string, state: CurveState): void {
    this.curves.set(lower(curveAddress), state);
  }

  async readPriceFeed(): Promise<FeedRound | null> {
    this.priceFeedReads++;
    if (this.priceFeed instanceof Error) throw this.priceFeed;
    return this.priceFeed && { ...this.priceFeed };
  }

  async readCurve(curveAddress: string): Promise<CurveState> {
    const state = this.curves.get(lower(curveAddress));
    if (!state) throw new AppError('upstream_error', 'The chain could not read the bonding curve.');
    return { ...state };
  }

  /** The funds now; at a block (`blockNumber`), the funds now too: the ledger keeps no history. */
  async readFunds(token: string, owner: string, blockNumber?: bigint): Promise<TokenFunds> {
    if (blockNumber !== undefined) {
      return { ...(this.funds.get(key(token, owner)) ?? { balanceUnits: 0n, allowanceUnits: 0n }) };
    }
    const hook = this.onReadFunds;
    this.onReadFunds = null;
    if (hook) await hook();
    return { ...(this.funds.get(key(token, owner)) ?? { balanceUnits: 0n, allowanceUnits: 0n }) };
  }

  /** The transfers that mined successfully: the tokens that actually moved. */
  get paid(): FakeTransfer[] {
    return this.transfers.filter((t) => t.status === 'success');
  }

  /** The mined transfer of a hash, if any. */
  transfer(hash: string): FakeTransfer | undefined {
    return this.transfers.find((t) => t.hash === lower(hash));
  }

  /** The nonce the signer's next transaction must carry (what the chain itself has mined). */
  get ledgerNonce(): number {
    return this.nonceOf(PAYOUT_KEY);
  }

  /** The latest block: each mined transaction makes one; `mineEmpty` adds empty ones. */
  get headBlock(): bigint {
    return this.block;
  }

  /** Mines empty blocks, burying earlier receipts deeper. */
  mineEmpty(blocks: number): void {
    this.block += BigInt(blocks);
  }

  /**
   * The same chain signing with another payout key (a key change, or a second instance with its
   * own key): shared ledger, pool and receipts, that key's own nonces.
   */
  withPayoutKey(address: string): FakeChain {
    const payoutSigner = this.signerFor(address);
    return new Proxy(this, {
      get: (target, prop, receiver) =>
        prop === 'payoutSigner' ? payoutSigner : Reflect.get(target, prop, receiver),
    });
  }

  /**
   * Takes a snapshot of the whole chain; the returned function rolls the chain back to it, as
   * anvil restarted from an older state file does: later transactions, receipts and nonces are lost.
   */
  snapshot(): () => void {
    const funds = new Map([...this.funds].map(([k, v]) => [k, { ...v }]));
    const nonces = new Map(this.nonces);
    const pool = new Map(this.pool);
    const receipts = new Map(this.receipts);
    const seen = new Set(this.seen);
    const transfers = this.transfers.length;
    const minedNonces = this.minedNonces.length;
    const block = this.block;
    return () => {
      const reset = <K, V>(m: Map<K, V>, from: Map<K, V>) => {
        m.clear();
        for (const [k, v] of from) m.set(k, v);
      };
      reset(this.funds, funds);
      reset(this.nonces, nonces);
      reset(this.pool, pool);
      reset(this.receipts, receipts);
      this.seen.clear();
      for (const h of seen) this.seen.add(h);
      this.transfers.splice(transfers);
      this.minedNonces.splice(minedNonces);
      this.block = block;
    };
  }

  private nonceOf(signer: string): number {
    return this.nonces.get(lower(signer)) ?? 0;
  }

  /** The signer's next nonce as of a block: one past the last it mined up to that block. */
  private nonceAt(signer: string, block: bigint): number {
    let next = 0;
    for (const m of this.minedNonces) {
      if (m.block <= block && m.signer === lower(signer)) next = Math.max(next, m.nonce + 1);
    }
    return next;
  }

  private signerFor(address: string): PayoutSigner {
    const beforeSign = async () => {
      const hook = this.onSign;
      this.onSign = null;
      if (hook) await hook();
    };
    return {
      address,
      routerAddress: this.info.payoutSpenderAddress,
      // Transactions mine as soon as their nonce is next, so nothing is ever pending ahead of 'latest'.
      chainNonce: async (at) => (typeof at === 'bigint' ? this.nonceAt(address, at) : this.nonceOf(address)),
      quoteFees: () => this.quoteFees(),
      signPayout: async (t) => {
        await beforeSign();
        return this.sign(address, t, t.feeUnits);
      },
      signTransferFrom: async (t) => {
        await beforeSign();
        return this.sign(address, t);
      },
      signNonceFiller: async (t) => this.signFiller(address, t),
      broadcast: (raw) => this.broadcast(raw),
      mined: async (hash) => this.mined(hash),
      known: async (hash) => this.seen.has(lower(hash)),
      headBlock: async () => this.block,
    };
  }

  async deployProject(): Promise<DeployedProject> {
    return refuse();
  }

  async faucet(): Promise<TxResult> {
    return refuse();
  }

  async close(): Promise<void> {}

  /** The fee quote: the first chain call of every payout that signs (the nonce is read once per signer). */
  protected async quoteFees(): Promise<Fees> {
    if (this.payoutDelayMs) await new Promise((r) => setTimeout(r, this.payoutDelayMs));
    const following = this.baseFeePerGas * 2n + FIXED_FEES.maxPriorityFeePerGas;
    return {
      maxFeePerGas: following > FIXED_FEES.maxFeePerGas ? following : FIXED_FEES.maxFeePerGas,
      maxPriorityFeePerGas: FIXED_FEES.maxPriorityFeePerGas,
    };
  }

  private signFiller(signer: string, t: Parameters<PayoutSigner['signNonceFiller']>[0]): SignedTx {
    return this.record({
      chainId: this.info.id,
      filler: true,
      signer: lower(signer),
      tokenAddress: '',
      from: lower(signer),
      to: lower(signer),
      amountUnits: 0n,
      nonce: t.nonce,
      maxFeePerGas: t.fees.maxFeePerGas,
      maxPriorityFeePerGas: t.fees.maxPriorityFeePerGas,
    });
  }

  private record(tx: FakeTx): SignedTx {
    const raw = encode(tx);
    const hash = hashOf(raw);
    this.signed.push({ ...tx, hash });
    return { hash, raw };
  }

  /** A transferFrom, or with `feeUnits` a router payout. */
  private sign(
    signer: string,
    t: Parameters<PayoutSigner['signTransferFrom']>[0],
    feeUnits?: bigint,
  ): SignedTx {
    return this.record({
      chainId: this.info.id,
      signer: lower(signer),
      tokenAddress: lower(t.tokenAddress),
      from: lower(t.from),
      to: lower(t.to),
      amountUnits: t.amountUnits,
      ...(feeUnits === undefined ? {} : { feeUnits }),
      nonce: t.nonce,
      maxFeePerGas: t.fees.maxFeePerGas,
      maxPriorityFeePerGas: t.fees.maxPriorityFeePerGas,
    });
  }

  protected async broadcast(raw: string): Promise<BroadcastResult> {
    const hook = this.onBroadcast;
    this.onBroadcast = null;
    if (hook) await hook();
    if (this.failNextBroadcast) {
      const err = this.failNextBroadcast;
      this.failNextBroadcast = null;
      throw upstream('broadcast a payout', err);
    }
    const tx = decode(raw);
    const hash = hashOf(raw);
    if (this.seen.has(hash)) return 'accepted';
    const expected = this.nonceOf(tx.signer);
    if (tx.nonce < expected) return 'nonce_used';
    // A node refuses a fee cap below the base fee, and a replacement that does not outbid.
    if (tx.maxFeePerGas < this.baseFeePerGas) return 'underpriced';
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

  /**
   * Executes the transferFrom or the router payout: it reverts when the founder's balance or
   * allowance falls short of all it moves (a payout's amount plus fee), and then moves nothing.
   */
  private mine(tx: FakeTx, hash: string): void {
    this.nonces.set(lower(tx.signer), tx.nonce + 1);
    this.block += 1n;
    this.minedNonces.push({ signer: lower(tx.signer), nonce: tx.nonce, block: this.block });
    if (tx.filler) {
      this.receipts.set(hash, {
        mined: { status: 'success', blockNumber: this.block },
        visibleAt: Date.now(),
      });
      return;
    }
    // A router payout's transfers: the reward, then the fee when there is one.
    const moves: [to: string, units: bigint][] = [[tx.to, tx.amountUnits]];
    if (tx.feeUnits) moves.push([lower(this.info.treasuryAddress), tx.feeUnits]);
    const target = this.revertNextTo === null ? null : lower(this.revertNextTo);
    const forced = this.revertNext || moves.some(([to]) => to === target);
    if (this.revertNext) this.revertNext = false;
    else if (forced) this.revertNextTo = null;
    const total = moves.reduce((sum, [, units]) => sum + units, 0n);
    const from = this.funds.get(key(tx.tokenAddress, tx.from)) ?? { balanceUnits: 0n, allowanceUnits: 0n };
    const covered = from.balanceUnits >= total && from.allowanceUnits >= total;
    const status = !forced && covered ? 'success' : 'reverted';
    if (status === 'success') {
      this.funds.set(key(tx.tokenAddress, tx.from), {
        balanceUnits: from.balanceUnits - total,
        allowanceUnits: from.allowanceUnits - total,
      });
      for (const [to, units] of moves) {
        const held = this.funds.get(key(tx.tokenAddress, to)) ?? { balanceUnits: 0n, allowanceUnits: 0n };
        this.funds.set(key(tx.tokenAddress, to), { ...held, balanceUnits: held.balanceUnits + units });
        this.logTransfer(tx.tokenAddress, tx.from, to);
      }
    }
    for (const [to, units] of moves) {
      this.transfers.push({
        tokenAddress: tx.tokenAddress,
        from: tx.from,
        to,
        amountUnits: units,
        hash,
        nonce: tx.nonce,
        status,
        blockNumber: this.block,
      });
    }
    this.receipts.set(hash, {
      mined: { status, blockNumber: this.block },
      visibleAt: Date.now() + this.receiptDelayMs,
    });
  }

  private mined(hash: string): MinedTx | null {
    if (this.holdReceipts) return null;
    const r = this.receipts.get(lower(hash));
    if (!r || Date.now() < r.visibleAt) return null;
    return { ...r.mined };
  }
}
