import { type Abi, BaseError, decodeErrorResult, type Hex } from 'viem';
import { AppError } from '../../lib/errors.ts';
import { bondingCurveAbi } from './contracts/BondingCurve.ts';
import { payoutRouterAbi } from './contracts/PayoutRouter.ts';
import { projectFactoryAbi } from './contracts/ProjectFactory.ts';
import { projectTokenAbi } from './contracts/ProjectToken.ts';

/** Every custom error our contracts can revert with, those of the OpenZeppelin code they use included. */
const CONTRACT_ERRORS: Abi = [
  ...bondingCurveAbi,
  ...projectTokenAbi,
  ...projectFactoryAbi,
  ...payoutRouterAbi,
].filter((item) => item.type === 'error');
const MAX_REASON_CHARS = 300;
// C0, DEL and C1 controls, and the bidirectional overrides that reorder text around them.
const UNSAFE_CHARS = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/gu;

/**
 * Chain errors become 502s with a short, safe message; the full error goes to the log via `cause`.
 * A node may render revert data as text (anvil prints a custom error's ABI-encoded arguments, NUL
 * padding and all), so a revert of one of our contracts is named by its error instead, and any
 * other reason is stripped of control characters and cut short.
 */
export function upstream(what: string, err: unknown): AppError {
  if (err instanceof AppError) return err;
  const reason = err instanceof BaseError ? (contractErrorName(err) ?? err.shortMessage) : 'no answer';
  const appErr = new AppError('upstream_error', `The blockchain node failed to ${what}: ${safeText(reason)}`);
  (appErr as { cause?: unknown }).cause = err;
  return appErr;
}

/** Text from a node made fit for an error message: one line, no control characters, bounded. */
export function safeText(text: string): string {
  const clean = text.replace(UNSAFE_CHARS, ' ').replace(/\s+/g, ' ').trim();
  const chars = Array.from(clean);
  return chars.length <= MAX_REASON_CHARS ? clean : `${chars.slice(0, MAX_REASON_CHARS).join('')}…`;
}

const revertData = (err: BaseError): Hex | null => {
  const data = (
    err.walk((e) => typeof (e as { data?: unknown }).data === 'string') as { data?: string } | null
  )?.data;
  return data?.startsWith('0x') && data.length >= 10 ? (data as Hex) : null;
};

function contractErrorName(err: BaseError): string | null {
  const data = revertData(err);
  if (!data) return null;
  try {
    return `the contract reverted with ${decodeErrorResult({ abi: CONTRACT_ERRORS, data }).errorName}`;
  } catch {
    return null;
  }
}

/**
 * A curve revert because the price moved past the caller's bound: the caller's 400, not a chain
 * failure. The revert data travels in the RPC error under viem's wrappers.
 */
export function slippageRefusal(err: unknown): AppError | null {
  if (!(err instanceof BaseError)) return null;
  const data = revertData(err);
  if (!data) return null;
  try {
    const { errorName, args } = decodeErrorResult({ abi: bondingCurveAbi, data });
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
