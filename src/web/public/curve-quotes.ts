import type { Chain, CurveState } from '../../infra/chain/chain.ts';
import type { Clock } from '../../lib/clock.ts';

export { priceAt, reserveFor, sellQuote } from '../../lib/curve.ts';

interface Entry {
  at: number;
  value: Promise<CurveState | null>;
}

/**
 * Curve reads for pages, cached per curve for a few seconds: a busy board asks the node at most
 * once per project per TTL, and concurrent requests share one read. A failed or slow read is
 * null (the page shows "—" and still renders), and is cached too, so a down node does not slow
 * every page view.
 */
export class CurveQuotes {
  private readonly cache = new Map<string, Entry>();

  constructor(
    private readonly deps: {
      chain: Pick<Chain, 'readCurve'>;
      clock: Clock;
      ttlMs?: number;
      /** A page waits this long for the node, then shows "—". */
      timeoutMs?: number;
    },
  ) {}

  state(curveAddress: string | null, tokenAddress: string | null): Promise<CurveState | null> {
    if (!curveAddress || !tokenAddress) return Promise.resolve(null);
    const now = this.deps.clock.now().getTime();
    const key = curveAddress.toLowerCase();
    const hit = this.cache.get(key);
    if (hit && now - hit.at < (this.deps.ttlMs ?? 5000)) return hit.value;
    const value = this.read(curveAddress, tokenAddress);
    this.cache.set(key, { at: now, value });
    // Bounded: one entry per project, and old ones go when the map grows past a page's worth.
    if (this.cache.size > 1000) this.cache.delete(this.cache.keys().next().value as string);
    return value;
  }

  private async read(curve: string, token: string): Promise<CurveState | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.deps.timeoutMs ?? 1500);
    });
    try {
      return await Promise.race([this.deps.chain.readCurve(curve, token), timeout]);
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }
}
