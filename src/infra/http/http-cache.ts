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

/**
 * An `onSend` hook for public GET answers that are the same for every caller (no key, no session
 * changes them): a weak ETag, a hash of the serialized body, and `Cache-Control: no-cache`, so that
 * a cache may keep the answer but asks again every time and is answered 304 without a body while
 * nothing changed. The body is still built, so a 304 saves the transfer and the client's parsing,
 * never staleness: no answer is served from a cache without the service confirming it. Without
 * `public`, shared caches keep only the answers to requests without an Authorization header.
 */
export function revalidate(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: Error | null, payload?: unknown) => void,
): void {
  if (reply.statusCode !== 200 || typeof payload !== 'string') {
    done(null, payload);
    return;
  }
  // Encoded to UTF-8 once, for the hash and the socket alike (a string would be encoded twice).
  const body = Buffer.from(payload);
  const etag = `W/"${hash('sha1', body, 'base64url')}"`;
  reply.header('etag', etag).header('cache-control', 'no-cache');
  if (ifNoneMatch(request.headers['if-none-match'], etag)) {
    reply.code(304).removeHeader('content-type');
    done(null, '');
    return;
  }
  done(null, body);
}
