import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keptQuotes, MAX_QUOTES, quotedReward, rewardValue } from '../src/modules/bounties/reward-quotes.ts';

const quoteOf = (reward: number, a: bigint, b: bigint, supply: bigint) => `${reward}:${a}:${b}:${supply}`;

describe('quotedReward', () => {
  it('is rewardValue of the quote, first and again (kept), for any curve, reward and fee', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000_000 }),
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.integer({ min: 0, max: 10_000 }),
        (reward, a, b, supply, feeBps) => {
          const expected = rewardValue({ a, b, supply }, reward, feeBps);
          const quote = quoteOf(reward, a, b, supply);
          expect(quotedReward(quote, feeBps)).toBe(expected);
          expect(quotedReward(quote, feeBps)).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps a quote per fee: the same text under another fee is quoted anew', () => {
    const quote = quoteOf(1000, 10n ** 12n, 10n ** 3n, 500_000n * 10n ** 18n);
    const low = quotedReward(quote, 100);
    const high = quotedReward(quote, 9_000);
    expect(low).toBe(rewardValue({ a: 10n ** 12n, b: 10n ** 3n, supply: 500_000n * 10n ** 18n }, 1000, 100));
    expect(high).toBe(
      rewardValue({ a: 10n ** 12n, b: 10n ** 3n, supply: 500_000n * 10n ** 18n }, 1000, 9_000),
    );
    expect(BigInt(high as string)).toBeLessThan(BigInt(low as string));
  });

  it('is null before the curve is read', () => {
    expect(quotedReward(null, 250)).toBeNull();
  });

  it('keeps at most MAX_QUOTES per fee, still right after it starts over', () => {
    const fee = 4_321; // a fee no other test here uses
    const curve = { a: 10n ** 12n, b: 10n ** 3n };
    for (let i = 0; i < MAX_QUOTES + 5; i++) quotedReward(quoteOf(1 + i, curve.a, curve.b, 10n ** 24n), fee);
    expect(keptQuotes(fee)).toBeLessThanOrEqual(MAX_QUOTES);
    expect(keptQuotes(fee)).toBeGreaterThan(0);
    expect(quotedReward(quoteOf(7, curve.a, curve.b, 10n ** 24n), fee)).toBe(
      rewardValue({ ...curve, supply: 10n ** 24n }, 7, fee),
    );
  });
});
