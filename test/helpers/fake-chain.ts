import type {
  BroadcastResult,
  Chain,
  CurveState,
  DeployedProject,
  FeedRound,
  Fees,
  FundsLog,
  PayoutSigner,
  SponsorActions,
  TokenFunds,
  TxResult,
  WalletActions,
} from '../../src/infra/chain/chain.ts';
import { upstream } from '../../src/infra/chain/evm-chain.ts';
import { AppError } from '../../src/lib/errors.ts';
import { lower, TokenLedger } from './fake-chain/ledger.ts';
import { FakeNode, type FakeTransfer, type NodeFaults } from './fake-chain/node.ts';
import { fakePayoutSigner, payoutWallets, type SignerChain } from './fake-chain/payout-signer.ts';
import type { FakeTx } from './fake-chain/raw-tx.ts';
import { ledgerWallets, noSponsor, refuse } from './fake-chain/wallets.ts';

export type { FakeTransfer } from './fake-chain/node.ts';
export type { FakeTx } from './fake-chain/raw-tx.ts';

const UNIT = 10n ** 18n;

/** The payout key's address; the spender founders approve is the router (`info.payoutSpenderAddress`). */
const PAYOUT_KEY = '0x00000000000000000000000000000000000000A1';

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
 *
 * The parts live in fake-chain/: the token ledger (ledger.ts), the node's pool, mining and receipts
 * (node.ts), the payout keys' calls and the transaction engine's port for them (payout-signer.ts)
 * and their raw transactions (raw-tx.ts), and the in-app wallets and sponsor, which refuse all but
 * approvals (wallets.ts).
 */
export class FakeChain implements Chain, NodeFaults {
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

  private readonly ledger = new TokenLedger(this.info);
  private readonly node = new FakeNode(this.ledger, this, this.info);

  /** Every transfer that mined, successful or reverted, in block order. */
  readonly transfers: FakeTransfer[] = this.node.transfers;
  /** Transfer and Approval logs of every token, in block order. */
  readonly fundsLogs: FundsLog[] = this.ledger.logs;
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

  readonly payoutSigner: PayoutSigner = fakePayoutSigner(PAYOUT_KEY, this.signerChain());

  /**
   * The in-app wallets read balances and approve payouts on the ledger; the transaction engine's
   * port signs, sends and follows the payout keys' transactions on the node.
   */
  readonly wallets: WalletActions = { ...ledgerWallets(this.ledger), ...payoutWallets(this.signerChain()) };

  /** No sponsor: a wallet without ETH cannot cash out here. */
  readonly sponsor: SponsorActions = noSponsor();

  /** The owner approves the payout spender for `allowanceTokens` on chain: a new block with its log. */
  approveOnChain(token: string, owner: string, allowanceTokens: bigint): void {
    this.ledger.approve(token, owner, allowanceTokens * UNIT);
  }

  /** Moves tokens between two holders on chain (allowances untouched): a new block with its log. */
  transferOnChain(token: string, from: string, to: string, tokens: bigint): void {
    this.ledger.transfer(token, from, to, tokens * UNIT);
  }

  async tokenFundsLogs(tokens: string[], fromBlock: bigint, toBlock: bigint): Promise<FundsLog[]> {
    return this.ledger.logsBetween(tokens, fromBlock, toBlock);
  }

  /** Sets the owner's balance and its allowance for the payout spender, in whole tokens. */
  setFunds(token: string, owner: string, balanceTokens: bigint, allowanceTokens = balanceTokens): void {
    this.setFundsUnits(token, owner, balanceTokens * UNIT, allowanceTokens * UNIT);
  }

  /** Sets the owner's balance and allowance in base units, for checks that must not round. */
  setFundsUnits(token: string, owner: string, balanceUnits: bigint, allowanceUnits = balanceUnits): void {
    this.ledger.set(token, owner, { balanceUnits, allowanceUnits });
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
    if (blockNumber !== undefined) return this.ledger.get(token, owner);
    const hook = this.onReadFunds;
    this.onReadFunds = null;
    if (hook) await hook();
    return this.ledger.get(token, owner);
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
    return this.node.nonceOf(PAYOUT_KEY);
  }

  /** The latest block: each mined transaction makes one; `mineEmpty` adds empty ones. */
  get headBlock(): bigint {
    return this.ledger.block;
  }

  /** Mines empty blocks, burying earlier receipts deeper. */
  mineEmpty(blocks: number): void {
    this.ledger.block += BigInt(blocks);
  }

  /**
   * The same chain signing with another payout key (a key change, or a second instance with its
   * own key): shared ledger, pool and receipts, that key's own nonces.
   */
  withPayoutKey(address: string): FakeChain {
    const payoutSigner = fakePayoutSigner(address, this.signerChain());
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
    const restoreLedger = this.ledger.snapshot();
    const restoreNode = this.node.snapshot();
    return () => {
      restoreLedger();
      restoreNode();
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
    return this.node.quoteFees();
  }

  /** The RPC call: its hooks and failure first, then the node takes the transaction. */
  protected async broadcast(raw: string): Promise<BroadcastResult> {
    const hook = this.onBroadcast;
    this.onBroadcast = null;
    if (hook) await hook();
    if (this.failNextBroadcast) {
      const err = this.failNextBroadcast;
      this.failNextBroadcast = null;
      throw upstream('broadcast a payout', err);
    }
    return this.node.accept(raw);
  }

  private signerChain(): SignerChain {
    return {
      info: this.info,
      node: this.node,
      ledger: this.ledger,
      headBlock: () => this.ledger.block,
      signed: this.signed,
      beforeSign: async () => {
        const hook = this.onSign;
        this.onSign = null;
        if (hook) await hook();
      },
      quoteFees: () => this.quoteFees(),
      broadcast: (raw) => this.broadcast(raw),
    };
  }
}
