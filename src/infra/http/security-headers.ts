import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers of every page this service serves, as helmet options: a content security
 * policy that allows scripts, styles and connections to this origin only and no framing, with
 * helmet's other defaults (`X-Content-Type-Options: nosniff`, `X-Frame-Options`, HSTS,
 * `Referrer-Policy: no-referrer`, ...). The app's pages get them as `securityHeaderList` works
 * them out (web/web-core.ts); the built-in local repository host, a plain node:http server, through
 * helmet's own middleware (dev/local-repo-host/server.ts). One object, so the two never drift.
 */
export const SECURITY_HEADERS = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      objectSrc: ["'none'"],
    },
  },
} as const satisfies HelmetOptions;

/**
 * The headers helmet sets for SECURITY_HEADERS, worked out once. helmet parses its options (the
 * policy's directives among them) every time it is called, and a page's headers never change: no
 * nonce, nothing read from the request. Applying them is setting twelve headers.
 */
export function securityHeaderList(): ReadonlyArray<readonly [string, string]> {
  const headers: [string, string][] = [];
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
    },
    // helmet removes X-Powered-By, which nothing here sets.
    removeHeader() {},
  };
  helmet(SECURITY_HEADERS)({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}
