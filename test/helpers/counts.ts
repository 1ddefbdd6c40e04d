/**
 * How many random runs a randomized suite makes. Every push runs the smaller count, which still
 * reaches every operation; `TEST_FULL=1` (`npm run test:full`, the nightly-style run) runs the full
 * count; the suite's own variable (MODEL_RUNS, CRASH_KILLS, ...) wins over both, to replay or to
 * soak. Each suite prints its seed, so a failure at either count replays.
 */
export function randomRuns(variable: string, onPush: number, full: number): number {
  const own = process.env[variable];
  if (own !== undefined && own !== '') {
    const n = Number(own);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${variable} must be a positive integer, not ${own}`);
    return n;
  }
  return process.env.TEST_FULL === '1' ? full : onPush;
}

/** A seed from `variable` when set (to replay a failure), else a fresh random one. */
export function randomSeed(variable: string): number {
  const own = process.env[variable];
  return own !== undefined && own !== '' ? Number(own) : Math.floor(Math.random() * 2 ** 31);
}
