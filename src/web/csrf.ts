import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebSession } from './web-core.ts';

/** The form field (and, for htmx, the header) that carries the session's synchronizer token. */
export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/**
 * The browser's own word on where a request comes from, when it gives one. `Sec-Fetch-Site`
 * (every current browser sends it; no page can set it) decides: only `same-origin` passes.
 * Without it, `Origin` must be this site. Origin alone cannot decide: under our
 * `Referrer-Policy: no-referrer` Chromium sends `Origin: null` even for a same-origin form. A
 * request with neither (an old browser, curl) relies on the synchronizer token alone.
 */
export function sameOrigin(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  // `host` includes the port; `protocol` honours X-Forwarded-Proto behind a trusted proxy.
  return origin === `${request.protocol}://${request.host}`;
}

function sameToken(sent: unknown, expected: string): boolean {
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  // Lengths are not secret (every token has the same one); the contents are compared in constant time.
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A state-changing request of this session: same origin, and the session's token sent back. */
export function verifyCsrf(request: FastifyRequest, session: WebSession): boolean {
  if (!sameOrigin(request)) return false;
  const body = request.body as Record<string, unknown> | undefined;
  const sent = body?.[CSRF_FIELD] ?? request.headers[CSRF_HEADER];
  return sameToken(sent, session.csrfToken);
}

/** The 403 page for a form that failed the check; nothing was changed. */
export function csrfRefused(reply: FastifyReply) {
  return reply
    .status(403)
    .header('cache-control', 'no-store')
    .view('console/message.eta', {
      title: 'Request refused',
      session: reply.request.webSession,
      heading: 'This form could not be accepted',
      message:
        'The request did not come from a page of this site, or the page was too old. Nothing was changed. ' +
        'Go back, reload the page and try again.',
    });
}
