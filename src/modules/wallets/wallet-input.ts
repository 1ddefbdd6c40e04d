import { AppError } from '../../lib/errors.ts';

const MAX_UINT256 = 2n ** 256n - 1n;

/** A `_units` field as a bigint; the schema has checked the digits, this checks the uint256 range. */
export function units(field: string, value: string | undefined, fallback = 0n): bigint {
  if (value === undefined) return fallback;
  const n = BigInt(value);
  if (n > MAX_UINT256) {
    throw new AppError('validation_error', 'The request body is invalid.', [
      { field, message: 'must fit in 256 bits' },
    ]);
  }
  return n;
}

export const insufficient = (what: string, have: bigint, need: bigint) =>
  new AppError('insufficient_funds', `The wallet holds ${have} ${what} but this needs ${need}.`);
