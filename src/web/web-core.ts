import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import view from '@fastify/view';
import type { FastifyInstance, onRequestHookHandler, RawServerBase, RawServerDefault } from 'fastify';
import fp from 'fastify-plugin';
import { securityHeaderList } from '../infra/http/security-headers.ts';
import { pageEngine } from './eta-engine.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const VIEWS_DIR = join(here, 'views');
const ASSETS_DIR = join(here, 'assets');
// Vendored from the npm package, served from this origin: no CDN, and the CSP allows 'self' only.
const HTMX_DIST = join(dirname(fileURLToPath(import.meta.resolve('htmx.org/package.json'))), 'dist');

/** The signed-in browser session of a request, set by the session plugin (null when signed out). */
export interface WebSession {
  agentId: string;
  agentName: string;
  /** Every state-changing form of this session sends it back as `_csrf`. */
  csrfToken: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    webSession: WebSession | null;
  }
  interface RouteShorthandOptions<RawServer extends RawServerBase = RawServerDefault> {
    /** A page: its answers carry the strict security headers (SECURITY_HEADERS). */
    page?: boolean;
  }
}

/**
 * The security headers on every answer of the routes that say `page: true` (the JSON API and the
 * Swagger page keep their own). Worked out once: @fastify/helmet ran helmet anew on every request,
 * parsing the whole policy each time (13 % of a cached page's CPU), and put an async hook on every
 * request of the API too.
 */
function pageHeaders(app: FastifyInstance): void {
  const headers = securityHeaderList();
  const apply: onRequestHookHandler = (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  };
  app.addHook('onRoute', (route) => {
    if (route.page !== true) return;
    // First among the route's own hooks, so that an answer one of them ends early carries them too.
    route.onRequest = [apply, ...[route.onRequest ?? []].flat()] as typeof route.onRequest;
  });
}

/**
 * What every page needs, shared by the public pages and the console: the template engine (Eta,
 * escaping every interpolation by default), form bodies, cookies, static assets under /assets
 * (our CSS and scripts, and htmx from its npm package), and security headers with a content
 * security policy that allows scripts and styles from this origin only.
 */
export const webCore = fp(async (app: FastifyInstance) => {
  app.decorateRequest('webSession', null);
  await app.register(cookie);
  await app.register(formbody);
  pageHeaders(app);
  await app.register(view, {
    engine: { eta: pageEngine(VIEWS_DIR) },
    templates: VIEWS_DIR,
    // Compiled templates are cached. @fastify/view otherwise follows NODE_ENV and, unless it is
    // "production", configures Eta to read and compile every template again on every render
    // (measured: 12 of the board's 22 ms). The templates ship with the build and never change
    // while the process runs.
    production: true,
  });
  await app.register(fastifyStatic, { root: ASSETS_DIR, prefix: '/assets/', decorateReply: false });
  await app.register(fastifyStatic, {
    root: HTMX_DIST,
    prefix: '/assets/vendor/htmx/',
    decorateReply: false,
    allowedPath: (path) => path === '/htmx.min.js',
  });
});
