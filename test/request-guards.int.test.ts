import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { unavailableChain } from '../src/infra/chain/unavailable-chain.ts';
import { createLogger } from '../src/infra/logger.ts';
import { expectError, randomAddress, registerAgent, type TestAgent } from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';

/** The contract's envelope and nothing else: `{"error": {"code", "message", "details"?}}`. */
function expectEnvelope(res: LightMyRequestResponse, status: number, code: string) {
  const err = expectError(res, status, code);
  expect(Object.keys(res.json())).toEqual(['error']);
  return err;
}

// What every route checks before its own schema (src/infra/http/request-guards.ts), and what
// request logs leave out.
describe('request guards', () => {
  const ctx = appForFile();
  let agent: TestAgent;

  beforeAll(async () => {
    agent = await registerAgent(ctx.app);
  });

  describe('NUL characters', () => {
    const NUL = '\u0000';

    it.each([
      ['GET', '/api/bounties?q=%00', 'q'],
      ['GET', '/api/bounties?q=fix%00bug&limit=5', 'q'],
      ['GET', '/api/projects?founder_id=agent_%00', 'founder_id'],
      ['GET', '/api/activity?agent_id=%00', 'agent_id'],
    ])('%s %s is 400 validation_error naming the field', async (method, url, field) => {
      const err = expectEnvelope(
        await ctx.app.inject({ method: method as 'GET', url, headers: agent.headers }),
        400,
        'validation_error',
      );
      expect(err.details).toEqual([{ field, message: expect.stringContaining('NUL') }]);
    });

    it('in any body text is 400 validation_error naming the field, and nothing is stored', async () => {
      const name = `nul-${Date.now().toString(36)}`;
      const cases: [string, string, Record<string, unknown>, string][] = [
        ['/api/agents/register', '', { name, description: `a${NUL}b` }, 'description'],
        ['/api/agents/register', '', { name: `${name}${NUL}` }, 'name'],
        ['/api/projects', 'auth', { name: `P${NUL}`, token_symbol: 'NULSYM' }, 'name'],
        [
          '/api/projects/proj_x/bounties',
          'auth',
          { title: `T${NUL}`, description: 'd', reward_amount: 1 },
          'title',
        ],
        ['/api/bounties/bnt_x/reject', 'auth', { review_notes: `no${NUL}` }, 'review_notes'],
        ['/api/bounties/bnt_x/submit', 'auth', { pr_url: `http://h/o/r/pull/1${NUL}` }, 'pr_url'],
        ['/api/agents/register', '', { name, [`x${NUL}`]: 1 }, 'x\\0'],
      ];
      for (const [url, auth, payload, field] of cases) {
        const res = await ctx.app.inject({
          method: 'POST',
          url,
          headers: { ...(auth ? agent.headers : {}), 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        const err = expectEnvelope(res, 400, 'validation_error');
        expect(err.details, url).toEqual([{ field, message: expect.stringContaining('NUL') }]);
      }
      const taken = await ctx.app.inject({
        method: 'POST',
        url: '/api/agents/register',
        payload: { name, wallet_address: randomAddress() },
      });
      expect(taken.statusCode, taken.body).toBe(201);
    });

    it('in a path is 404 not_found, as any malformed id', async () => {
      expectEnvelope(await ctx.app.inject({ method: 'GET', url: '/api/agents/%00' }), 404, 'not_found');
      expectEnvelope(
        await ctx.app.inject({ method: 'GET', url: '/api/bounties/bnt_%00x' }),
        404,
        'not_found',
      );
    });
  });

  describe('JSON nesting', () => {
    const nested = (depth: number, leaf = '1') => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;
    const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

    it.each([
      ['/api/agents/register', false, nested(20_000)],
      ['/api/agents/register', false, deepObject(5_000)],
      ['/api/agents/register', false, `{"name":"x","description":${nested(65)}}`],
      ['/api/projects', true, nested(20_000)],
      ['/api/bounties/bnt_x/claim', true, nested(20_000)],
      ['/mcp', true, nested(20_000)],
    ])(
      'POST %s (authenticated %s) deeper than 64 levels is 400 validation_error',
      async (url, auth, payload) => {
        const res = await ctx.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json', ...(auth ? agent.headers : {}) },
          payload,
        });
        const err = expectEnvelope(res, 400, 'validation_error');
        expect(err.details).toEqual([{ field: 'body', message: expect.stringContaining('64 levels') }]);
      },
    );

    it('64 levels are still only the route schema’s business', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/agents/register',
        headers: { 'content-type': 'application/json' },
        payload: `{"name":"x","description":${nested(63)}}`,
      });
      const err = expectEnvelope(res, 400, 'validation_error');
      expect(JSON.stringify(err.details)).not.toContain('64 levels');
    });
  });

  describe('endpoints without a body', () => {
    const send = (url: string, headers: Record<string, string>, payload?: string) =>
      ctx.app.inject({
        method: 'POST',
        url,
        headers: { ...headers, 'content-type': 'application/json' },
        ...(payload === undefined ? {} : { payload }),
      });

    it.each([
      ['an object with a field', '{"force": true}'],
      ['an array', '[]'],
      ['a string', '"x"'],
      ['null', 'null'],
      ['a number', '1'],
    ])('refuse %s with 400 validation_error and do nothing', async (_case, payload) => {
      const own = await registerAgent(ctx.app);
      const err = expectEnvelope(
        await send('/api/agents/me/rotate-key', own.headers, payload),
        400,
        'validation_error',
      );
      expect(err.details).toEqual([{ field: 'body', message: expect.any(String) }]);
      const me = await ctx.app.inject({ method: 'GET', url: '/api/agents/me', headers: own.headers });
      expect(me.statusCode, 'the key was rotated anyway').toBe(200);
      for (const url of [
        '/api/bounties/bnt_x/claim',
        '/api/bounties/bnt_x/unclaim',
        '/api/projects/proj_x/activate',
        '/api/agents/me/generate-wallet',
      ]) {
        expectEnvelope(await send(url, own.headers, payload), 400, 'validation_error');
      }
    });

    it('accept no body, an empty body or an empty JSON object', async () => {
      for (const payload of [undefined, '', '  ', '{}']) {
        const own = await registerAgent(ctx.app);
        expectEnvelope(await send('/api/bounties/bnt_x/claim', own.headers, payload), 404, 'not_found');
        const res = await send('/api/agents/me/rotate-key', own.headers, payload);
        expect(res.statusCode, res.body).toBe(200);
      }
    });

    it('check authentication first', async () => {
      expectEnvelope(await send('/api/agents/me/rotate-key', {}, '{"a": 1}'), 401, 'unauthorized');
    });
  });

  describe('request logs', () => {
    it('never carry a credential sent in the query string', async () => {
      const lines: string[] = [];
      const sink = { write: (line: string) => void lines.push(line) };
      const logged = await buildApp({
        database: ctx.database,
        chain: unavailableChain,
        clock: ctx.clock,
        config: ctx.config,
        logger: createLogger({ logLevel: 'info' }, sink),
      });
      try {
        const secrets = ['s3cr3t-api-key', 's3cr3t-token', 's3cr3t-access', 's3cr3t-secret', 's3cr3t-key'];
        const urls = [
          `/api/projects?limit=5&api_key=${secrets[0]}`,
          `/api/bounties?token=${secrets[1]}&q=visible-word`,
          `/api/nothing-here?access_token=${secrets[2]}`,
          `/api/agents/me?SECRET=${secrets[3]}&key=${secrets[4]}`,
        ];
        for (const url of urls) await logged.inject({ method: 'GET', url });
        const text = lines.join('');
        for (const secret of secrets) expect(text).not.toContain(secret);
        // The rest of each URL is still there to debug with.
        expect(text).toContain('/api/projects?limit=5&api_key=[redacted]');
        expect(text).toContain('q=visible-word');
        expect(text).toContain('/api/nothing-here?access_token=[redacted]');
      } finally {
        await logged.close();
      }
    });

    it('never carry an API key, found by its prefix, anywhere in a URL or a message', async () => {
      const lines: string[] = [];
      const sink = { write: (line: string) => void lines.push(line) };
      const logger = createLogger({ logLevel: 'info' }, sink);
      const logged = await buildApp({
        database: ctx.database,
        chain: unavailableChain,
        clock: ctx.clock,
        config: ctx.config,
        logger,
      });
      try {
        const key = agent.apiKey;
        for (const url of [
          `/api/bounties?k=${key}`,
          `/api/bounties?q=${key}`,
          `/api/agents/${key}`,
          `/api/nothing/${key}/here`,
        ]) {
          await logged.inject({ method: 'GET', url });
        }
        logger.info(`a message quoting ${key} by mistake`);
        logger.error({ err: new Error(`failed for ${key}`) }, 'an error');
        const text = lines.join('');
        expect(text).not.toContain(key.slice(4));
        expect(text).toContain('bmk_[redacted]');
        expect(text).toContain('/api/bounties?q=bmk_[redacted]');
        expect(text).toContain('a message quoting bmk_[redacted] by mistake');
      } finally {
        await logged.close();
      }
    });
  });
});
