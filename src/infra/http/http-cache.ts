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

/** The weak ETag of a body: its SHA-1, so that equal bodies, and only they, share one. */
const etagOf = (body: Buffer) => `W/"${hash('sha1', body, 'base64url')}"`;

/**
 * The last answer sent per key (a URL), so that an answer the same as the one before it is
 * neither encoded nor hashed again: its text is compared with the last one's (a string comparison,
 * well under a microsecond for 12 KB) and, the same, answered with the bytes and ETag already made
 * for it; hashing alone costs 6-11 µs, encoding 2-4 (bench/README.md, "An ETag hashed once per
 * answer"). What it keeps is bounded (`maxBytes` of keys, texts and bodies); past it, it starts over.
 */
export class AnswerTags {
  readonly #kept = new Map<string, { json: string; answer: Revalidatable }>();
  #bytes = 0;

  constructor(private readonly maxBytes = 4 * 1024 * 1024) {}

  /**
   * `json` ready to be sent: `key`'s last answer if its text is the same, otherwise `json` encoded
   * once for the hash and the socket alike (a string would be encoded twice) with the ETag of its bytes.
   */
  of(key: string, json: string): Revalidatable {
    const last = this.#kept.get(key);
    if (last?.json === json) return last.answer;
    const body = Buffer.from(json);
    const answer = { body, etag: etagOf(body) };
    if (last) {
      this.#kept.delete(key);
      this.#bytes -= key.length + last.json.length + last.answer.body.length;
    }
    const size = key.length + json.length + body.length;
    if (size > this.maxBytes) return answer;
    if (this.#bytes + size > this.maxBytes) {
      this.#kept.clear();
      this.#bytes = 0;
    }
    this.#kept.set(key, { json, answer });
    this.#bytes += size;
    return answer;
  }
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
