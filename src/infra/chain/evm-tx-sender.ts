import {
  type Account,
  BaseError,
  BlockNotFoundError,
  getAddress,
  type Hex,
  keccak256,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import type { BroadcastResult, Fees, SignedTx, TxJournal, TxReceipt, UnsignedTx } from './chain.ts';
import { TxPending } from './chain.ts';
import { insufficientEth } from './eth-shortfall.ts';
import { errorText, safeText, slippageRefusal, upstream } from './evm-errors.ts';
import { knownTx, receiptOf, sendRaw } from './tx-node.ts';

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

const NO_FUNDS = ['insufficient funds', 'exceeds the balance', 'exceeds balance'];
/** Without a journal (tools, tests) a receipt is awaited this long. */
const UNJOURNALED_WAIT_MS = 120_000;

export const unsignedOf = (tx: PreparedTx): UnsignedTx => ({
  to: tx.to,
  data: tx.data ?? '0x',
  valueUnits: tx.value ?? 0n,
  gas: tx.gas,
  maxFeePerGas: tx.maxFeePerGas,
  maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
});

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
   * database first, and a send whose outcome is unknown (a lost answer, a refusal only higher fees
   * or time cure) stays recorded as maybe sent: the engine follows it, its nonce is never given
   * back. Without one (tools and tests) the node's pending count is the nonce.
   */
  async send(account: Account, tx: PreparedTx, what: string, journal?: TxJournal): Promise<Hex> {
    const sign = (nonce: number) => this.sign(account, unsignedOf(tx), nonce);
    const pending = () => this.nonceOf(account.address, 'pending');
    const signed = journal
      ? await journal.record(account.address, pending, sign, unsignedOf(tx))
      : await sign(await pending());
    let result: BroadcastResult | 'no_funds';
    try {
      result = await this.broadcast(signed.raw);
    } catch (err) {
      if (!journal) throw err;
      // Maybe sent: the receipt wait (or the engine) finds out.
      return signed.hash as Hex;
    }
    if (result === 'no_funds') {
      await journal?.refused(signed.hash, 'the node refused it: the signer cannot pay for it');
      throw upstream(what, new Error('the node refused the transaction (the signer cannot pay for it)'));
    }
    if (result !== 'accepted') {
      // Another transaction at the nonce, or fees below the node's floor: the engine settles it.
      if (!journal) throw upstream(what, new Error(`the node refused the transaction (${result})`));
      return signed.hash as Hex;
    }
    await journal?.sent(signed.hash);
    return signed.hash as Hex;
  }

  async sign(account: Account, tx: UnsignedTx, nonce: number): Promise<SignedTx> {
    if (!account.signTransaction) throw new Error('This account cannot sign transactions.');
    const raw = await account.signTransaction({
      chainId: this.chainId,
      type: 'eip1559',
      to: getAddress(tx.to),
      data: tx.data as Hex,
      value: tx.valueUnits,
      gas: tx.gas,
      maxFeePerGas: tx.maxFeePerGas,
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
      nonce,
    });
    return { raw, hash: keccak256(raw) };
  }

  /**
   * Waits for the receipt (a journal's `waitMs` at most), tells the journal, and throws on a
   * revert. A journaled transaction whose receipt does not come in time (or cannot be read) throws
   * `TxPending`: it may still mine, and the engine follows it.
   */
  async mined(
    hash: Hex,
    what: string,
    journal?: TxJournal,
    refund?: (r: TransactionReceipt) => bigint,
  ): Promise<TransactionReceipt> {
    let receipt: TransactionReceipt;
    try {
      receipt = await this.client.waitForTransactionReceipt({
        hash,
        timeout: journal ? journal.waitMs : UNJOURNALED_WAIT_MS,
      });
    } catch (err) {
      if (journal?.intentId) throw new TxPending(journal.intentId, hash);
      throw upstream(what, err);
    }
    // A replacement (a fee bump by the engine) may be what mined: settle by the mined hash.
    await journal?.mined(
      receipt.transactionHash,
      {
        status: receipt.status,
        blockNumber: receipt.blockNumber,
        gasPaidUnits: receipt.gasUsed * receipt.effectiveGasPrice,
        logs: receipt.logs,
      },
      refund && receipt.status === 'success' ? refund(receipt) : undefined,
    );
    if (receipt.status !== 'success') {
      throw upstream(what, new Error(`the transaction reverted (${hash})`));
    }
    return receipt;
  }

  async nonceOf(address: string, at: 'pending' | 'latest' | bigint): Promise<number> {
    try {
      const where = typeof at === 'bigint' ? { blockNumber: at } : { blockTag: at };
      return await this.client.getTransactionCount({ address: getAddress(address), ...where });
    } catch (err) {
      throw upstream('read a nonce', err);
    }
  }

  broadcast(raw: string): Promise<BroadcastResult | 'no_funds'> {
    return sendRaw(this.client, raw, 'send a transaction');
  }

  async receipt(hash: string): Promise<TxReceipt | null> {
    const r = await receiptOf(this.client, hash, 'read a receipt');
    return (
      r && {
        status: r.status,
        blockNumber: r.blockNumber,
        gasPaidUnits: r.gasUsed * r.effectiveGasPrice,
        logs: r.logs,
      }
    );
  }

  known(hash: string): Promise<boolean> {
    return knownTx(this.client, hash, 'look up a transaction');
  }

  async headBlock(): Promise<bigint> {
    try {
      return await this.client.getBlockNumber({ cacheTime: 0 });
    } catch (err) {
      throw upstream('read the latest block', err);
    }
  }

  async blockHash(blockNumber: bigint): Promise<string | null> {
    try {
      return (await this.client.getBlock({ blockNumber })).hash;
    } catch (err) {
      if (err instanceof BlockNotFoundError) return null;
      throw upstream('read a block', err);
    }
  }

  async quoteFees(): Promise<Fees> {
    try {
      const f = await this.client.estimateFeesPerGas();
      return { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas };
    } catch (err) {
      throw upstream('quote gas fees', err);
    }
  }

  /** A dry run against the pending state (what is in the pool counts): null, or why it reverts. */
  async dryRun(
    from: string,
    tx: Pick<UnsignedTx, 'to' | 'data' | 'valueUnits' | 'gas'>,
    at: 'pending' | 'latest' = 'pending',
  ): Promise<string | null> {
    try {
      await this.client.call({
        account: getAddress(from),
        to: getAddress(tx.to),
        data: tx.data as Hex,
        value: tx.valueUnits,
        gas: tx.gas,
        blockTag: at,
      });
      return null;
    } catch (err) {
      const refusal = slippageRefusal(err);
      if (refusal) return refusal.message;
      if (err instanceof BaseError && /revert/i.test(errorText(err))) return upstream('dry-run', err).message;
      if (err instanceof BaseError && err.shortMessage.includes('revert')) return safeText(err.shortMessage);
      throw upstream('dry-run a transaction', err);
    }
  }
}
