// The bonding curve's arithmetic, exactly as contracts/BondingCurve.sol does it (integers, one
// floor), so a quote here equals the contract's own `quoteSell`.

export interface CurveParams {
  a: bigint;
  b: bigint;
}
export interface CurveAt extends CurveParams {
  supplyUnits: bigint;
}

const WAD = 10n ** 18n;
const FEE_BPS = 100n;
const BPS = 10_000n;

/** R(x) of the contract (BondingCurve.reserveFor): the reserve backing a supply of x base units. */
export function reserveFor(c: CurveParams, x: bigint): bigint {
  return (2n * c.a * x * WAD + c.b * x * x) / (2n * WAD * WAD);
}

/**
 * What selling `units` back to the curve pays now, fee deducted (BondingCurve.quoteSell); null when
 * that is more than the whole supply (the contract would revert).
 */
export function sellQuote(c: CurveAt, units: bigint): bigint | null {
  if (units > c.supplyUnits || units < 0n) return null;
  const gross = reserveFor(c, c.supplyUnits) - reserveFor(c, c.supplyUnits - units);
  return gross - (gross * FEE_BPS) / BPS;
}

/** The marginal price of one whole token at supply x, in wei: a + b * x / 1e18. */
export function priceAt(c: CurveParams, x: bigint): bigint {
  return c.a + (c.b * x) / WAD;
}

/** The fewest base units whose sale pays at least `wei` now; null when even the whole supply does not. */
export function unitsSellingFor(c: CurveAt, wei: bigint): bigint | null {
  if ((sellQuote(c, c.supplyUnits) ?? 0n) < wei) return null;
  let lo = 0n;
  let hi = c.supplyUnits;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if ((sellQuote(c, mid) ?? 0n) >= wei) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

/**
 * What selling `units` pays now, or, for more than the whole supply (which cannot be sold at once:
 * the contract would revert), what selling the whole supply pays: what a balance is worth.
 */
export function worthOf(c: CurveAt, units: bigint): bigint {
  const sellable = units < c.supplyUnits ? units : c.supplyUnits;
  return sellQuote(c, sellable) ?? 0n;
}
