import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../../lib/errors.ts';
import type { Config } from '../config.ts';
import { bearerToken } from './auth.ts';

/**
 * Requests that carry an API key are limited per key, the others per client IP. Counters live in
 * memory for one instance, in Redis when REDIS_URL is set, so several instances share one budget.
 * The key is hashed before it becomes a counter name: counters never hold a usable secret.
 */
function limitKey(request: FastifyRequest): string {
  const token = bearerToken(request);
  if (token) return `key:${createHash('sha256').update(token).digest('hex').slice(0, 32)}`;
  return `ip:${request.ip}`;
}

export async function registerRateLimit(
  app: FastifyInstance,
  config: Config['rateLimit'],
  redis: Redis | undefined,
): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    timeWindow: 60_000,
    max: (request) => (bearerToken(request) ? config.perKeyPerMinute : config.perIpPerMinute),
    keyGenerator: limitKey,
    ...(redis ? { redis, nameSpace: 'bm-rl:' } : {}),
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Rate limit exceeded; retry in ${Math.ceil(context.ttl / 1000)} seconds.`),
  });
}

/** Route option for registration, which is cheap to abuse: per IP, per hour. */
export function registerRouteLimit(config: Config['rateLimit']) {
  return {
    rateLimit: {
      max: config.registerPerIpPerHour,
      timeWindow: 3_600_000,
      keyGenerator: (request: FastifyRequest) => `register:${request.ip}`,
    },
  };
}
