import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../../lib/errors.ts';
import type { Config } from '../config.ts';
import { type BudgetStore, memoryBudgets, redisBudgets, type Spent } from './budget-store.ts';
import { clientKey } from './client-key.ts';

/**
 * The budgets that belong to a person, not to an account: counted per client (an IPv4 address or
 * an IPv6 /64, `clientKey`), whatever key, page or tool the request came through.
 *
 * - Registration: `registerPerIpPerHour` per client per hour, one budget for `POST
 *   /api/agents/register`, web sign-up and the MCP tool `register_agent`. Without it a client had
 *   one budget per path, and each new account its own per-key budget on top.
 * - The ceiling across keys: a request with an API key counts against its key's per-minute budget
 *   (rate-limit.ts) and also against `keysPerIpPerMinute` of its client, so keys made in bulk do
 *   not multiply what one client may send.
 */
export interface ClientBudgets {
  /** Spends one registration of the request's client; `ok: false` once the hour's are spent. */
  registration(request: FastifyRequest): Promise<Spent>;
  /** The same, refused with 429 `rate_limited` (and Retry-After on `reply` when there is one). */
  spendRegistration(request: FastifyRequest, reply?: FastifyReply): Promise<void>;
  /** Counts `count` requests made with a key against their client's ceiling; 429 when they do not fit. */
  chargeKeyed(request: FastifyRequest, reply: FastifyReply, count: number): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    clientBudgets: ClientBudgets;
  }
}

const HOUR = 3_600_000;
const MINUTE = 60_000;

function retryAfter(reply: FastifyReply | undefined, spent: Spent): void {
  reply?.header('retry-after', spent.retryAfterSeconds);
  reply?.header('x-ratelimit-remaining', spent.remaining);
  reply?.header('x-ratelimit-reset', spent.retryAfterSeconds);
}

export function clientBudgets(store: BudgetStore, config: Config['rateLimit']): ClientBudgets {
  const registration = (request: FastifyRequest) =>
    store.take(`register:${clientKey(request.ip)}`, 1, config.registerPerIpPerHour, HOUR);
  return {
    registration,
    async spendRegistration(request, reply) {
      const spent = await registration(request);
      if (spent.ok) return;
      retryAfter(reply, spent);
      throw new AppError(
        'rate_limited',
        `Too many agents were registered from your network (an IPv4 address, or an IPv6 /64) in the last hour: ` +
          `${config.registerPerIpPerHour} per hour, through the API, the web and MCP together; retry in ${spent.retryAfterSeconds} seconds.`,
      );
    },
    async chargeKeyed(request, reply, count) {
      if (count <= 0) return;
      const max = config.keysPerIpPerMinute;
      const spent = await store.take(`keys:${clientKey(request.ip)}`, count, max, MINUTE);
      if (spent.ok) return;
      retryAfter(reply, spent);
      throw new AppError(
        'rate_limited',
        `Your network (an IPv4 address, or an IPv6 /64) may send ${max} requests per minute with API keys, ` +
          `all its keys together, and has ${spent.remaining} left; ` +
          (count > max
            ? 'send smaller batches.'
            : `retry in ${spent.retryAfterSeconds} seconds${count > 1 ? ' or send a smaller batch' : ''}.`),
      );
    },
  };
}

/**
 * Puts the budgets on the app (counters in Redis when there is one, so every instance shares them)
 * and counts every rate-limited request that carries a valid key against its client's ceiling.
 * preParsing runs after every onRequest hook, so the per-key limiter has run (and named the agent)
 * and a request it refused is not counted here; it runs before the body is read.
 */
export function registerClientBudgets(
  app: FastifyInstance,
  config: Config['rateLimit'],
  redis: Redis | undefined,
): void {
  const budgets = clientBudgets(redis ? redisBudgets(redis, app.log) : memoryBudgets(), config);
  app.decorate('clientBudgets', budgets);
  // A callback, not an async hook: a request without a key (most of them) passes at once.
  app.addHook('preParsing', (request, reply, payload, done) => {
    const limited = (request.routeOptions.config as { rateLimit?: unknown } | undefined)?.rateLimit !== false;
    if (!limited || !request.agent) return done(null, payload);
    budgets.chargeKeyed(request, reply, 1).then(() => done(null, payload), done);
  });
}
