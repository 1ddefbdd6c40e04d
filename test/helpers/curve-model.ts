/**
 * Reference model of contracts/BondingCurve.sol in bigint. The inverse of R is found by binary
 * search, not by the contract's square-root closed form, so a wrong closed form cannot agree with it.
 */
const WAD = 10n ** 18n;
export const MAX_SUPPLY = 10n ** 27n;
export const FEE_BPS = 100n;

export interface CurveParams {
  a: bigint;
  b: bigint;
}

/** R(x): wei backing a supply of x base units, floored once. */
export const reserveFor = ({ a, b }: CurveParams, x: bigint): bigint =>
  (2n * a * x * WAD + b * x * x) / (2n * WAD * WAD);

export const feeOf = (amount: bigint): bigint => (amount * FEE_BPS) / 10_000n;

/** Largest supply x with R(x) <= target, or null when it would exceed MAX_SUPPLY. */
export function supplyFor(p: CurveParams, target: bigint): bigint | null {
  if (reserveFor(p, MAX_SUPPLY + 1n) <= target) return null;
  let lo = 0n; // R(lo) <= target
  let hi = MAX_SUPPLY + 1n; // R(hi) > target
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (reserveFor(p, mid) <= target) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** What buy(ethIn) mints at this supply; null when it would pass MAX_SUPPLY. `net` stays in the reserve. */
export function quoteBuy(p: CurveParams, supply: bigint, ethIn: bigint) {
  const fee = feeOf(ethIn);
  const net = ethIn - fee;
  const after = supplyFor(p, reserveFor(p, supply) + net);
  return after === null ? null : { tokensOut: after - supply, fee, net };
}

/** What sell(tokensIn) pays at this supply; `gross` leaves the reserve. */
export function quoteSell(p: CurveParams, supply: bigint, tokensIn: bigint) {
  const gross = reserveFor(p, supply) - reserveFor(p, supply - tokensIn);
  const fee = feeOf(gross);
  return { ethOut: gross - fee, fee, gross };
}
