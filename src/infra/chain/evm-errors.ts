import { BaseError, decodeErrorResult, type Hex } from 'viem';
import { AppError } from '../../lib/errors.ts';
import { bondingCurveAbi } from './contracts/BondingCurve.ts';

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
export function slippageRefusal(err: unknown): AppError | null {
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

export const errorText = (err: unknown): string => {
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
