/**
 * Yes for a key at most once per period: a state that lasts (a payout waiting for funds, a request
 * waiting for ETH) is logged once in a while, not on every pass of the job that meets it. Holds at
 * most `max` keys (forgets them all past that: a key said once more is harmless).
 */
export class OncePer {
  private readonly last = new Map<string, number>();

  constructor(
    private readonly periodMs: number,
    private readonly max = 1_000,
  ) {}

  /** True when `key` was not said within the period before `nowMs` (and it counts as said now). */
  due(key: string, nowMs: number): boolean {
    if (nowMs - (this.last.get(key) ?? Number.NEGATIVE_INFINITY) < this.periodMs) return false;
    if (this.last.size >= this.max) this.last.clear();
    this.last.set(key, nowMs);
    return true;
  }

  /** The state ended: the next time it holds is said at once. */
  forget(key: string): void {
    this.last.delete(key);
  }
}
