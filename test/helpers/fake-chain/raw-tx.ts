import { createHash } from 'node:crypto';
import { AppError } from '../../../src/lib/errors.ts';

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

/** The raw bytes of a signed transaction: its fields as hex-encoded JSON. */
export function encode(tx: FakeTx): string {
  const json = JSON.stringify({
    ...tx,
    amountUnits: tx.amountUnits.toString(),
    feeUnits: tx.feeUnits?.toString(),
    maxFeePerGas: tx.maxFeePerGas.toString(),
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas.toString(),
  });
  return `0x${Buffer.from(json, 'utf8').toString('hex')}`;
}

/** The transaction in raw bytes; bytes that `encode` did not make are refused as a node would. */
export function decode(raw: string): FakeTx {
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

/** The transaction hash of raw bytes. */
export const hashOf = (raw: string) =>
  `0x${createHash('sha256')
    .update(Buffer.from(raw.slice(2), 'hex'))
    .digest('hex')}`;
