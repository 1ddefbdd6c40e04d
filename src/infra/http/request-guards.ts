import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, type ErrorDetail } from '../../lib/errors.ts';

const invalid = (part: string, detail: ErrorDetail) =>
  new AppError('validation_error', `The request ${part} is invalid.`, [detail]);

/** JSON nested deeper than this is refused (contract: "Limits on expensive requests"). */
export const MAX_JSON_DEPTH = 64;

const tooDeep = (part: string) =>
  invalid(part, { field: part, message: `must not be nested deeper than ${MAX_JSON_DEPTH} levels` });

/**
 * The first place in a parsed JSON value (keys included) where a string holds a NUL, or null.
 * Past MAX_JSON_DEPTH levels it throws the validation error: the walk stays shallow, so no
 * body, however deep, can exhaust the stack (a RangeError, a 500) here or in the validator.
 */
function nulAt(value: unknown, path: string, part: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path : null;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  if (depth >= MAX_JSON_DEPTH) throw tooDeep(part);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulAt(value[i], path ? `${path}.${i}` : String(i), part, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, child] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\0')) return at.replace(/\0/g, '\\0');
    const found = nulAt(child, at, part, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * True when a parsed JSON value nests deeper than MAX_JSON_DEPTH levels: the same limit the app's
 * guard applies (see `guard`), for a server that is not this Fastify app (the built-in repository
 * host). The walk stops at the limit, so no depth can exhaust the stack.
 */
export function nestedTooDeep(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return false;
  if (depth >= MAX_JSON_DEPTH) return true;
  for (const child of Object.values(value)) if (nestedTooDeep(child, depth + 1)) return true;
  return false;
}

/** True for a body that says nothing: absent, or an empty JSON object (some clients always send one). */
const saysNothing = (body: unknown) =>
  body === undefined ||
  (body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    !Buffer.isBuffer(body) &&
    Object.keys(body).length === 0);

/**
 * Checks every route makes before its own schema runs:
 * - No JSON is nested deeper than MAX_JSON_DEPTH (64) levels: 400 `validation_error`.
 * - No text holds a NUL character: PostgreSQL cannot store one in `text` (nor PGlite), so it would
 *   otherwise surface as a 500 from deep inside a query. In a query or body it is a 400
 *   `validation_error` naming the field; in a path, 404 like any other malformed id.
 * - A route without a body schema takes no body: a body sent to it is a client's mistake (a
 *   misspelt path, a field this endpoint does not have) and is refused rather than ignored.
 * A raw body (a Buffer: webhooks, whose signature covers the exact bytes) is the route's own.
 */
function guard(request: FastifyRequest): void {
  // An unknown route is 404 whatever it was sent.
  if (request.is404) return;
  // A path segment with a NUL names no resource: 404, as any malformed id in a path.
  if (nulAt(request.params, '', 'path') !== null)
    throw new AppError('not_found', 'No resource exists at that path.');
  const inQuery = nulAt(request.query, '', 'query');
  if (inQuery !== null)
    throw invalid('query', { field: inQuery, message: 'must not contain a NUL character' });
  const { body } = request;
  if (Buffer.isBuffer(body)) return;
  // Deeper than the limit is refused on every route, with or without a body schema.
  const field = nulAt(body, '', 'body');
  if (request.routeOptions.schema?.body === undefined) {
    if (!saysNothing(body)) {
      throw invalid('body', { field: 'body', message: 'must be empty: this endpoint takes no body' });
    }
    request.body = undefined;
    return;
  }
  if (field !== null)
    throw invalid('body', { field: field || 'body', message: 'must not contain a NUL character' });
}

/** Registers the guards for every route; call before the routes are registered. */
export function registerRequestGuards(app: FastifyInstance): void {
  // A callback, not an async hook: the checks are synchronous, and a promise per request buys nothing.
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      guard(request);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
}
