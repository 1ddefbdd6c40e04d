import {
  type Account,
  getAddress,
  type Hex,
  keccak256,
  type PublicClient,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem';
import type { BroadcastResult, MinedTx, TxJournal } from './chain.ts';
import { insufficientEth } from './eth-shortfall.ts';
import { errorText, slippageRefusal, upstream } from './evm-errors.ts';

export interface TxRequest {
  to: Hex;
  data?: Hex;
  value?: bigint;
}

export interface PreparedTx extends TxRequest {
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

const ALREADY_KNOWN = ['already known', 'already imported', 'known transaction'];
const NONCE_USED = ['nonce too low', 'nonce has already been used'];
const NO_FUNDS = ['insufficient funds', 'exceeds the balance', 'exceeds balance'];

/** The gas limit is the node's estimate plus a fifth: estimates are made against the latest block. */
const withMargin = (gas: bigint) => gas + gas / 5n;

/**
 * Signs and sends ordinary transactions of accounts the service holds keys for (in-app wallets, the
 * sponsor): the fee quote and gas estimate first (a wallet whose ETH cannot pay the value and the
 * gas is refused with `insufficient_eth` before anything is signed), then, with a journal, the
 * nonce and the record from the database before the bytes go out, and the receipt after.
 */
export class EvmTxSender {
  constructor(
    private readonly client: PublicClient,
    private readonly chainId: number,
    private readonly devChain: boolean,
  ) {}

  /** Gas and fees for `tx` from `from`; `insufficient_eth` when its ETH cannot cover value + gas. */
  async prepare(from: Hex, tx: TxRequest, what: string): Promise<PreparedTx> {
    let have: bigint;
    try {
      have = await this.client.getBalance({ address: from });
    } catch (err) {
      throw upstream(`${what} (read the ETH balance)`, err);
    }
    const value = tx.value ?? 0n;
    if (have < value)
      throw insufficientEth({ address: from, haveUnits: have, needUnits: value }, this.devChain);
    let gas: bigint;
    let fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
    try {
      [gas, fees] = await Promise.all([
        this.client.estimateGas({ account: from, ...tx }),
        this.client.estimateFeesPerGas(),
      ]);
    } catch (err) {
      const text = errorText(err);
      if (NO_FUNDS.some((t) => text.includes(t))) {
        // The estimate itself ran out of ETH: the gas alone is more than the wallet holds.
        throw insufficientEth({ address: from, haveUnits: have, needUnits: value + 1n }, this.devChain);
      }
      throw slippageRefusal(err) ?? upstream(what, err);
    }
    const prepared = { ...tx, gas: withMargin(gas), ...fees };
    const need = value + prepared.gas * fees.maxFeePerGas;
    if (have < need)
      throw insufficientEth({ address: from, haveUnits: have, needUnits: need }, this.devChain);
    return prepared;
  }

  /**
   * Signs `tx` for `account` and sends it. With a journal the nonce and the record come from the
   * database first; without one (tools and tests) the node's pending count is the nonce.
   */
  async send(account: Account, tx: PreparedTx, what: string, journal?: TxJournal): Promise<Hex> {
    const sign = async (nonce: number) => {
      if (!account.signTransaction) throw new Error('This account cannot sign transactions.');
      const raw = await account.signTransaction({ chainId: this.chainId, type: 'eip1559', ...tx, nonce });
      return { raw, hash: keccak256(raw) };
    };
    const pending = () => this.nonceOf(account.address, 'pending');
    const signed = journal
      ? await journal.record(account.address, pending, sign)
      : await sign(await pending());
    let result: BroadcastResult;
    try {
      result = await this.broadcast(signed.raw);
    } catch (err) {
      await journal?.refused(signed.hash);
      throw err;
    }
    if (result !== 'accepted') {
      await journal?.refused(signed.hash);
      throw upstream(what, new Error(`the node refused the transaction (${result})`));
    }
    await journal?.sent(signed.hash);
    return signed.hash as Hex;
  }

  /** Waits for the receipt, tells the journal, and throws on a revert. */
  async mined(
    hash: Hex,
    what: string,
    journal?: TxJournal,
    refund?: (r: TransactionReceipt) => bigint,
  ): Promise<TransactionReceipt> {
    let receipt: TransactionReceipt;
    try {
      receipt = await this.client.waitForTransactionReceipt({ hash, timeout: 120_000 });
    } catch (err) {
      throw upstream(what, err);
    }
    await journal?.mined(hash, {
      status: receipt.status,
      gasPaidUnits: receipt.gasUsed * receipt.effectiveGasPrice,
      ...(refund && receipt.status === 'success' ? { gasRefundUnits: refund(receipt) } : {}),
    });
    if (receipt.status !== 'success') {
      throw upstream(what, new Error(`the transaction reverted (${hash})`));
    }
    return receipt;
  }

  async nonceOf(address: string, at: 'pending' | 'latest'): Promise<number> {
    try {
      return await this.client.getTransactionCount({ address: getAddress(address), blockTag: at });
    } catch (err) {
      throw upstream('read a nonce', err);
    }
  }

  async broadcast(raw: string): Promise<BroadcastResult> {
    try {
      await this.client.request({ method: 'eth_sendRawTransaction', params: [raw as Hex] });
      return 'accepted';
    } catch (err) {
      const text = errorText(err);
      if (ALREADY_KNOWN.some((t) => text.includes(t))) return 'accepted';
      if (NONCE_USED.some((t) => text.includes(t))) return 'nonce_used';
      if (text.includes('underpriced') || text.includes('fee too low')) return 'underpriced';
      throw upstream('send a transaction', err);
    }
  }

  async receipt(hash: string): Promise<(MinedTx & { gasPaidUnits: bigint }) | null> {
    try {
      const r = await this.client.getTransactionReceipt({ hash: hash as Hex });
      return { status: r.status, blockNumber: r.blockNumber, gasPaidUnits: r.gasUsed * r.effectiveGasPrice };
    } catch (err) {
      if (err instanceof TransactionReceiptNotFoundError) return null;
      throw upstream('read a receipt', err);
    }
  }
}
