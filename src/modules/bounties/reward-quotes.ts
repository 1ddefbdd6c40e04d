import { worthOf } from '../../lib/curve.ts';
import { splitReward } from '../payouts/fee-split.ts';

const WHOLE = 10n ** 18n;

/**
 * What the contributor's share of a reward sells for on the curve now (`reward_eth_units`), from the
 * curve as last read; null without one. A share above the supply sells what the supply can pay.
 */
export function rewardValue(
  curve: { a: bigint | null; b: bigint | null; supply: bigint | null },
  rewardTokens: number,
  feeBps: number,
): string | null {
  if (curve.a === null || curve.b === null || curve.supply === null) return null;
  // The share the payouts module pays: the one fee split.
  const share = splitReward(BigInt(rewardTokens) * WHOLE, feeBps).contributorUnits;
  return worthOf({ a: curve.a, b: curve.b, supplyUnits: curve.supply }, share).toString();
}

/** Quotes kept per fee; past this many the fee's quotes start over (a bound, not a policy). */
export const MAX_QUOTES = 10_000;
const quotes = new Map<number, Map<string, string>>();

/**
 * `rewardValue` of a listed bounty from its quote (`reward:a:b:supply`, as the list's statement
 * writes it; null before the token's curve is read). The value is a pure function of that text and
 * the fee, so each is computed once and kept: a page of 20 rows costs 20 lookups instead of 20
 * quotes in bigint arithmetic (~0.6 µs each), until a trade moves the supply and so the text.
 */
export function quotedReward(quote: string | null, feeBps: number): string | null {
  if (quote === null) return null;
  let kept = quotes.get(feeBps);
  if (kept === undefined) {
    kept = new Map();
    quotes.set(feeBps, kept);
  }
  const hit = kept.get(quote);
  if (hit !== undefined) return hit;
  const [reward, a, b, supply] = quote.split(':') as [string, string, string, string];
  const value = rewardValue(
    { a: BigInt(a), b: BigInt(b), supply: BigInt(supply) },
    Number(reward),
    feeBps,
  ) as string;
  if (kept.size >= MAX_QUOTES) kept.clear();
  kept.set(quote, value);
  return value;
}

/** How many quotes are kept for `feeBps` (tests). */
export const keptQuotes = (feeBps: number): number => quotes.get(feeBps)?.size ?? 0;
