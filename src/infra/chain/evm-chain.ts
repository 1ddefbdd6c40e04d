import {
  type Account,
  BaseError,
  createPublicClient,
  createWalletClient,
  decodeErrorResult,
  defineChain,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseEventLogs,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Chain as ViemChain,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { AppError } from '../../lib/errors.ts';
import type {
  BroadcastResult,
  Chain,
  DeployedProject,
  Fees,
  MinedTx,
  PayoutSigner,
  PublicChainInfo,
  SignedTx,
  TokenFunds,
  TxResult,
  WalletActions,
} from './chain.ts';
import { bondingCurveAbi } from './contracts/BondingCurve.ts';
import { projectFactoryAbi } from './contracts/ProjectFactory.ts';
import { projectTokenAbi } from './contracts/ProjectToken.ts';

export interface EvmChainOptions {
  rpcUrl: string;
  chainId: number;
  name: string;
  explorerUrl: string | null;
  factoryAddress: string;
  treasuryAddress: string;
  operatorKey: Hex;
  payoutKey: Hex;
  devChain: boolean;
  /** How often to poll for receipts; ~100 ms against anvil, seconds against a public chain. */
  pollingIntervalMs: number;
}

// An ERC-20 transferFrom costs ~35-60k gas; a fixed, generous limit keeps signing free of I/O.
const TRANSFER_GAS = 120_000n;

/** The project's salt in the factory: one pair per project id, whatever retries happen. */
export const projectSalt = (projectId: string): Hex => keccak256(new TextEncoder().encode(projectId));

/** Chain errors become 502s with a short, safe message; the full error goes to the log via `cause`. */
export function upstream(what: string, err: unknown): AppError {
  if (err instanceof AppError) return err;
  const short = err instanceof BaseError ? err.shortMessage : 'no answer';
  const appErr = new AppError('upstream_error', `The blockchain node failed to ${what}: ${short}`);
  (appErr as { cause?: unknown }).cause = err;
  return appErr;
}

/**
 * A curve revert because the price moved past the caller's bound: the caller's 400, not a chain
 * failure. The revert data travels in the RPC error under viem's wrappers.
 */
function slippageRefusal(err: unknown): AppError | null {
  if (!(err instanceof BaseError)) return null;
  const data = (
    err.walk((e) => typeof (e as { data?: unknown }).data === 'string') as { data?: string } | null
  )?.data;
  if (!data?.startsWith('0x')) return null;
  try {
    const { errorName, args } = decodeErrorResult({ abi: bondingCurveAbi, data: data as Hex });
    const [out, min] = (args ?? []) as readonly bigint[];
    if (errorName === 'SlippageTokensOut')
      return new AppError(
        'slippage',
        `The buy would return ${out} token units, below min_tokens_units ${min}.`,
      );
    if (errorName === 'SlippageEthOut')
      return new AppError('slippage', `The sale would return ${out} wei, below min_eth_units ${min}.`);
  } catch {
    // Not one of the curve's errors.
  }
  return null;
}

const errorText = (err: unknown): string => {
  const parts: string[] = [];
  for (
    let e = err as { message?: string; details?: string; cause?: unknown } | undefined, i = 0;
    e && i < 6;
    i++
  ) {
    parts.push(e.message ?? '', e.details ?? '');
    e = e.cause as typeof e;
  }
  return parts.join(' ').toLowerCase();
};

/** The real chain adapter: viem over JSON-RPC (batched), against anvil or any EVM chain. */
export class EvmChain implements Chain {
  readonly info: PublicChainInfo;
  readonly payoutSigner: PayoutSigner;
  readonly wallets: WalletActions;
  private readonly client: PublicClient;
  private readonly viemChain: ViemChain;
  private readonly operator: Account;
  private readonly payout: Account;

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
      transport: http(opts.rpcUrl, { batch: true, retryCount: 1, timeout: 15_000 }),
      pollingInterval: opts.pollingIntervalMs,
    });
    this.operator = privateKeyToAccount(opts.operatorKey);
    this.payout = privateKeyToAccount(opts.payoutKey);
    this.info = {
      id: opts.chainId,
      name: opts.name,
      rpcUrl: opts.rpcUrl,
      explorerUrl: opts.explorerUrl,
      factoryAddress: getAddress(opts.factoryAddress),
      payoutSpenderAddress: this.payout.address,
      treasuryAddress: getAddress(opts.treasuryAddress),
      devChain: opts.devChain,
    };
    this.payoutSigner = this.makePayoutSigner();
    this.wallets = this.makeWalletActions();
  }

  async readFunds(tokenAddress: string, ownerAddress: string): Promise<TokenFunds> {
    const token = getAddress(tokenAddress);
    const owner = getAddress(ownerAddress);
    try {
      const [balanceUnits, allowanceUnits] = await Promise.all([
        this.client.readContract({
          address: token,
          abi: projectTokenAbi,
          functionName: 'balanceOf',
          args: [owner],
        }),
        this.client.readContract({
          address: token,
          abi: projectTokenAbi,
          functionName: 'allowance',
          args: [owner, this.payout.address],
        }),
      ]);
      return { balanceUnits, allowanceUnits };
    } catch (err) {
      throw upstream('read the token balance', err);
    }
  }

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
            args: [salt, name, symbol],
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

  /** Signs and sends with viem filling nonce, gas and fees; for accounts only this process uses at once. */
  private async send(account: Account, tx: { to: Hex; data?: Hex; value?: bigint }): Promise<Hex> {
    const wallet = createWalletClient({ account, chain: this.viemChain, transport: http(this.opts.rpcUrl) });
    return wallet.sendTransaction({ account, chain: this.viemChain, ...tx });
  }

  private async receiptOrThrow(hash: Hex, what: string) {
    const receipt = await this.client.waitForTransactionReceipt({ hash, timeout: 120_000 });
    if (receipt.status !== 'success') {
      throw new AppError('upstream_error', `The transaction to ${what} reverted (${hash}).`);
    }
    return receipt;
  }

  private makePayoutSigner(): PayoutSigner {
    const account = this.payout;
    const client = this.client;
    const chainId = this.opts.chainId;
    return {
      address: account.address,
      chainNonce: async () => {
        try {
          return await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
        } catch (err) {
          throw upstream('read the payout nonce', err);
        }
      },
      quoteFees: async (): Promise<Fees> => {
        try {
          const f = await client.estimateFeesPerGas();
          return { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas };
        } catch (err) {
          throw upstream('quote gas fees', err);
        }
      },
      signTransferFrom: async (t): Promise<SignedTx> => {
        if (!account.signTransaction) throw new Error('The payout account cannot sign transactions.');
        const raw = await account.signTransaction({
          chainId,
          type: 'eip1559',
          to: getAddress(t.tokenAddress),
          data: encodeFunctionData({
            abi: projectTokenAbi,
            functionName: 'transferFrom',
            args: [getAddress(t.from), getAddress(t.to), t.amountUnits],
          }),
          nonce: t.nonce,
          gas: TRANSFER_GAS,
          maxFeePerGas: t.fees.maxFeePerGas,
          maxPriorityFeePerGas: t.fees.maxPriorityFeePerGas,
        });
        return { raw, hash: keccak256(raw) };
      },
      broadcast: async (raw): Promise<BroadcastResult> => {
        try {
          await client.request({ method: 'eth_sendRawTransaction', params: [raw as Hex] });
          return 'accepted';
        } catch (err) {
          const text = errorText(err);
          if (
            text.includes('already known') ||
            text.includes('already imported') ||
            text.includes('known transaction')
          ) {
            return 'accepted';
          }
          if (text.includes('nonce too low') || text.includes('nonce has already been used'))
            return 'nonce_used';
          throw upstream('broadcast a payout', err);
        }
      },
      mined: async (hash): Promise<MinedTx | null> => {
        try {
          const r = await client.getTransactionReceipt({ hash: hash as Hex });
          return { status: r.status, blockNumber: r.blockNumber };
        } catch (err) {
          if (err instanceof TransactionReceiptNotFoundError) return null;
          throw upstream('read a payout receipt', err);
        }
      },
      known: async (hash) => {
        try {
          await client.getTransaction({ hash: hash as Hex });
          return true;
        } catch (err) {
          if (err instanceof TransactionNotFoundError) return false;
          throw upstream('look up a payout', err);
        }
      },
    };
  }

  private makeWalletActions(): WalletActions {
    const act = async <T>(
      what: string,
      key: string,
      tx: { to: Hex; data?: Hex; value?: bigint },
      read: (logs: unknown[]) => T,
    ) => {
      try {
        const hash = await this.send(privateKeyToAccount(key as Hex), tx);
        const receipt = await this.receiptOrThrow(hash, what);
        return { txHash: hash, ...read(receipt.logs) };
      } catch (err) {
        throw slippageRefusal(err) ?? upstream(what, err);
      }
    };
    const curveEvent = (logs: unknown[], eventName: 'Bought' | 'Sold') => {
      const [event] = parseEventLogs({ abi: bondingCurveAbi, logs: logs as never, eventName });
      if (!event) throw new AppError('upstream_error', `The curve emitted no ${eventName} event.`);
      return event.args as unknown as Record<string, bigint>;
    };
    return {
      ethBalance: async (address) => {
        try {
          return await this.client.getBalance({ address: getAddress(address) });
        } catch (err) {
          throw upstream('read an ETH balance', err);
        }
      },
      tokenBalance: async (tokenAddress, owner) => {
        try {
          return await this.client.readContract({
            address: getAddress(tokenAddress),
            abi: projectTokenAbi,
            functionName: 'balanceOf',
            args: [getAddress(owner)],
          });
        } catch (err) {
          throw upstream('read a token balance', err);
        }
      },
      buy: (key, curve, ethUnits, minTokensUnits) =>
        act(
          'buy tokens',
          key,
          {
            to: getAddress(curve),
            value: ethUnits,
            data: encodeFunctionData({ abi: bondingCurveAbi, functionName: 'buy', args: [minTokensUnits] }),
          },
          (logs) => ({ tokensUnits: curveEvent(logs, 'Bought').tokensOut as bigint }),
        ),
      sell: (key, curve, tokensUnits, minEthUnits) =>
        act(
          'sell tokens',
          key,
          {
            to: getAddress(curve),
            data: encodeFunctionData({
              abi: bondingCurveAbi,
              functionName: 'sell',
              args: [tokensUnits, minEthUnits],
            }),
          },
          (logs) => ({ ethUnits: curveEvent(logs, 'Sold').ethOut as bigint }),
        ),
      approvePayouts: (key, token, amountUnits) =>
        act(
          'set the allowance',
          key,
          {
            to: getAddress(token),
            data: encodeFunctionData({
              abi: projectTokenAbi,
              functionName: 'approve',
              args: [this.payout.address, amountUnits],
            }),
          },
          (logs) => {
            const [event] = parseEventLogs({
              abi: projectTokenAbi,
              logs: logs as never,
              eventName: 'Approval',
            });
            return { allowanceUnits: (event?.args as { value: bigint } | undefined)?.value ?? amountUnits };
          },
        ),
      sendToken: (key, token, to, amountUnits) =>
        act(
          'send tokens',
          key,
          {
            to: getAddress(token),
            data: encodeFunctionData({
              abi: projectTokenAbi,
              functionName: 'transfer',
              args: [getAddress(to), amountUnits],
            }),
          },
          () => ({}),
        ),
      sendEth: (key, to, amountUnits) =>
        act('send ETH', key, { to: getAddress(to), value: amountUnits }, () => ({})),
    };
  }
}
