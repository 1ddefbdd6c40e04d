import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import helmet from 'helmet';
import { SECURITY_HEADERS } from '../../infra/http/security-headers.ts';
import { redactUrl } from '../../infra/logger.ts';
import { type Authenticator, Gatekeeper } from './auth.ts';
import { serveGit } from './git-http.ts';
import { MERGE_ACTION, mergeFromPage, SIGN_IN_PATH, SIGN_OUT_PATH, signIn, signOut } from './page-actions.ts';
import { PageSessions } from './page-sessions.ts';
import { COMPARE_PAGE, indexPage, notFoundPage, type PageContext, repoPage, servePullForm } from './pages.ts';
import { pullPage } from './pull-page.ts';
import { recordPushedTips } from './pushers.ts';
import { readPushBody, refusedUpdate } from './ref-updates.ts';
import { controlInPath, crossSiteWithBasic, readJson } from './request-checks.ts';
import {
  type ApiResponse,
  badCredentials,
  clientErrorAnswer,
  forbidden,
  notFound,
  refused,
  requiresAuthentication,
} from './responses.ts';
import { RestApi } from './rest-api.ts';
import { RepoStore } from './store.ts';
import { STYLESHEET, STYLESHEET_PATH } from './stylesheet.ts';
import { synchronizePulls } from './synchronize.ts';
import { Views } from './views.ts';
import { WebhookSender, type WebhookTarget } from './webhooks.ts';

export interface LocalRepoHostOptions {
  /** Repositories live in `{dataDir}/repos/{org}/{name}.git`. */
  dataDir: string;
  host?: string;
  /** 0 picks a free port; a fixed port keeps stored repository URLs valid across restarts. */
  port?: number;
  org?: string;
  /**
   * Where pull requests (opened, closed, merged, synchronized) and commit statuses are reported,
   * signed with `secret`.
   */
  webhook: WebhookTarget;
  log?: FastifyBaseLogger;
  /** Delays between webhook delivery attempts. */
  webhookRetryDelaysMs?: number[];
  /**
   * The marketplace service's own credential (the organization's admin: creates repositories,
   * grants the founder's role). Agents authenticate with their API keys, see `setAuthenticator`.
   */
  platformToken: string;
  /** The marketplace's web address, for links back to it; `setMarketplaceUrl` when known later. */
  marketplaceUrl?: string;
}

export interface LocalRepoHost {
  /** Web pages and git: `git clone {baseUrl}/{org}/{name}`. */
  baseUrl: string;
  /** GitHub REST base (`GITHUB_API_URL`): `{baseUrl}/api/v3`. */
  apiUrl: string;
  org: string;
  /** For when the receiver's address is known only after the host started. */
  setWebhookUrl(url: string | null): void;
  /**
   * How an agent's API key becomes its login, for when the marketplace is built after the host.
   * Until it is set, only the platform token writes.
   */
  setAuthenticator(fn: Authenticator | null): void;
  /** The marketplace's web address (its pages link back to bounties and sign-in there). */
  setMarketplaceUrl(url: string | null): void;
  /**
   * A one-use sign-in ticket for the host's pages, a minute long, for the login of an agent the
   * marketplace has signed in: `{baseUrl}/-/sign-in?ticket=...&to=/path`.
   */
  issueTicket(login: string): string;
  stop(): Promise<void>;
}

const API_PREFIX = '/api/v3';
const GIT_PATH = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/;
// `/files` too: the console links a pull request's files there, as on GitHub.
const PULL_PAGE = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/pull\/(\d+)(?:\/files)?\/?$/;
const REPO_PAGE = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/;

function sendJson(res: ServerResponse, r: ApiResponse): void {
  const body = r.body === undefined ? '' : JSON.stringify(r.body, null, 2);
  res.writeHead(r.status, {
    ...(body ? { 'content-type': 'application/json; charset=utf-8' } : {}),
    'x-github-media-type': 'github.v3; format=json',
    ...r.headers,
  });
  res.end(body);
}

// Never cached: a pull request's page shows its reader's own merge button.
const sendHtml = (res: ServerResponse, status: number, html: string) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
};

