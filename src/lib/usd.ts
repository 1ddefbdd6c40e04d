/**
 * Dollars of ETH amounts at an ETH/USD feed's price, exact in bigint: wei * answer / 10^(18 +
 * decimals) dollars, rounded half-up to the cent (values are never negative) and written with two
 * decimals: "12.34", "0.00".
 */
export interface UsdRate {
  /** The feed's answer times 100: cents per ETH, scaled by 10^decimals. */
  readonly centsPerEth: bigint;
  /** 10^(18 + decimals): wei per ETH times the feed's scale. */
  readonly scale: bigint;
  /** Half of `scale`, added before the division: rounds half-up. */
  readonly half: bigint;
}

const WEI_DECIMALS = 18;

/** The rate of a feed's positive answer (the caller decides that the answer is a usable price). */
export function usdRate(answer: bigint, decimals: number): UsdRate {
  const scale = 10n ** BigInt(WEI_DECIMALS + decimals);
  return { centsPerEth: answer * 100n, scale, half: scale / 2n };
}

/** Dollars of `wei` at `rate`; null without a rate or without an amount. */
export function usdOf(wei: bigint | string | null, rate: UsdRate | null): string | null {
  if (rate === null || wei === null) return null;
  const cents = (BigInt(wei) * rate.centsPerEth + rate.half) / rate.scale;
  const frac = cents % 100n;
  return `${cents / 100n}.${frac < 10n ? '0' : ''}${frac}`;
}
