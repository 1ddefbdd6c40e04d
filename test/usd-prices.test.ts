import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { FeedRound } from '../src/infra/chain/chain.ts';
import { loadConfig } from '../src/infra/config.ts';
import { usdOf, usdRate } from '../src/lib/usd.ts';
import { MAX_ROUND_AGE_MS, PRICE_TTL_MS, PricesService } from '../src/modules/prices/prices.service.ts';
import { TestClock } from './helpers/clock.ts';
import { FakeChain } from './helpers/fake-chain.ts';

/** Dollars next to ETH values: the exact formatting, and the feed read at most once a minute. */

const ETH = 10n ** 18n;
const FEED = '0x00000000000000000000000000000000000000fe';

describe('usdOf', () => {
  // $3,123.45678901 with Chainlink's 8 decimals.
  const rate = usdRate(312_345_678_901n, 8);

  it('is wei times the price, exact, with two decimals', () => {
    expect(usdOf(ETH, rate)).toBe('3123.46');
    expect(usdOf(2n * ETH, rate)).toBe('6246.91'); // 6246.91357802
    expect(usdOf(0n, rate)).toBe('0.00');
    expect(usdOf(ETH / 1000n, rate)).toBe('3.12'); // 3.12345678901
    expect(usdOf((ETH * 2n) / 100n, usdRate(100_000_000n, 8))).toBe('0.02');
    expect(usdOf(10n ** 30n, usdRate(1n, 0))).toBe('1000000000000.00');
  });

  it('rounds half-up to the cent', () => {
    const twoDollars = usdRate(2n, 0);
    // 0.005 ETH at $2 is exactly one cent; 0.0025 ETH is half a cent: up.
    expect(usdOf(ETH / 400n, twoDollars)).toBe('0.01');
    expect(usdOf(ETH / 400n - 1n, twoDollars)).toBe('0.00');
    expect(usdOf((ETH * 3n) / 400n, twoDollars)).toBe('0.02'); // 0.015 -> 0.02
    expect(usdOf((ETH * 3n) / 400n - 1n, twoDollars)).toBe('0.01');
  });

  it('takes decimal strings and answers null without a rate or an amount', () => {
    expect(usdOf('1000000000000000000', usdRate(250_000n, 2))).toBe('2500.00');
    expect(usdOf(null, rate)).toBeNull();
    expect(usdOf(ETH, null)).toBeNull();
  });
});

function prices(opts: { feed?: string | undefined; waitMs?: number } = { feed: FEED }) {
  const chain = new FakeChain();
  const clock = new TestClock();
  const service = new PricesService({
    chain,
    clock,
    log: pino({ level: 'silent' }),
    ethUsdFeedAddress: opts.feed,
    ...(opts.waitMs ? { waitMs: opts.waitMs } : {}),
  });
  const round = (answer: bigint, ageMs = 0) => ({
    answer,
    decimals: 8,
    updatedAt: BigInt(Math.floor((clock.now().getTime() - ageMs) / 1000)),
  });
  return { chain, clock, service, round };
}

describe('PricesService.ethUsd', () => {
  it('reads the feed once a minute and shares the reading', async () => {
    const { chain, clock, service, round } = prices();
    chain.priceFeed = round(300_000_000_000n);
    expect(usdOf(ETH, await service.ethUsd())).toBe('3000.00');
    chain.priceFeed = round(310_000_000_000n);
    clock.advance(PRICE_TTL_MS - 1);
    expect(usdOf(ETH, await service.ethUsd())).toBe('3000.00');
    expect(chain.priceFeedReads).toBe(1);
    clock.advance(1);
    expect(usdOf(ETH, await service.ethUsd())).toBe('3100.00');
    expect(chain.priceFeedReads).toBe(2);
  });

  it('shares one read among the callers while it is under way', async () => {
    const { chain, service, round } = prices();
    chain.priceFeed = round(300_000_000_000n);
    const answers = await Promise.all([service.ethUsd(), service.ethUsd(), service.ethUsd()]);
    expect(answers.map((r) => usdOf(ETH, r))).toEqual(['3000.00', '3000.00', '3000.00']);
    expect(chain.priceFeedReads).toBe(1);
  });

  it('answers null rather than wait on a slow read, which then serves the requests after it', async () => {
    const { chain, service, round } = prices({ feed: FEED, waitMs: 20 });
    let answer: (r: FeedRound) => void = () => {};
    chain.readPriceFeed = () => {
      chain.priceFeedReads++;
      return new Promise<FeedRound>((resolve) => {
        answer = resolve;
      });
    };
    expect(await Promise.all([service.ethUsd(), service.ethUsd()])).toEqual([null, null]);
    answer(round(300_000_000_000n));
    await new Promise((resolve) => setImmediate(resolve));
    expect(usdOf(ETH, await service.ethUsd())).toBe('3000.00');
    expect(chain.priceFeedReads).toBe(1);
  });

  it('is null without a configured feed, and never reads the chain then', async () => {
    const { chain, service, round } = prices({ feed: undefined });
    chain.priceFeed = round(300_000_000_000n);
    expect(await service.ethUsd()).toBeNull();
    expect(chain.priceFeedReads).toBe(0);
  });

  it('is null when nothing answers at the address (the fake chain by default)', async () => {
    const { chain, service } = prices();
    expect(await service.ethUsd()).toBeNull();
    expect(chain.priceFeedReads).toBe(1);
  });

  it('is null for a zero or negative answer', async () => {
    for (const answer of [0n, -1n, -300_000_000_000n]) {
      const { chain, service, round } = prices();
      chain.priceFeed = round(answer);
      expect(await service.ethUsd()).toBeNull();
    }
  });

  it('is null for a round older than 24 h, a price again once the feed updates', async () => {
    const { chain, clock, service, round } = prices();
    chain.priceFeed = round(300_000_000_000n, MAX_ROUND_AGE_MS + 1_000);
    expect(await service.ethUsd()).toBeNull();
    chain.priceFeed = round(300_000_000_000n, MAX_ROUND_AGE_MS - 2 * PRICE_TTL_MS);
    expect(await service.ethUsd()).toBeNull(); // still the cached reading
    clock.advance(PRICE_TTL_MS);
    // The same round is a minute older now, and still within the day.
    expect(usdOf(ETH, await service.ethUsd())).toBe('3000.00');
  });

  it('is null when the read fails, cached for the minute, read again after it', async () => {
    const { chain, clock, service, round } = prices();
    chain.priceFeed = new Error('node down');
    expect(await service.ethUsd()).toBeNull();
    chain.priceFeed = round(300_000_000_000n);
    expect(await service.ethUsd()).toBeNull();
    expect(chain.priceFeedReads).toBe(1);
    clock.advance(PRICE_TTL_MS);
    expect(usdOf(ETH, await service.ethUsd())).toBe('3000.00');
  });
});

describe('ETH_USD_FEED_ADDRESS', () => {
  it('is optional, and an address when set', () => {
    expect(loadConfig({}).chain.ethUsdFeedAddress).toBeUndefined();
    expect(loadConfig({ ETH_USD_FEED_ADDRESS: FEED }).chain.ethUsdFeedAddress).toBe(FEED);
    expect(() => loadConfig({ ETH_USD_FEED_ADDRESS: 'eth-usd' })).toThrow(
      'ETH_USD_FEED_ADDRESS must be an address (0x + 40 hex digits).',
    );
  });
});
