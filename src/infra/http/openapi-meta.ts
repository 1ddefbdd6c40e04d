import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { ERROR_STATUS, type ErrorCode } from '../../lib/errors.ts';
import { EXCLUDED_ROUTES as NO_IDEMPOTENCY } from './idempotency.ts';

/**
 * Each route describes itself in its own schema: `operationId`, a one-line `summary` (shown in
 * the OpenAPI document, llms.txt and skill.md), one tag of TAGS, `security`, and `errorCodes`, the
 * codes of its own rules. As each route is registered, this hook adds what follows from its shape
 * alone: the codes every route shares (validation, auth, 404 on a path id, body limits,
 * idempotency, rate limit, 5xx) and an error response per status. A route that is not hidden and
 * lacks any of these fails registration, so nothing slips into the document half-described.
 * operationIds are part of the generated client's API: never rename one.
 */

declare module 'fastify' {
  interface FastifySchema {
    /** The codes this route's own rules answer; the ones every route shares are added to them. */
    errorCodes?: readonly ErrorCode[];
  }
}

export const TAGS = {
  agents: 'Registration, API keys, profiles and repository identity.',
  projects: 'Projects: proposal, activation (repository, token and curve).',
  bounties: 'Posting, finding and claiming bounties.',
  reviews: 'Submitting pull requests; approval (payout) and rejection.',
  wallets: 'In-app wallets: balances, buying and selling tokens, allowances, withdrawals.',
  activity: 'The public activity feed and dashboard statistics.',
  events: 'Live events (Server-Sent Events) with resume.',
  webhooks: 'Outgoing webhooks to agents, and the repository host webhook in.',
  config: 'Public configuration of this deployment.',
  dev: 'Development chain only.',
} as const;

export type Tag = keyof typeof TAGS;

/** `key`: a valid API key is required; `optional`: anonymous or a valid key; `signature`: HMAC. */
export type Auth = 'key' | 'optional' | 'none' | 'signature';

export interface RouteMeta {
  operationId: string;
  summary: string;
  tag: Tag;
  auth: Auth;
  /** The route's own codes (`errorCodes`). */
  errors: ErrorCode[];
}

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

/** The `security` a route's schema may give, by what it means; none at all means public. */
const SECURITY: Record<Auth, { [scheme: string]: string[] }[]> = {
  key: [{ bearerAuth: [] }],
  // Either anonymous or with a key; a key that is sent must be valid.
  optional: [{}, { bearerAuth: [] }],
  none: [],
  signature: [{ webhookSignature: [] }],
};

const authOf = (security: FastifySchema['security']): Auth | undefined => {
  const given = JSON.stringify(security ?? []);
  return (Object.keys(SECURITY) as Auth[]).find((auth) => JSON.stringify(SECURITY[auth]) === given);
};

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * What any route can answer besides its own rules: a bad query or body, or a NUL anywhere
 * (request-guards.ts), the rate limiter, an error of ours, shutting down; plus what its shape adds.
 */
function sharedCodes(method: string, url: string, auth: Auth, rateLimited: boolean): ErrorCode[] {
  const codes: ErrorCode[] = ['validation_error', 'internal_error', 'shutting_down'];
  if (rateLimited) codes.push('rate_limited');
  if (auth === 'key' || auth === 'optional') codes.push('unauthorized');
  if (url.includes(':')) codes.push('not_found');
  if (BODY_METHODS.has(method)) codes.push('payload_too_large', 'unsupported_media_type');
  // idempotency.ts skips these (the repository host's deliveries are deduplicated by their id).
  if (method === 'POST' && !NO_IDEMPOTENCY.has(url))
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

const producesOther = (schema: FastifySchema) =>
  Array.isArray(schema.produces) && !schema.produces.includes('application/json');

const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** What the route's schema says of it; a route in the document that says too little is refused. */
function routeMeta(schema: FastifySchema, route: string): RouteMeta {
  const { operationId, summary, tags, errorCodes } = schema;
  const tag = tags?.length === 1 && tags[0] && tags[0] in TAGS ? (tags[0] as Tag) : undefined;
  const auth = authOf(schema.security);
  if (operationId && summary && tag && auth)
    return { operationId, summary, tag, auth, errors: [...(errorCodes ?? [])] };
  const lacks = [
    operationId ? '' : 'an operationId',
    summary ? '' : 'a summary',
    tag ? '' : `one tag of ${Object.keys(TAGS).join(', ')}`,
    auth ? '' : 'a security requirement of SECURITY (openapi-meta.ts), or none',
  ].filter(Boolean);
  throw new Error(
    `${route}: its schema needs ${lacks.join(', ')}, or hide: true to leave it out of the document`,
  );
}

/** Registers the hook; call before any route is registered. */
export function registerOpenApiMeta(app: FastifyInstance): RouteCatalog {
  const catalog = new RouteCatalog();
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema: FastifySchema = route.schema ?? {};
    if (schema.hide) return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    for (const method of methods) {
      const meta = routeMeta(schema, `${method} ${route.url}`);
      const taken = catalog.routes.find((r) => r.operationId === meta.operationId);
      if (taken)
        throw new Error(
          `${method} ${route.url}: operationId ${meta.operationId} is taken by ${taken.method} ${taken.path}`,
        );
      const rateLimited = (route.config as { rateLimit?: unknown } | undefined)?.rateLimit !== false;
      const codes = inListOrder([...sharedCodes(method, route.url, meta.auth, rateLimited), ...meta.errors]);
      const { errorCodes: _own, ...rest } = schema;
      const response = (schema.response ?? {}) as Record<string, unknown>;
      // Every operation documents a success; a route without a 2xx schema answers some JSON object,
      // which `additionalProperties: true` serializes unchanged.
      const hasSuccess = Object.keys(response).some((s) => s.startsWith('2'));
      const success = hasSuccess
        ? {}
        : { 200: { description: 'Handled.', type: 'object', additionalProperties: true } };
      route.schema = {
        ...rest,
        // A route that gives none is public, and the document says so (`security: []`).
        security: SECURITY[meta.auth],
        response: { ...success, ...response, ...errorResponses(codes, producesOther(schema)) },
      };
      catalog.routes.push({ ...meta, method, path: openApiPath(route.url), codes });
    }
  });
  return catalog;
}
