import fc from 'fast-check';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { tokensToUnits, unitsToTokens } from '../src/infra/chain/chain.ts';
import { unavailableChain } from '../src/infra/chain/unavailable-chain.ts';
import type { Db } from '../src/infra/db/client.ts';
import { FundsService } from '../src/modules/funds/funds.service.ts';
import { type PayoutsDeps, PayoutsService } from '../src/modules/payouts/payouts.service.ts';
import { TestClock } from './helpers/clock.ts';

describe('token amounts', () => {
  it('convert whole tokens to base units and back exactly', () => {
    expect(tokensToUnits(1)).toBe(10n ** 18n);
    expect(unitsToTokens(15n * 10n ** 17n)).toBe('1.5');
    expect(unitsToTokens(5n * 10n ** 16n)).toBe('0.05');
    expect(unitsToTokens(1n)).toBe('0.000000000000000001');
    expect(unitsToTokens(0n)).toBe('0');
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), (units) => {
        const [whole, frac = ''] = unitsToTokens(units).split('.');
        expect(BigInt(whole as string) * 10n ** 18n + BigInt(frac.padEnd(18, '0') || '0')).toBe(units);
      }),
    );
  });
});

describe('reward split', () => {
  // `split` is pure: the database, clock and chain are never touched.
  const payouts = (bps: number) =>
    new PayoutsService({
      db: {} as Db,
      clock: new TestClock(),
      chain: unavailableChain,
      funds: new FundsService({ chain: unavailableChain }),
      log: pino({ level: 'silent' }),
      platformFeeBps: bps,
      payoutsEnabled: true,
      pollIntervalMs: 10,
      journal: {} as PayoutsDeps['journal'],
      follow: async () => 0,
      lockSubmission: async () => undefined,
    });

  it('takes the default 5% fee', () => {
    expect(payouts(500).split(100)).toEqual({
      rewardUnits: 100n * 10n ** 18n,
      feeUnits: 5n * 10n ** 18n,
      contributorUnits: 95n * 10n ** 18n,
    });
  });

  it('floors the fee in base units and pays the rest to the contributor, for any reward and rate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (reward, bps) => {
          const s = payouts(bps).split(reward);
          expect(s.rewardUnits).toBe(BigInt(reward) * 10n ** 18n);
          expect(s.feeUnits).toBe((s.rewardUnits * BigInt(bps)) / 10_000n);
          expect(s.feeUnits + s.contributorUnits).toBe(s.rewardUnits);
          expect(s.contributorUnits >= 0n).toBe(true);
        },
      ),
    );
  });
});
