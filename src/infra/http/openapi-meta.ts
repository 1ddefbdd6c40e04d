import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { ERROR_STATUS, type ErrorCode } from '../../lib/errors.ts';
import { ROUTE_EXAMPLES } from './openapi-examples.ts';
import { type Auth, ROUTE_TABLE, type RouteMeta, TAGS, type Tag } from './openapi-routes.ts';

/**
 * One central table (openapi-routes.ts) gives every operation its operationId, summary, tag,
 * security and the error codes it can answer, merged into each route's schema as it is
 * registered: route files stay about behaviour, and a route nobody described is recorded in
 * `RouteCatalog.missing` (a test fails on it) instead of slipping into the document half-described.
 */

export type { Auth, Tag };

const ALL_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** A documented operation, as the agent-facing documents (llms.txt, skill.md) list it. */
export interface DocumentedRoute extends RouteMeta {
  method: string;
  /** OpenAPI form: `/api/bounties/{id}`. */
  path: string;
  /** Every code it can answer, the ones every route shares included, in the closed list's order. */
  codes: ErrorCode[];
}

/** The routes registered so far; read at request time, so routes added later are included. */
export class RouteCatalog {
  readonly routes: DocumentedRoute[] = [];
  /** `METHOD /path` of non-hidden routes the table does not describe. */
  readonly missing: string[] = [];
}

export const OPENAPI_TAGS = Object.entries(TAGS).map(([name, description]) => ({ name, description }));

export const SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer' },
  webhookSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Hub-Signature-256',
    description: '`sha256=` + hex HMAC-SHA256 of the raw body with the webhook secret (GitHub).',
  },
} as const;

/**
 * Shared components: the envelope with the full closed list of codes (operations narrow it per
 * status), for clients that want one error type.
 */
export function openApiComponents() {
  return {
    securitySchemes: SECURITY_SCHEMES,
    schemas: { Error: errorEnvelope(ALL_CODES, 'Every error answer; `code` is one of the closed list.') },
  };
}

const SECURITY: Record<Auth, { [scheme: string]: string[] }[]> = {
  key: [{ bearerAuth: [] }],
  // Either anonymous or with a key; a key that is sent must be valid.
  optional: [{}, { bearerAuth: [] }],
  none: [],
  signature: [{ webhookSignature: [] }],
};

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** GitHub's deliveries carry no Idempotency-Key and are deduplicated by their delivery id. */
const NO_IDEMPOTENCY = new Set(['POST /api/webhooks/github']);

/**
 * What any route can answer besides its own rules: a bad query or body, or a NUL anywhere
 * (request-guards.ts), the rate limiter, an error of ours, shutting down; plus what its shape adds.
 */
function sharedCodes(method: string, url: string, meta: RouteMeta, rateLimited: boolean): ErrorCode[] {
  const codes: ErrorCode[] = ['validation_error', 'internal_error', 'shutting_down'];
  if (rateLimited) codes.push('rate_limited');
  if (meta.auth === 'key' || meta.auth === 'optional') codes.push('unauthorized');
  if (url.includes(':')) codes.push('not_found');
  if (BODY_METHODS.has(method)) codes.push('payload_too_large', 'unsupported_media_type');
  if (method === 'POST' && !NO_IDEMPOTENCY.has(`${method} ${url}`))
    codes.push('idempotency_in_progress', 'idempotency_key_reused');
  return codes;
}

const inListOrder = (codes: Iterable<ErrorCode>) => {
  const wanted = new Set(codes);
  return ALL_CODES.filter((c) => wanted.has(c));
};

const RESPONSE_HEADERS: Record<number, Record<string, { type: string; description: string }>> = {
  401: { 'WWW-Authenticate': { type: 'string', description: '`Bearer`' } },
  429: { 'Retry-After': { type: 'string', description: 'Seconds until the limit resets.' } },
};

/**
 * The contract's envelope with `code` limited to what this status can carry here. Unknown
 * properties are kept (`additionalProperties: true`): this schema also serializes the answer, and
 * must never drop a field the error handler adds.
 */
