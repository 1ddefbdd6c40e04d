import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../../lib/errors.ts';
import type { Config } from '../config.ts';
import { bearerToken } from './auth.ts';

/**
 * Requests from an agent with a valid API key are limited per agent, the others per client IP.
 * Only a key that authenticates earns its own budget: otherwise a made-up token on each request
 * would escape the IP limit, and rotating a key would reset the agent's budget. Counters live in
 * memory for one instance, in Redis when REDIS_URL is set, so several instances share one budget;
 * they are named by agent id, never by a usable secret.
 */
async function limitKey(request: FastifyRequest): Promise<string> {
  // Authenticated routes have run `authenticate` already; public ones have not, and there a bad key means "no agent".
  if (!request.agent && bearerToken(request)) await request.server.authenticate(request).catch(() => {});
  return request.agent ? `agent:${request.agent.id}` : `ip:${request.ip}`;
}

export async function registerRateLimit(
  app: FastifyInstance,
  config: Config['rateLimit'],
  redis: Redis | undefined,
): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    timeWindow: 60_000,
    max: (request) => (request.agent ? config.perKeyPerMinute : config.perIpPerMinute),
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