const sendText = (
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
) => {
  // The client may still be sending a pack: close rather than read it.
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close', ...headers });
  res.end(`${text}\n`);
};

/**
 * The built-in repository host for development: GitHub's REST subset at `{baseUrl}/api/v3`, git
 * smart HTTP at `{baseUrl}/{org}/{name}(.git)`, readable pages for repositories and pull
 * requests, and signed `pull_request` and `status` webhooks. Loopback only. Reads are anonymous; writes
 * authenticate as on GitHub (see auth.ts and ref-updates.ts for who may do what).
 */
export async function startLocalRepoHost(opts: LocalRepoHostOptions): Promise<LocalRepoHost> {
  const org = opts.org ?? 'marketplace';
  const listenHost = opts.host ?? '127.0.0.1';
  const root = resolve(opts.dataDir, 'repos');
  mkdirSync(root, { recursive: true });
  const store = new RepoStore(root);
  const webhooks = new WebhookSender(opts.webhook, opts.log, opts.webhookRetryDelaysMs);
  const urls = { baseUrl: '', apiUrl: '', org };
  const views = new Views(store, urls);
  const api = new RestApi(views, webhooks);
  const gate = new Gatekeeper(opts.platformToken);
  const sessions = new PageSessions();
  let marketplaceUrl = opts.marketplaceUrl ?? null;
  const context = (req: IncomingMessage): PageContext => ({
    views,
    viewer: sessions.viewer(req),
    marketplaceUrl,
  });
  const pageDeps = { sessions, api, context };
  // The app's own page headers (CSP without framing, nosniff, ...) on every answer: pages, JSON, git.
  const secure = helmet(SECURITY_HEADERS);

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    // A control character (NUL above all) names nothing and must never reach git's arguments.
    if (controlInPath(path))
      return sendJson(res, refused(400, 'Bad Request: the path holds a control character.'));
    if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) {
      if (crossSiteWithBasic(req, urls.baseUrl))
        return sendJson(res, forbidden('Cross-origin requests with Basic credentials are refused.'));
      const actor = await gate.actor(req.headers.authorization);
      if (actor === null) return sendJson(res, badCredentials());
      const reading = method === 'GET' || method === 'HEAD';
      if (!reading && !actor) return sendJson(res, requiresAuthentication());
      const read = reading ? { body: {} } : await readJson(req);
      if ('refusal' in read) return sendJson(res, read.refusal);
      const answer = await api.handle(
        method,
        path.slice(API_PREFIX.length),
        url.searchParams,
        read.body,
        actor,
      );
      return sendJson(res, answer);
    }
    // `/api` is the API's namespace (a `..` in a segment resolves out of `/api/v3`): JSON, never a page.
    if (path === '/api' || path.startsWith('/api/')) return sendJson(res, notFound());
    const git = GIT_PATH.exec(path);
    if (git) return routeGit(req, res, url, git.slice(1) as [string, string, string]);
    const compare = COMPARE_PAGE.exec(path);
    if (compare) return servePullForm(req, res, { ...context(req), api, gate }, [...compare]);
    if (path === SIGN_IN_PATH && method === 'GET') return signIn(res, url, pageDeps);
    if (path === SIGN_OUT_PATH && method === 'POST') return signOut(req, res, pageDeps);
    const merge = method === 'POST' ? MERGE_ACTION.exec(path) : null;
    if (merge) return mergeFromPage(req, res, pageDeps, [...merge]);
    if (method !== 'GET' && method !== 'HEAD') return sendJson(res, refused(405, 'Method Not Allowed'));
    if (path === STYLESHEET_PATH) {
      res.writeHead(200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'max-age=300' });
      return void res.end(STYLESHEET);
    }
    if (path === '/' || path === `/${org}` || path === `/${org}/`)
      return sendHtml(res, 200, indexPage(views, await store.list(org)));
    const pull = PULL_PAGE.exec(path);
    if (pull) {
      const repo = await store.get(pull[1] ?? '', pull[2] ?? '');
      const p = repo?.pulls.find((x) => x.number === Number(pull[3]));
      return repo && p
        ? sendHtml(res, 200, await pullPage(context(req), repo, p))
        : sendHtml(res, 404, notFoundPage());
    }
    const page = REPO_PAGE.exec(path);
    const repo = page ? await store.get(page[1] ?? '', page[2] ?? '') : null;
    return repo ? sendHtml(res, 200, await repoPage(views, repo)) : sendHtml(res, 404, notFoundPage());
  };

  /** Git over HTTP: anonymous reads; a push authenticated, then checked ref by ref (403). */
  const routeGit = async (
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    [owner, name, service]: [string, string, string],
  ): Promise<void> => {
    if (!(await store.get(owner, name))) return sendHtml(res, 404, notFoundPage());
    const pushing =
      service === 'git-receive-pack' ||
      (service === 'info/refs' && url.searchParams.get('service') === 'git-receive-pack');
    const actor = await gate.actor(req.headers.authorization);
    // Git sends credentials only when challenged: a push without them is asked for them.
    if (actor === null || (pushing && !actor))
      return sendText(res, 401, 'Authentication required: any user name, your API key as password.', {
        'www-authenticate': `Basic realm="${org} (local repository host)"`,
      });
    const g = {
      projectRoot: root,
      pathInfo: `/${owner}/${name}.git/${service}`,
      query: url.search.slice(1),
      ...(actor ? { remoteUser: actor.login } : {}),
      ...(opts.log ? { log: opts.log } : {}),
    };
    if (service !== 'git-receive-pack' || req.method !== 'POST' || !actor) return serveGit(req, res, g);
    const push = await readPushBody(req);
    if (!push) return sendText(res, 400, 'Malformed push request.');
    // Read after the commands arrived: a pull request opened meanwhile counts.
    const repo = await store.get(owner, name);
    const refusal = repo ? refusedUpdate(push.updates, actor, repo) : 'No such repository.';
    if (refusal) return sendText(res, 403, refusal);
    await recordPushedTips(store, [owner, name], push.updates, actor);
    // Once git answered: the pull requests whose head branch moved are synchronized.
    res.once('close', () => {
      synchronizePulls(views, webhooks, [owner, name], push.updates, actor).catch((err: unknown) => {
        opts.log?.error({ err, owner, name }, 'local repository host failed to synchronize pull requests');
      });
    });
    return serveGit(req, res, { ...g, push });
  };

  const server = createServer((req, res) => {
    secure(req, res, () => {});
    route(req, res).catch((err: unknown) => {
      opts.log?.error({ err, url: redactUrl(req.url ?? '') }, 'local repository host failed a request');
      if (!res.headersSent) sendJson(res, refused(500, 'Server Error'));
      else res.destroy();
    });
  });
  // As Fastify does: a client that keeps a connection (undici, git) closes it about a second before
  // the server's advertised idle limit; with Node's 5 s default a request sent on a connection just
  // idle that long meets the server's close (ECONNRESET) on a busy machine.
  server.keepAliveTimeout = 72_000;
  server.headersTimeout = 75_000;
  server.on('clientError', (err: Error & { code?: string }, socket) => {
    if (socket.writable) socket.end(clientErrorAnswer(err));
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, listenHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const publicHost = listenHost === '0.0.0.0' || listenHost === '::' ? '127.0.0.1' : listenHost;
  urls.baseUrl = `http://${publicHost.includes(':') ? `[${publicHost}]` : publicHost}:${port}`;
  urls.apiUrl = `${urls.baseUrl}${API_PREFIX}`;
  opts.log?.info({ baseUrl: urls.baseUrl, org }, 'local repository host ready');

  return {
    baseUrl: urls.baseUrl,
    apiUrl: urls.apiUrl,
    org,
    setWebhookUrl: (url) => webhooks.setUrl(url),
    setAuthenticator: (fn) => gate.setAuthenticator(fn),
    setMarketplaceUrl: (url) => {
      marketplaceUrl = url?.replace(/\/+$/, '') ?? null;
    },
    issueTicket: (login) => sessions.issueTicket(login),
    stop: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([closed, webhooks.close()]);
    },
  };
}
