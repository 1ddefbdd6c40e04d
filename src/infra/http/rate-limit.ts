import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../../lib/errors.ts';
import type { Config } from '../config.ts';
import { bearerToken } from './auth.ts';
import { registerClientBudgets } from './client-budgets.ts';
import { clientKey } from './client-key.ts';

/**
 * Requests from an agent with a valid API key are limited per agent (and, across all keys, per
 * client: client-budgets.ts), the others per client IP (an IPv6 client by its /64). Only a key that authenticates earns its own budget: otherwise a made-up token on each request
 * would escape the IP limit, and rotating a key would reset the agent's budget. Counters live in
 * memory for one instance, in Redis when REDIS_URL is set, so several instances share one budget;
 * they are named by agent id, never by a usable secret.
 */
async function limitKey(request: FastifyRequest): Promise<string> {
  // Authenticated routes have run `authenticate` already; public ones have not, and there a bad key means "no agent".
  if (!request.agent && bearerToken(request)) await request.server.authenticate(request).catch(() => {});
  return callerKey(request);
}

/**
 * Whose budget a request spends, once authentication has run: its agent's when a valid key was
 * sent, else its client's (an IPv4 address or an IPv6 /64: `clientKey`). The event streams'
 * per-client limit counts by the same key.
 */
export function callerKey(request: FastifyRequest): string {
  return request.agent ? `agent:${request.agent.id}` : `ip:${clientKey(request.ip)}`;
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
  // Registration and the ceiling across keys: per client, whichever path or key (client-budgets.ts).
  registerClientBudgets(app, config, redis);
}

/**
 * Counts `extra` more requests against the budget the global limit charged a request to (same
 * key, same window, in Redis too when it is shared): a JSON-RPC batch on /mcp spends one request
 * per call. When the budget left cannot hold them, none is counted and the answer is 429
 * `rate_limited` with Retry-After, so a smaller batch may still go through; the reply's
 * X-RateLimit-Remaining then tells how much is left.
 */
export function extraRequests(app: FastifyInstance) {
  // Without options: the global limiter itself (its store, key and maximum), not a route's own.
  const limiter = app.createRateLimit();
  return async (request: FastifyRequest, reply: FastifyReply, extra: number): Promise<void> => {
    if (extra <= 0) return;
    const now = await limiter(request, { increment: false });
    if (now.isAllowed) return;
    if (now.remaining < extra) refuse(reply, now, extra + 1);
    // The calls count against the client's ceiling across keys as well, as single requests would;
    // taken (all or none) before the key's, so that a batch the ceiling refuses spends no more of the key.
    if (request.agent) await app.clientBudgets.chargeKeyed(request, reply, extra);
    const after = await Promise.all(Array.from({ length: extra }, () => limiter(request)));
    let remaining = now.remaining - extra;
    for (const state of after) {
      if (state.isAllowed) continue;
      remaining = Math.min(remaining, state.remaining);
      // Concurrent requests took part of the budget meanwhile: refused as a single request would be.
      if (state.isExceeded) refuse(reply, state, extra + 1);
    }
    reply.header('x-ratelimit-remaining', Math.max(0, remaining));
  };
}

/** `needed`: what the whole request counts for, its own request (counted already) included. */
function refuse(
  reply: FastifyReply,
  state: { max: number; remaining: number; ttlInSeconds: number },
  needed: number,
): never {
  const seconds = Math.max(1, state.ttlInSeconds);
  reply.header('x-ratelimit-remaining', state.remaining);
  reply.header('x-ratelimit-reset', seconds);
  reply.header('retry-after', seconds);
  throw new AppError(
    'rate_limited',
    needed > state.max
      ? `This batch counts as ${needed} requests, more than the whole budget of ${state.max} per minute; send smaller batches.`
      : `This batch counts as ${needed} requests, more than the ${state.remaining + 1} left of this minute's budget; retry in ${seconds} seconds or send a smaller batch.`,
  );
}
