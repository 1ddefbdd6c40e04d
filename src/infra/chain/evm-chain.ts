import {
  type Account,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  type Chain as ViemChain,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { AppError } from '../../lib/errors.ts';
import type {
  Chain,
  CurveState,
  DeployedProject,
  FeedRound,
  FundsLog,
  PayoutSigner,
  PublicChainInfo,
  SponsorActions,
  TokenFunds,
  TxResult,
  WalletActions,
} from './chain.ts';
import { bondingCurveAbi } from './contracts/BondingCurve.ts';
import { projectFactoryAbi } from './contracts/ProjectFactory.ts';
import { projectTokenAbi } from './contracts/ProjectToken.ts';
import { upstream } from './evm-errors.ts';
import { readFundsLogs } from './evm-funds-logs.ts';
import { evmPayoutSigner } from './evm-payout-signer.ts';
import { evmSponsor } from './evm-sponsor.ts';
import { EvmTxSender } from './evm-tx-sender.ts';
import { evmWalletActions } from './evm-wallet-actions.ts';
import { observedTransport, type RpcObserver } from './observed-transport.ts';
import { readPriceFeed } from './price-feed.ts';
import { fitUtf8 } from './token-text.ts';

export interface EvmChainOptions {
  rpcUrl: string;
  /** Published in the public config instead of `rpcUrl`, which may hold a provider's API key. */
  publicRpcUrl: string | null;
  chainId: number;
  name: string;
  explorerUrl: string | null;
  factoryAddress: string;
  /**
   * The factory's payout router (`payoutRouter()`), whose payer is `payoutKey`: the spender
   * founders approve and the contract every payout calls. Resolved and checked by the caller.
   */
  payoutRouterAddress: string;
  treasuryAddress: string;
  operatorKey: Hex;
  payoutKey: Hex;
  /** Pays the gas of in-app wallets without ETH (sales pay it back); none: nothing is sponsored. */
  sponsorKey?: Hex | undefined;
  devChain: boolean;
  /** How often to poll for receipts; ~100 ms against anvil, seconds against a public chain. */
  pollingIntervalMs: number;
  /** Told of every JSON-RPC call (method, seconds, whether it answered): the metrics. */
  observeRpc?: RpcObserver;
}

/** The project's salt in the factory: one pair per project id, whatever retries happen. */
export const projectSalt = (projectId: string): Hex => keccak256(new TextEncoder().encode(projectId));

export { upstream } from './evm-errors.ts';

/** The real chain adapter: viem over JSON-RPC (batched), against anvil or any EVM chain. */
export class EvmChain implements Chain {
  readonly info: PublicChainInfo;
  readonly payoutSigner: PayoutSigner;
  readonly wallets: WalletActions;
  readonly sponsor: SponsorActions;
  private readonly client: PublicClient;
  private readonly viemChain: ViemChain;
  private readonly operator: Account;
  private readonly payout: Account;
  private readonly payoutRouter: Hex;
  /** The tail of the operator's send queue (see send). */
  private operatorSends: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: EvmChainOptions) {
    this.viemChain = defineChain({
      id: opts.chainId,
      name: opts.name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [opts.rpcUrl] } },
    });
    // batch: concurrent calls (balance + allowance) travel in one HTTP request.
    this.client = createPublicClient({
      chain: this.viemChain,
      transport: observedTransport(
        http(opts.rpcUrl, { batch: true, retryCount: 1, timeout: 15_000 }),
        opts.observeRpc,
      ),
      pollingInterval: opts.pollingIntervalMs,
    });
    this.operator = privateKeyToAccount(opts.operatorKey);
    this.payout = privateKeyToAccount(opts.payoutKey);
    this.payoutRouter = getAddress(opts.payoutRouterAddress);
    this.info = {
      id: opts.chainId,
      name: opts.name,
      publicRpcUrl: opts.publicRpcUrl,
      explorerUrl: opts.explorerUrl,
      factoryAddress: getAddress(opts.factoryAddress),
      operatorAddress: this.operator.address,
      payoutSpenderAddress: this.payoutRouter,
      treasuryAddress: getAddress(opts.treasuryAddress),
      devChain: opts.devChain,
    };
    this.payoutSigner = evmPayoutSigner(this.client, this.payout, opts.payoutKey, this.payoutRouter);
    const sender = new EvmTxSender(this.client, opts.chainId, opts.devChain);
    const sponsorAccount = opts.sponsorKey ? privateKeyToAccount(opts.sponsorKey) : null;
    this.wallets = evmWalletActions({
      client: this.client,
      sender,
      payoutSpender: this.payoutRouter,
      sponsor: sponsorAccount,
    });
    this.sponsor = evmSponsor({
      client: this.client,
      sender,
      account: sponsorAccount,
      chainId: opts.chainId,
      devChain: opts.devChain,
    });
  }

  async readFunds(tokenAddress: string, ownerAddress: string, blockNumber?: bigint): Promise<TokenFunds> {
    const token = getAddress(tokenAddress);
    const owner = getAddress(ownerAddress);
    const at = blockNumber === undefined ? {} : { blockNumber };
    try {
      const [balanceUnits, allowanceUnits] = await Promise.all([
        this.client.readContract({
          address: token,
          abi: projectTokenAbi,
          functionName: 'balanceOf',
          args: [owner],
          ...at,
        }),
        this.client.readContract({
          address: token,
          abi: projectTokenAbi,
          functionName: 'allowance',
          args: [owner, this.payoutRouter],
          ...at,
        }),
      ]);
      return { balanceUnits, allowanceUnits };
    } catch (err) {
      throw upstream('read the token balance', err);
    }
  }

  async readCurve(curveAddress: string, tokenAddress: string, blockNumber?: bigint): Promise<CurveState> {
    const curve = getAddress(curveAddress);
    const at = blockNumber === undefined ? {} : { blockNumber };
    try {
      // Batched by the transport: the three reads travel in one HTTP request.
      const [a, b, supplyUnits] = await Promise.all([
        this.client.readContract({ address: curve, abi: bondingCurveAbi, functionName: 'a', ...at }),
        this.client.readContract({ address: curve, abi: bondingCurveAbi, functionName: 'b', ...at }),
        this.client.readContract({
          address: getAddress(tokenAddress),
          abi: projectTokenAbi,
          functionName: 'totalSupply',
          ...at,
        }),
      ]);
      return { a, b, supplyUnits };
    } catch (err) {
      throw upstream('read the bonding curve', err);
    }
  }

  tokenFundsLogs(tokenAddresses: string[], fromBlock: bigint, toBlock: bigint): Promise<FundsLog[]> {
    return readFundsLogs(this.client, tokenAddresses, fromBlock, toBlock);
  }

  readPriceFeed(feedAddress: string): Promise<FeedRound | null> {
    return readPriceFeed(this.client, feedAddress);
  }

  /**
   * Name and symbol are shortened to what the token can hold (see token-text.ts), the same way on
   * every attempt, so a valid project name never fails activation.
   */
  async deployProject(projectId: string, name: string, symbol: string): Promise<DeployedProject> {
    const factory = getAddress(this.opts.factoryAddress);
    const salt = projectSalt(projectId);
    try {
      const existing = await this.client.readContract({
        address: factory,
        abi: projectFactoryAbi,
        functionName: 'curveOf',
        args: [salt],
      });
      if (BigInt(existing) === 0n) {
        const hash = await this.send(this.operator, {
          to: factory,
          data: encodeFunctionData({
            abi: projectFactoryAbi,
            functionName: 'deploy',
            args: [salt, fitUtf8(name), fitUtf8(symbol)],
          }),
        });
        await this.receiptOrThrow(hash, 'deploy the project contracts');
      }
      const curve = await this.client.readContract({
        address: factory,
        abi: projectFactoryAbi,
        functionName: 'curveOf',
        args: [salt],
      });
      const token = await this.client.readContract({
        address: curve,
        abi: bondingCurveAbi,
        functionName: 'token',
      });
      return { tokenAddress: getAddress(token), curveAddress: getAddress(curve) };
    } catch (err) {
      throw upstream('deploy the project contracts', err);
    }
  }

  async faucet(to: string, ethUnits: bigint): Promise<TxResult> {
    if (!this.opts.devChain)
      throw new AppError('not_found', 'The faucet exists only on the embedded dev chain.');
    try {
      const hash = await this.send(this.operator, { to: getAddress(to), value: ethUnits });
      await this.receiptOrThrow(hash, 'send test ETH');
      return { txHash: hash };
    } catch (err) {
      throw upstream('send test ETH', err);
    }
  }

  async close(): Promise<void> {}

  /**
   * The operator's sends (faucet, deployments), viem filling nonce, gas and fees from the node: one
   * at a time, each until the node accepted it, so two never take one nonce. (In-app wallets and
   * the sponsor send through EvmTxSender, with nonces from the database.)
   */
  private async send(account: Account, tx: { to: Hex; data?: Hex; value?: bigint }): Promise<Hex> {
    const wallet = createWalletClient({
      account,
      chain: this.viemChain,
      transport: observedTransport(http(this.opts.rpcUrl), this.opts.observeRpc),
    });
    const sendNow = () => wallet.sendTransaction({ account, chain: this.viemChain, ...tx });
    const sent = this.operatorSends.then(sendNow);
    this.operatorSends = sent.then(
      () => undefined,
      () => undefined,
    );
    return sent;
  }

  private async receiptOrThrow(hash: Hex, what: string) {
    const receipt = await this.client.waitForTransactionReceipt({ hash, timeout: 120_000 });
    if (receipt.status !== 'success') {
      throw new AppError('upstream_error', `The transaction to ${what} reverted (${hash}).`);
    }
    return receipt;
  }
}
