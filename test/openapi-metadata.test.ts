import swagger from '@fastify/swagger';
import Fastify, { type FastifySchema } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { openApiComponents, type RouteCatalog, registerOpenApiMeta } from '../src/infra/http/openapi-meta.ts';

/**
 * Each route's OpenAPI metadata lives in its own schema (openapi-meta.ts): a route that would enter
 * the document without an operationId, a summary, a known tag or a known security requirement is
 * refused as it registers, and what the hook adds follows from the route's shape and `errorCodes`.
 */

type ErrorSchema = { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } };
type Op = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  responses: Record<string, { description?: string; content?: Record<string, { schema: ErrorSchema }> }>;
  errorCodes?: unknown;
};

const described = {
  operationId: 'claimThing',
  tags: ['bounties'],
  summary: 'Claim a thing',
  security: [{ bearerAuth: [] }],
} satisfies FastifySchema;

let app: ReturnType<typeof Fastify>;
let catalog: RouteCatalog;

async function build(register: (a: typeof app) => void): Promise<Record<string, Record<string, Op>>> {
  app = Fastify();
  catalog = registerOpenApiMeta(app);
  await app.register(swagger, { openapi: { openapi: '3.1.0', components: openApiComponents() } });
  register(app);
  await app.ready();
  return (app.swagger() as { paths: Record<string, Record<string, Op>> }).paths;
}

const codesOf = (op: Op | undefined, status: string) =>
  op?.responses[status]?.content?.['application/json']?.schema.properties?.error?.properties?.code?.enum;

afterEach(async () => {
  await app?.close();
});

describe('route OpenAPI metadata', () => {
  it.each([
    ['operationId', 'an operationId'],
    ['summary', 'a summary'],
    ['tags', 'one tag of agents, projects'],
  ] as const)('refuses a documented route without its %s', async (field, message) => {
    const { [field]: _dropped, ...schema } = described;
    await expect(build((a) => a.post('/api/things/:id/claim', { schema }, async () => ({})))).rejects.toThrow(
      `POST /api/things/:id/claim: its schema needs ${message}`,
    );
  });

  it('refuses a tag that is not in the document, and a security requirement it does not know', async () => {
    await expect(
      build((a) => a.get('/api/things', { schema: { ...described, tags: ['things'] } }, async () => ({}))),
    ).rejects.toThrow('GET /api/things: its schema needs one tag of');
    await expect(
      build((a) =>
        a.get('/api/things', { schema: { ...described, security: [{ apiKey: [] }] } }, async () => ({})),
      ),
    ).rejects.toThrow('GET /api/things: its schema needs a security requirement');
  });

  it('refuses an operationId that another route already has', async () => {
    await expect(
      build((a) => {
        a.get('/api/things', { schema: described }, async () => ({}));
        a.get('/api/other-things', { schema: described }, async () => ({}));
      }),
    ).rejects.toThrow('GET /api/other-things: operationId claimThing is taken by GET /api/things');
  });

  it('leaves hidden routes out, undescribed', async () => {
    const paths = await build((a) => a.get('/internal', { schema: { hide: true } }, async () => ({})));
    expect(paths).toEqual({});
    expect(catalog.routes).toEqual([]);
  });

  it('documents the route from its schema, with its own codes and the ones its shape implies', async () => {
    const paths = await build((a) =>
      a.post(
        '/api/things/:id/claim',
        { schema: { ...described, description: 'Longer.', errorCodes: ['claim_limit', 'forbidden'] } },
        async () => ({}),
      ),
    );
    const op = paths['/api/things/{id}/claim']?.post;
    expect(op).toMatchObject({
      operationId: 'claimThing',
      summary: 'Claim a thing',
      description: 'Longer.',
      tags: ['bounties'],
      security: [{ bearerAuth: [] }],
    });
    expect(op?.errorCodes).toBeUndefined();
    // No 2xx schema: a JSON object is documented. 401 from the key, 404 from the path id,
    // 413/415 from the body, 422 from idempotency, 429 from the rate limit.
    expect(Object.keys(op?.responses ?? {})).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(codesOf(op, '403')).toEqual(['forbidden']);
    expect(codesOf(op, '409')).toEqual(['idempotency_in_progress', 'claim_limit']);
    expect(op?.responses['403']?.description).toBe('Error: `forbidden`.');
    expect(catalog.routes).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/api/things/{id}/claim',
        operationId: 'claimThing',
        tag: 'bounties',
        auth: 'key',
        errors: ['claim_limit', 'forbidden'],
      }),
    ]);
  });

  it('says a route without security is public', async () => {
    const { security: _none, ...schema } = described;
    const paths = await build((a) => a.get('/api/things', { schema }, async () => ({})));
    const op = paths['/api/things']?.get;
    expect(op?.security).toEqual([]);
    expect(op?.responses['401']).toBeUndefined();
    expect(catalog.routes[0]?.auth).toBe('none');
  });
});
