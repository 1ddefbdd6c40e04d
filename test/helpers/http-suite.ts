import { randomInt } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import { expect } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { Chain } from '../../src/infra/chain/chain.ts';
import { unavailableChain } from '../../src/infra/chain/unavailable-chain.ts';
import { loadConfig } from '../../src/infra/config.ts';
import type { Database } from '../../src/infra/db/client.ts';
import { hashApiKey } from '../../src/lib/api-key.ts';
import type { TestApp } from './app.ts';
import { TestClock } from './clock.ts';

/** A client address no other test uses, so rate-limit counters (in memory or in Redis) start at zero. */
export function randomIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

/**
 * An app on a database someone else owns, with rate-limit counters in the given Redis: two of
 * these on one Redis behave as two instances of the service.
 */
export async function buildRedisApp(opts: {
  database: Database;
  redis: Redis;
  env?: Record<string, string>;
  chain?: Chain;
}): Promise<TestApp> {
  const config = loadConfig({
    RATE_LIMIT_PER_IP_PER_MINUTE: '100000',
    RATE_LIMIT_PER_KEY_PER_MINUTE: '100000',
    RATE_LIMIT_REGISTER_PER_IP_PER_HOUR: '100000',
    ...opts.env,
  });
  const app = await buildApp({
    database: opts.database,
    chain: opts.chain ?? unavailableChain,
    clock: new TestClock(),
    config,
    redis: opts.redis,
  });
  await app.ready();
  return app;
}

/**
 * Every `METHOD /path` the app serves under /api, read from Fastify's own route tree (HEAD
 * routes Fastify adds for GETs left out), with `:id` written `{id}` as in OpenAPI.
 */
export function apiRoutes(app: TestApp): string[] {
  const lines = app.printRoutes({ commonPrefix: false }).split('\n');
  const stack: string[] = [];
  const out = new Set<string>();
  for (const line of lines) {
    const m = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    const path = (stack[depth - 1] ?? '') + (m[2] ?? '');
    stack[depth] = path;
    stack.length = depth + 1;
    if (!path.startsWith('/api/') || !m[3]) continue;
    for (const method of m[3].split(', ')) {
      if (method !== 'HEAD') out.add(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return [...out].sort();
}

/** Fails when a response body shows a stored key hash, by field name or by value. */
export function expectNoKeyHash(res: LightMyRequestResponse, issuedKeys: Iterable<string> = []) {
  expect(res.body).not.toMatch(/api_?key_?hash/i);
  for (const key of issuedKeys) expect(res.body).not.toContain(hashApiKey(key));
}
