import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
/** The key every log line of a request carries its id under (Fastify's default is `reqId`). */
export const REQUEST_ID_LOG_LABEL = 'request_id';

/**
 * A caller's (or a proxy's) id is kept only in a shape that is safe to log and echo: a header
 * value lands in log lines, error bodies and other systems' logs, so nothing that could break a
 * line or a log query (spaces, quotes, control characters) and nothing unbounded.
 */
const VALID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Fastify's `genReqId`: the incoming X-Request-Id when valid, otherwise a new UUID. Fastify's own
 * `requestIdHeader` would take any value as sent, so the header is read here instead.
 */
export function genReqId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && VALID.test(incoming) ? incoming : randomUUID();
}

/**
 * Echoes the id on every response. Set on the raw response, before any other hook, so that it is
 * also on replies written by hand (hijacked event streams, MCP) and on early refusals (429, 401).
 */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
    done();
  });
}
