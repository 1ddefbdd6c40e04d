import {
  type Hex,
  type PublicClient,
  parseTransaction,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import type { BroadcastResult, Fees } from './chain.ts';
import { errorText, upstream } from './evm-errors.ts';

/**
 * The node side shared by every key the service signs with (the payout key, the sponsor, in-app
 * wallets): what a broadcast answer means, and the fee policy of replacements. One reading of the
 * node's words, so every key's transactions are read alike.
 */

const ALREADY_KNOWN = ['already known', 'already imported', 'known transaction'];
const NONCE_USED = ['nonce too low', 'nonce has already been used'];
/** Node refusals (geth, anvil, reth, erigon, nethermind wording) that only higher fees cure. */
const UNDERPRICED = [
  'underpriced',
  'less than block base fee',
  'fee cap less than',
  'feecap',
  'fee too low',
  'feetoolow',
  'gas price too low',
  'max fee per gas too low',
];
/** The node's certain refusals: the transaction is not in its pool and never will be. */
const NO_FUNDS = ['insufficient funds', 'exceeds the balance', 'exceeds balance'];

/**
 * Sends signed bytes. `accepted` also when the node already had them. A throw means the outcome is
 * unknown (the answer was lost, the node failed): the bytes may be in the pool and mine, so the
 * caller keeps them as "maybe sent" and never gives their nonce back. `no_funds` is the one answer
 * that says for certain the transaction will not mine.
 */
export async function sendRaw(
  client: PublicClient,
  raw: string,
  what: string,
): Promise<BroadcastResult | 'no_funds'> {
  try {
    await client.request({ method: 'eth_sendRawTransaction', params: [raw as Hex] });
    return 'accepted';
  } catch (err) {
    const text = errorText(err);
    if (ALREADY_KNOWN.some((t) => text.includes(t))) return 'accepted';
    if (NONCE_USED.some((t) => text.includes(t))) return 'nonce_used';
    if (UNDERPRICED.some((t) => text.includes(t))) return 'underpriced';
    if (NO_FUNDS.some((t) => text.includes(t))) return 'no_funds';
    throw upstream(what, err);
  }
}

/** True when the node knows the transaction (in its pool or mined). */
export async function knownTx(client: PublicClient, hash: string, what: string): Promise<boolean> {
  try {
    await client.getTransaction({ hash: hash as Hex });
    return true;
  } catch (err) {
    if (err instanceof TransactionNotFoundError) return false;
    throw upstream(what, err);
  }
}

/** The receipt, or null while the transaction is not mined (or a reorg took it). */
export async function receiptOf(client: PublicClient, hash: string, what: string) {
  try {
    return await client.getTransactionReceipt({ hash: hash as Hex });
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError) return null;
    throw upstream(what, err);
  }
}

/** +12.5% (rounded up) clears every node's minimum replacement bump of 10%. */
export const bump = (v: bigint) => (v * 1125n + 999n) / 1000n;
const maxBig = (a: bigint, b: bigint) => (a > b ? a : b);
const minBig = (a: bigint, b: bigint) => (a < b ? a : b);

/** A fee quote held under the operator's cap (PAYOUT_MAX_FEE_PER_GAS_GWEI). */
export const capFees = (f: Fees, cap: bigint): Fees => {
  const maxFeePerGas = minBig(f.maxFeePerGas, cap);
  return { maxFeePerGas, maxPriorityFeePerGas: minBig(f.maxPriorityFeePerGas, maxFeePerGas) };
};

/**
 * Fees that replace `old` at its nonce (both raised by 12.5%, at least today's quote), or null
 * when that would pass the cap: the last attempt then stays, and waits for fees to fall.
 */
export function replacementFees(old: Fees, quote: Fees, cap: bigint): Fees | null {
  const minFee = bump(old.maxFeePerGas);
  const minTip = bump(old.maxPriorityFeePerGas);
  if (minFee > cap || minTip > cap) return null;
  const maxFeePerGas = minBig(maxBig(minFee, quote.maxFeePerGas), cap);
  return {
    maxFeePerGas,
    maxPriorityFeePerGas: minBig(maxBig(minTip, quote.maxPriorityFeePerGas), maxFeePerGas),
  };
}

/** Fees that outbid `old` at its nonce whatever the cap says (a cancel must replace it), or the quote. */
export function outbid(old: Fees | null, quote: Fees, cap: bigint): Fees {
  if (!old) return capFees(quote, cap);
  return capFees(
    {
      maxFeePerGas: maxBig(bump(old.maxFeePerGas), quote.maxFeePerGas),
      maxPriorityFeePerGas: maxBig(bump(old.maxPriorityFeePerGas), quote.maxPriorityFeePerGas),
    },
    cap,
  );
}

/**
 * The call a signed transaction makes (to, data, value, gas), read from its raw bytes; null for
 * bytes that are not an Ethereum transaction (or create a contract).
 */
export function callOfRaw(raw: string): { to: string; data: string; valueUnits: bigint; gas: bigint } | null {
  try {
    const t = parseTransaction(raw as Hex);
    if (!t.to || t.gas === undefined) return null;
    return { to: t.to.toLowerCase(), data: t.data ?? '0x', valueUnits: t.value ?? 0n, gas: t.gas };
  } catch {
    return null;
  }
}
