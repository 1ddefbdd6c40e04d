import type { IncomingMessage } from 'node:http';
import { MAX_JSON_DEPTH, nestedTooDeep } from '../../infra/http/request-guards.ts';
import { type ApiResponse, type Body, problemsParsingJson, refused } from './responses.ts';

/** What the host refuses before any route sees a request: bodies, paths and cross-site writes. */

const MAX_JSON_BYTES = 1024 * 1024;

/** `application/json` or a `+json` type (GitHub's `application/vnd.github+json`), parameters aside. */
const JSON_TYPE = /^application\/(?:json|[a-z0-9.+-]+\+json)\s*(?:;|$)/i;

/**
 * A write's JSON body, or the answer refusing it: a body must say it is JSON (415 otherwise, so a
 * cross-site form's `text/plain` is never read as JSON), parse, be an object and nest no deeper
 * than the app's own limit (400: deeper would exhaust the stack further on).
 */
export async function readJson(req: IncomingMessage): Promise<{ body: Body } | { refusal: ApiResponse }> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_JSON_BYTES) return { refusal: problemsParsingJson() };
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return { body: {} };
  if (!JSON_TYPE.test(req.headers['content-type'] ?? ''))
    return { refusal: refused(415, 'Unsupported Media Type: send the body as application/json.') };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { refusal: problemsParsingJson() };
  }
  if (nestedTooDeep(value))
    return { refusal: refused(400, `Problems parsing JSON: nested deeper than ${MAX_JSON_DEPTH} levels.`) };
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? { body: value as Body }
    : { refusal: problemsParsingJson() };
}

/** True when a decoded segment of the path holds a C0 control character or DEL (NUL included). */
export function controlInPath(path: string): boolean {
  for (const segment of path.split('/')) {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // Not valid percent-encoding: the routes answer 404 for it.
    }
    for (let i = 0; i < decoded.length; i++) {
      const c = decoded.charCodeAt(i);
      if (c < 0x20 || c === 0x7f) return true;
    }
  }
  return false;
}

/**
 * A request carrying HTTP Basic credentials (which a browser caches and sends on its own) from a
 * page of another origin: a cross-site form or script must not write with them.
 */
export function crossSiteWithBasic(req: IncomingMessage, ownOrigin: string): boolean {
  if (!/^Basic\s/i.test(req.headers.authorization ?? '')) return false;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const own = new Set([ownOrigin, `http://${req.headers.host ?? ''}`]);
    return !own.has(origin);
  }
  const site = req.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
}