export function errorEnvelope(codes: ErrorCode[], description?: string) {
  return {
    type: 'object' as const,
    ...(description ? { description } : {}),
    required: ['error'],
    additionalProperties: true,
    properties: {
      error: {
        type: 'object' as const,
        required: ['code', 'message'],
        additionalProperties: true,
        properties: {
          code: { type: 'string' as const, enum: codes },
          message: { type: 'string' as const, description: 'One sentence for a human.' },
          details: {
            type: 'array' as const,
            description: 'With validation_error: which field is wrong and why.',
            items: {
              type: 'object' as const,
              required: ['field', 'message'],
              properties: { field: { type: 'string' as const }, message: { type: 'string' as const } },
            },
          },
          request_id: {
            type: 'string' as const,
            description: 'The X-Request-Id of the request, for support.',
          },
        },
      },
    },
  };
}

/** `asJson`: the route produces something else (an event stream) yet its errors are still JSON. */
function errorResponses(codes: ErrorCode[], asJson: boolean): Record<number, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<number, unknown> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const headers = RESPONSE_HEADERS[status];
    const description = `Error: ${list.map((c) => `\`${c}\``).join(', ')}.`;
    const schema = errorEnvelope(list, description);
    out[status] = {
      ...(asJson ? { description, content: { 'application/json': { schema } } } : schema),
      ...(headers ? { headers } : {}),
    };
  }
  return out;
}

const producesOther = (schema: Schema) =>
  Array.isArray(schema.produces) && !schema.produces.includes('application/json');

const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

type Schema = Record<string, unknown> & { response?: Record<string, unknown>; hide?: boolean };

/** Adds the table's examples to copies of the body and success schemas (the originals are shared). */
function withExamples(schema: Schema, key: string): Schema {
  const ex = ROUTE_EXAMPLES[key];
  if (!ex) return schema;
  const out = { ...schema };
  if (ex.request !== undefined && schema.body)
    out.body = { ...(schema.body as object), examples: [ex.request] };
  const ok = Object.keys(schema.response ?? {}).find((s) => s.startsWith('2'));
  if (ex.response !== undefined && ok) {
    const resp = schema.response as Record<string, object>;
    out.response = { ...resp, [ok]: { ...resp[ok], examples: [ex.response] } };
  }
  return out;
}

/** Registers the hook; call before any route is registered. */
export function registerOpenApiMeta(app: FastifyInstance, table = ROUTE_TABLE): RouteCatalog {
  const catalog = new RouteCatalog();
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = (route.schema ?? {}) as Schema;
    if (schema.hide) return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    for (const method of methods) {
      const key = `${method} ${route.url}`;
      const meta = table[key];
      if (!meta) {
        catalog.missing.push(key);
        continue;
      }
      const rateLimited = (route.config as { rateLimit?: unknown } | undefined)?.rateLimit !== false;
      const codes = inListOrder([...sharedCodes(method, route.url, meta, rateLimited), ...meta.errors]);
      const merged = withExamples(schema, key);
      // Every operation documents a success; a route without a 2xx schema answers some JSON object,
      // which `additionalProperties: true` serializes unchanged.
      const hasSuccess = Object.keys(merged.response ?? {}).some((s) => s.startsWith('2'));
      const success = hasSuccess
        ? {}
        : { 200: { description: 'Handled.', type: 'object', additionalProperties: true } };
      route.schema = {
        ...merged,
        operationId: meta.operationId,
        summary: meta.summary,
        // A longer summary the route gave keeps its place as the description.
        ...(!schema.description && schema.summary && schema.summary !== meta.summary
          ? { description: schema.summary }
          : {}),
        ...(meta.description ? { description: meta.description } : {}),
        tags: [meta.tag],
        security: SECURITY[meta.auth],
        response: { ...success, ...merged.response, ...errorResponses(codes, producesOther(schema)) },
      } as FastifySchema;
      catalog.routes.push({ ...meta, method, path: openApiPath(route.url), codes });
    }
  });
  return catalog;
}
