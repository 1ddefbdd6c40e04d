import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** What one take left: whether it was granted, what is left of the window, and when it ends. */
export interface Spent {
  ok: boolean;
  remaining: number;
  /** Seconds until the window ends (at least 1): the Retry-After of a refusal. */
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters for the client budgets (registration, the per-IP ceiling across keys).
 * `take` is all or nothing and atomic: concurrent takes never hand out more than `max`, and each
 * answer is its own value, never a counter another take goes on changing (the flaw that had a batch
 * of 31 `register_agent` calls all refused when only the 31st was over the budget).
 */
export interface BudgetStore {
  take(key: string, count: number, max: number, windowMs: number): Promise<Spent>;
}

const secondsLeft = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * One instance's counters. At most `maxKeys` windows are kept: past that, ended ones are dropped,
 * then the oldest, which at worst gives a client a fresh window early (as the per-minute limiter's
 * LRU does), never holds memory without bound.
 */
export function memoryBudgets(opts: { now?: () => number; maxKeys?: number } = {}): BudgetStore {
  const now = opts.now ?? Date.now;
  const maxKeys = opts.maxKeys ?? 100_000;
  const windows = new Map<string, { used: number; endsAt: number }>();
  const makeRoom = (t: number) => {
    for (const [key, w] of windows) if (w.endsAt <= t) windows.delete(key);
    for (const key of windows.keys()) {
      if (windows.size < maxKeys * 0.9) break;
      windows.delete(key);
    }
  };
  return {
    async take(key, count, max, windowMs) {
      const t = now();
      let w = windows.get(key);
      if (!w || w.endsAt <= t) {
        windows.delete(key);
        if (windows.size >= maxKeys) makeRoom(t);
        w = { used: 0, endsAt: t + windowMs };
        windows.set(key, w);
      }
      const ok = w.used + count <= max;
      if (ok) w.used += count;
      return { ok, remaining: Math.max(0, max - w.used), retryAfterSeconds: secondsLeft(w.endsAt - t) };
    },
  };
}

// KEYS[1]: the counter; ARGV: count, max, window (ms). Answers {granted (0/1), used, ms left}.
const TAKE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local count, max, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local ttl = redis.call('PTTL', KEYS[1])
if used + count > max then
  if ttl < 0 then ttl = window end
  return {0, used, ttl}
end
used = redis.call('INCRBY', KEYS[1], count)
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], window)
  ttl = window
end
return {1, used, ttl}`;

type WithTake = Redis & {
  bmBudgetTake(key: string, count: number, max: number, windowMs: number): Promise<[number, number, number]>;
};

/**
 * Counters every instance shares, one Lua script per take (atomic in Redis). While Redis fails,
 * requests are served rather than refused, as the per-minute limiter does (`skipOnError`).
 */
export function redisBudgets(redis: Redis, log: FastifyBaseLogger, prefix = 'bm-budget:'): BudgetStore {
  const client = redis as WithTake;
  if (!('bmBudgetTake' in client)) redis.defineCommand('bmBudgetTake', { numberOfKeys: 1, lua: TAKE });
  return {
    async take(key, count, max, windowMs) {
      try {
        const [granted, used, ttl] = await client.bmBudgetTake(prefix + key, count, max, windowMs);
        return { ok: granted === 1, remaining: Math.max(0, max - used), retryAfterSeconds: secondsLeft(ttl) };
      } catch (err) {
        log.warn({ err }, 'rate-limit budget unavailable in Redis; request served');
        return { ok: true, remaining: max, retryAfterSeconds: secondsLeft(windowMs) };
      }
    },
  };
}
