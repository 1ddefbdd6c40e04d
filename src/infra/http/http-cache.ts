import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';

/** The 304 a route with `revalidate` documents next to its 200. */
export const NotModified = Type.Null({
  description: 'Not modified: If-None-Match names the current ETag. No body.',
});

/** True when an If-None-Match header names `etag` (weak comparison, RFC 9110 §13.1.2) or is `*`. */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return (t.startsWith('W/') ? t.slice(2) : t) === opaque;
  });
}

/** A public answer ready to be sent (again): its body encoded to UTF-8 once, and its weak ETag. */
export interface Revalidatable {
  body: Buffer;
  etag: string;
}

/** `json`, encoded once for the hash and the socket alike (a string would be encoded twice). */
export function revalidatable(json: string): Revalidatable {
  const body = Buffer.from(json);
  return { body, etag: `W/"${hash('sha1', body, 'base64url')}"` };
}

/**
 * Sends a public GET answer that is the same for every caller (no key, no session changes it)
 * with its weak ETag, a hash of the body, and `Cache-Control: no-cache`, so that a cache may keep
 * the answer but asks again every time and is answered 304 without a body while nothing changed.
 * The answer is current, so a 304 saves the transfer and the client's parsing, never staleness: no
 * answer is served from a cache without the service confirming it. Without `public`, shared caches
 * keep only the answers to requests without an Authorization header. An answer kept for reuse is
 * kept as a `Revalidatable`, so that it is neither encoded nor hashed again.
 */
export function sendRevalidatable(request: FastifyRequest, reply: FastifyReply, answer: Revalidatable) {
  reply.header('etag', answer.etag).header('cache-control', 'no-cache');
  if (ifNoneMatch(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}
