import type { FastifyBaseLogger } from 'fastify';
import type { Chain, FeedRound } from '../../infra/chain/chain.ts';
import type { Clock } from '../../lib/clock.ts';
import { type UsdRate, usdRate } from '../../lib/usd.ts';

export interface PricesDeps {
  chain: Pick<Chain, 'readPriceFeed'>;
  clock: Clock;
  log: FastifyBaseLogger;
  /** ETH_USD_FEED_ADDRESS: a Chainlink-style ETH/USD aggregator; none, no dollars are shown. */
  ethUsdFeedAddress: string | undefined;
  /** How long a request waits for a read under way before it answers without dollars. */
  waitMs?: number;
}

/** How long one reading of the feed serves every request of this instance. */
export const PRICE_TTL_MS = 60_000;
/** A slow node must not hold up the answers that wait for a reading: they go without dollars. */
const WAIT_MS = 2_000;
/** A round not updated for this long is no price: the feed stopped (Chainlink's heartbeats are hours). */
export const MAX_ROUND_AGE_MS = 24 * 3_600_000;

/**
 * The ETH/USD price of the configured feed, for the `*_usd` fields next to ETH values. Read on
 * chain at most once a minute per instance: callers within the minute share the reading, and
 * callers while it is under way share that one read. No price (null) when no feed is configured,
 * when the feed's answer is not positive, when its round is older than a day, or when the read
 * failed (logged; the answer that asked still succeeds, without dollars). A null is cached for the
 * minute too, so a broken feed costs one read a minute, not one per request. A request waits at
 * most `waitMs` (2 s) for a read under way: past that it answers without dollars, and the read
 * goes on to serve the requests after it.
 */
export class PricesService {
  private cached: { rate: UsdRate | null; until: number } | null = null;
  private reading: Promise<UsdRate | null> | null = null;

  constructor(private readonly deps: PricesDeps) {}

  /** The price now, or null; read once per request and handed to every row that needs it. */
  async ethUsd(): Promise<UsdRate | null> {
    if (this.deps.ethUsdFeedAddress === undefined) return null;
    if (this.cached && this.deps.clock.now().getTime() < this.cached.until) return this.cached.rate;
    this.reading ??= this.read(this.deps.ethUsdFeedAddress).finally(() => {
      this.reading = null;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(resolve, this.deps.waitMs ?? WAIT_MS, null);
    });
    try {
      return await Promise.race([this.reading, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async read(feed: string): Promise<UsdRate | null> {
    let rate: UsdRate | null = null;
    try {
      const round = await this.deps.chain.readPriceFeed(feed);
      rate =
        round === null ? this.none(feed, 'no aggregator answers at this address') : this.usable(feed, round);
    } catch (err) {
      this.deps.log.warn(
        { err, feed },
        'reading the ETH/USD price feed failed: no dollar values for a minute',
      );
    }
    this.cached = { rate, until: this.deps.clock.now().getTime() + PRICE_TTL_MS };
    return rate;
  }

  private usable(feed: string, round: FeedRound): UsdRate | null {
    if (round.answer <= 0n) return this.none(feed, `its answer is ${round.answer}`);
    const ageMs = this.deps.clock.now().getTime() - Number(round.updatedAt) * 1000;
    if (ageMs > MAX_ROUND_AGE_MS) {
      return this.none(feed, `its latest round is ${Math.round(ageMs / 3_600_000)} h old`);
    }
    return usdRate(round.answer, round.decimals);
  }

  private none(feed: string, why: string): null {
    this.deps.log.warn({ feed }, `the ETH/USD price feed gives no price: ${why}`);
    return null;
  }
}
