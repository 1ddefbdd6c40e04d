import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/lib/api-key.ts';
import {
  buildTestApp,
  expectError,
  randomAddress,
  registerAgent,
  type TestAgent,
  type TestApp,
  type TestContext,
} from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { apiRoutes, buildRedisApp, randomIp } from './helpers/http-suite.ts';

/** The contract's envelope and nothing else: `{"error": {"code", "message", "details"?}}`. */
function expectEnvelope(res: LightMyRequestResponse, status: number, code: string) {
  const err = expectError(res, status, code);
  expect(Object.keys(res.json())).toEqual(['error']);
  for (const key of Object.keys(err)) expect(['code', 'message', 'details', 'request_id']).toContain(key);
  expect((err as { request_id?: string }).request_id).toBe(res.headers['x-request-id']);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return err;
}

const BIG = 64 * 1024;

describe('http', () => {
  const ctx = appForFile();
  let agent: TestAgent;

  beforeAll(async () => {
    agent = await registerAgent(ctx.app);
  });

  describe('unknown routes', () => {
    it.each<[InjectOptions['method'], string]>([
      ['GET', '/api/nothing-here'],
      // `/` is the web board now; an unknown top-level path is still a JSON 404.
      ['GET', '/nothing-here'],
      ['POST', '/api/agents/nope'],
      ['DELETE', '/api/projects'],
      ['PUT', '/api/agents/me/wallet'],
      ['GET', '/api/bounties/x/y/z'],
    ])('%s %s is 404 not_found in the envelope', async (method, url) => {
      expectEnvelope(await ctx.app.inject({ method, url }), 404, 'not_found');
    });

    it('answers 404 in the envelope for a path segment that does not decode', async () => {
      expectEnvelope(await ctx.app.inject({ method: 'GET', url: '/api/agents/%E0%A4%A' }), 404, 'not_found');
    });
  });

  describe('request bodies', () => {
    const register = (payload: string, contentType = 'application/json') =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/agents/register',
        headers: { 'content-type': contentType },
        payload,
      });
    const createProject = (payload: string, contentType = 'application/json') =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/projects',
        headers: { ...agent.headers, 'content-type': contentType },
        payload,
      });

    it('refuses a body over 64 KiB with 413 payload_too_large', async () => {
      const body = JSON.stringify({ name: 'big-body', description: 'd'.repeat(BIG) });
      expect(Buffer.byteLength(body)).toBeGreaterThan(BIG);
      expectEnvelope(await register(body), 413, 'payload_too_large');
      const project = JSON.stringify({ name: 'Big', token_symbol: 'BIGBODY', description: 'd'.repeat(BIG) });
      expectEnvelope(await createProject(project), 413, 'payload_too_large');
    });

    it('reads a body just under 64 KiB and validates it', async () => {
      const body = JSON.stringify({ name: 'almost-big', description: 'd'.repeat(BIG - 100) });
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(BIG);
      const err = expectEnvelope(await register(body), 400, 'validation_error');
      expect(err.details?.map((d) => d.field)).toEqual(['description']);
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'text/html'])(
      'refuses a %s body with 415 unsupported_media_type',
      async (contentType) => {
        const payload = contentType.includes('form')
          ? 'name=form-agent'
          : JSON.stringify({ name: 'typed-agent' });
        expectEnvelope(await register(payload, contentType), 415, 'unsupported_media_type');
        expectEnvelope(
          await createProject(JSON.stringify({ name: 'Typed', token_symbol: 'TYPED' }), contentType),
          415,
          'unsupported_media_type',
        );
      },
    );

    it('creates nothing from a body it refused for its media type', async () => {
      const name = `media-${Date.now().toString(36)}`;
      expect((await register(JSON.stringify({ name }), 'text/plain')).statusCode).toBe(415);
      const res = await register(JSON.stringify({ name }));
      expect(res.statusCode, res.body).toBe(201);
    });

    it('accepts application/json with a charset', async () => {
      const res = await register(
        JSON.stringify({ name: `charset-${Date.now().toString(36)}` }),
        'application/json; charset=utf-8',
      );
      expect(res.statusCode, res.body).toBe(201);
    });

    it.each([
      ['truncated JSON', '{"name": "half'],
      ['a bare word', 'hello'],
      ['single quotes', "{'name': 'x'}"],
      ['a trailing comma', '{"name": "trailing",}'],
    ])('refuses %s with 400 validation_error', async (_case, payload) => {
      expectEnvelope(await register(payload), 400, 'validation_error');
      expectEnvelope(await createProject(payload), 400, 'validation_error');
    });

    it.each([
      ['an array', '[]'],
      ['a string', '"name"'],
      ['null', 'null'],
      ['an empty body', ''],
    ])('refuses %s where an object is required with 400 validation_error', async (_case, payload) => {
      expectEnvelope(await register(payload), 400, 'validation_error');
    });

    it('refuses a prototype-poisoning body with 400 validation_error', async () => {
      const payload = `{"name": "proto-agent", "__proto__": {"admin": true}}`;
      expectEnvelope(await register(payload), 400, 'validation_error');
    });

    it('lets a bodyless POST say application/json', async () => {
      const own = await registerAgent(ctx.app);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/agents/me/rotate-key',
        headers: { ...own.headers, 'content-type': 'application/json' },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  describe('OpenAPI document', () => {
    let doc: {
      openapi: string;
      paths: Record<
        string,
        Record<
          string,
          {
            security?: Record<string, string[]>[];
            responses?: Record<string, { content?: Record<string, unknown> }>;
          }
        >
      >;
      components: { securitySchemes: Record<string, unknown> };
    };

    beforeAll(async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      doc = res.json();
    });

    it('is OpenAPI 3.1 with a bearer security scheme', () => {
      expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
      expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
    });

    it('lists every /api operation the app serves, and no other path', () => {
      const served = apiRoutes(ctx.app);
      expect(served).toEqual(
        expect.arrayContaining([
          'POST /api/agents/register',
          'GET /api/agents/me',
          'GET /api/agents/{id}',
          'PATCH /api/agents/me/wallet',
          'POST /api/agents/me/rotate-key',
          'POST /api/agents/me/generate-wallet',
          'POST /api/projects',
          'GET /api/projects',
          'GET /api/projects/{id}',
          'GET /api/bounties',
          'GET /api/activity',
          'GET /api/dashboard/stats',
          'GET /api/config/public',
        ]),
      );
      const documented = Object.entries(doc.paths)
        .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
        .filter((op) => !op.startsWith('HEAD '))
        .sort();
      expect(documented).toEqual(served);
    });

    it('marks exactly the operations that answer 401 without a key as bearerAuth', async () => {
      for (const [path, ops] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(ops)) {
          if (method === 'head') continue;
          const url = path.replace(/\{id\}/g, `x${Date.now()}`);
          // An event stream answers its status and then stays open: read the status, then hang up.
          const streams = op.responses?.['200']?.content?.['text/event-stream'] !== undefined;
          const res = await ctx.app.inject({
            method: method.toUpperCase() as 'GET',
            url,
            ...(streams ? { payloadAsStream: true } : {}),
          });
          if (streams) res.stream().destroy();
          // `{}` among the requirements makes the key optional (the event stream takes one or none).
          const security = op.security ?? [];
          const secured =
            security.some((s) => 'bearerAuth' in s) && !security.some((s) => Object.keys(s).length === 0);
          expect(secured, `${method.toUpperCase()} ${path} answered ${res.statusCode}`).toBe(
            res.statusCode === 401,
          );
        }
      }
    });
  });

  describe('API docs page', () => {
    it('serves an HTML page at /docs', async () => {
      let url = '/docs';
      let res = await ctx.app.inject({ method: 'GET', url });
      for (let hops = 0; res.statusCode >= 300 && res.statusCode < 400 && hops < 5; hops++) {
        url = new URL(String(res.headers.location), 'http://localhost').pathname;
        res = await ctx.app.inject({ method: 'GET', url });
      }
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toMatch(/<html/i);
    });
  });

  describe('rate limits', () => {
    let limited: TestContext;
    const PER_IP = 3;
    const PER_KEY = 5;

    beforeAll(async () => {
      limited = await buildTestApp({
        env: {
          RATE_LIMIT_PER_IP_PER_MINUTE: String(PER_IP),
          RATE_LIMIT_PER_KEY_PER_MINUTE: String(PER_KEY),
          RATE_LIMIT_REGISTER_PER_IP_PER_HOUR: '2',
        },
      });
    });
    afterAll(() => limited.close());

    const get = (url: string, remoteAddress: string, headers: Record<string, string> = {}) =>
      limited.app.inject({ method: 'GET', url, remoteAddress, headers });
    const register = (remoteAddress: string) =>
      limited.app.inject({
        method: 'POST',
        url: '/api/agents/register',
        remoteAddress,
        payload: {
          name: `rl-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
          wallet_address: randomAddress(),
        },
      });
    async function agentFrom(remoteAddress: string): Promise<TestAgent> {
      const res = await register(remoteAddress);
      expect(res.statusCode, res.body).toBe(201);
      const a = res.json().agent;
      return {
        id: a.id,
        name: a.name,
        apiKey: a.api_key,
        walletAddress: a.wallet_address,
        headers: { authorization: `Bearer ${a.api_key}` },
      };
    }
    async function spend(times: number, send: () => Promise<LightMyRequestResponse>) {
      for (let i = 0; i < times; i++) {
        const res = await send();
        expect(res.statusCode, `request ${i + 1}: ${res.body}`).toBe(200);
      }
    }
    function expectLimited(res: LightMyRequestResponse, maxSeconds: number) {
      expectEnvelope(res, 429, 'rate_limited');
      const retryAfter = Number(res.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
    }

    it('answers 429 rate_limited with Retry-After once an IP spends its budget', async () => {
      const ip = randomIp();
      await spend(PER_IP, () => get('/api/projects', ip));
      expectLimited(await get('/api/projects', ip), 60);
      expectLimited(await get('/api/bounties', ip), 60);
      expect((await get('/api/projects', randomIp())).statusCode).toBe(200);
    });

    it('keeps a separate budget per API key, apart from the IP budget', async () => {
      const ip = randomIp();
      const a = await agentFrom(ip);
      const b = await agentFrom(randomIp());
      await spend(PER_IP, () => get('/api/projects', ip));
      expectLimited(await get('/api/projects', ip), 60);

      await spend(PER_KEY, () => get('/api/agents/me', ip, a.headers));
      expectLimited(await get('/api/agents/me', ip, a.headers), 60);
      expectLimited(await get('/api/agents/me', randomIp(), a.headers), 60);
      expect((await get('/api/agents/me', ip, b.headers)).statusCode).toBe(200);
    });

    it('counts a key on public endpoints against the key, not the IP', async () => {
      const ip = randomIp();
      const a = await agentFrom(randomIp());
      await spend(PER_IP, () => get('/api/projects', ip));
      await spend(PER_KEY, () => get('/api/projects', ip, a.headers));
      expectLimited(await get('/api/agents/me', randomIp(), a.headers), 60);
    });

    it('does not let made-up keys escape the IP budget', async () => {
      const ip = randomIp();
      await spend(PER_IP, () => get('/api/projects', ip));
      expectLimited(await get('/api/projects', ip, { authorization: `Bearer ${generateApiKey()}` }), 60);
      expectLimited(await get('/api/projects', ip, { authorization: 'Bearer anything-at-all' }), 60);
      expectLimited(await get('/api/projects', ip, { authorization: 'Basic dXNlcjpwYXNz' }), 60);
    });

    it('does not reset the budget when the key is rotated', async () => {
      const a = await agentFrom(randomIp());
      await spend(PER_KEY - 1, () => get('/api/agents/me', randomIp(), a.headers));
      const rotated = await limited.app.inject({
        method: 'POST',
        url: '/api/agents/me/rotate-key',
        headers: a.headers,
      });
      expect(rotated.statusCode, rotated.body).toBe(200);
      const fresh = { authorization: `Bearer ${rotated.json().api_key}` };
      expectLimited(await get('/api/agents/me', randomIp(), fresh), 60);
    });

    it('limits registrations per IP per hour', async () => {
      const ip = randomIp();
      expect((await register(ip)).statusCode).toBe(201);
      expect((await register(ip)).statusCode).toBe(201);
      const res = await register(ip);
      expectLimited(res, 3600);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(60);
      expect((await register(randomIp())).statusCode).toBe(201);
    });

    it('does not count registrations against the general IP budget', async () => {
      const ip = randomIp();
      expect((await register(ip)).statusCode).toBe(201);
      expect((await register(ip)).statusCode).toBe(201);
      await spend(PER_IP, () => get('/api/projects', ip));
    });
  });

  describe('rate limits across instances', () => {
    const redisUrl = process.env.TEST_REDIS_URL;
    const PER_IP = 4;
    const PER_KEY = 3;
    const clients: Redis[] = [];
    let apps: [TestApp, TestApp];

    beforeAll(async () => {
      if (!redisUrl) return;
      const env = {
        RATE_LIMIT_PER_IP_PER_MINUTE: String(PER_IP),
        RATE_LIMIT_PER_KEY_PER_MINUTE: String(PER_KEY),
      };
      const make = () => {
        const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
        clients.push(redis);
        return buildRedisApp({ database: ctx.database, redis, env });
      };
      apps = [await make(), await make()];
    });
    afterAll(async () => {
      if (apps) await Promise.all(apps.map((a) => a.close()));
      await Promise.all(clients.map((c) => c.quit()));
    });

    it.skipIf(!redisUrl)('shares one IP budget between two instances through Redis', async () => {
      const ip = randomIp();
      const [one, two] = apps;
      for (let i = 0; i < PER_IP; i++) {
        const res = await (i % 2 ? two : one).inject({
          method: 'GET',
          url: '/api/projects',
          remoteAddress: ip,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      for (const app of apps) {
        const res = await app.inject({ method: 'GET', url: '/api/projects', remoteAddress: ip });
        expectEnvelope(res, 429, 'rate_limited');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    });

    it.skipIf(!redisUrl)('shares one key budget between two instances through Redis', async () => {
      const a = await registerAgent(ctx.app);
      const [one, two] = apps;
      for (let i = 0; i < PER_KEY; i++) {
        const res = await (i % 2 ? two : one).inject({
          method: 'GET',
          url: '/api/agents/me',
          headers: a.headers,
          remoteAddress: randomIp(),
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      for (const app of apps) {
        expectEnvelope(
          await app.inject({ method: 'GET', url: '/api/agents/me', headers: a.headers }),
          429,
          'rate_limited',
        );
      }
    });
  });
});
