import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../compose.ts';
import type { Chain } from '../../infra/chain/chain.ts';
import type { Config } from '../../infra/config.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { VersionedCache } from '../../lib/versioned-cache.ts';
import { BOARD_EVENT_TYPES, BOUNTY_PAGE_EVENT_TYPES } from '../../modules/activity/activity.schemas.ts';
import {
  boardUrl,
  difficultyOptions,
  loadBoard,
  parseBoardQuery,
  payableOptions,
  sortOptions,
  statusOptions,
} from './board.ts';
import { type ActionError, registerBountyActions, takeNotice } from './bounty-actions.ts';
import { CurveQuotes } from './curve-quotes.ts';
import { loadAgent, loadBounty, loadProject } from './detail-pages.ts';
import { registerSignUp } from './sign-up.ts';

export interface PublicPagesOptions {
  services: Services;
  chain: Pick<Chain, 'readCurve'>;
  clock: Clock;
  explorerUrl: string | null;
  /** Seconds a curve read is reused by every page (the board asks once per project per TTL). */
  curveCacheSeconds?: number;
  /** The API's rate limits: web sign-up spends `registerPerIpPerHour` as registration does. */
  rateLimit?: Config['rateLimit'];
}

// `page: true` opts a route into the strict CSP and security headers (web-core.ts); the JSON API
// keeps its own headers.
const PAGE = { page: true, schema: { hide: true } } as const;

/**
 * The public side of the web: the live board, the bounty, project and agent pages, the bounty
 * page's forms (claim, give back, submit) and sign-up.
 */
export async function publicPages(app: FastifyInstance, opts: PublicPagesOptions) {
  const { services, clock } = opts;
  const curves = new CurveQuotes({
    chain: opts.chain,
    clock,
    ttlMs: (opts.curveCacheSeconds ?? 5) * 1000,
  });
  const base = (request: FastifyRequest) => ({ session: request.webSession });

  // Rendered boards by URL while nothing changed: whole pages for visitors who are not signed in;
  // the board's content for everyone, a signed-in visitor's page adding only its own header.
  const boards = new VersionedCache({ clock });
  const contents = new VersionedCache({ clock });
  app.get('/', PAGE, async (request, reply) => {
    const anonymous = request.webSession === null;
    const version = await services.activity.latestId();
    reply.header('cache-control', 'no-store');
    const cached = anonymous ? boards.get(request.url, version) : null;
    if (cached) return reply.status(cached.status).type('text/html; charset=utf-8').send(cached.body);
    const raw = request.query as Record<string, unknown>;
    const fragment = raw.fragment === 'list';
    const content =
      contents.get(request.url, version) ?? (await renderBoard(request.url, raw, fragment, version));
    // The list re-fetched by the live board is the content alone; a page wraps it in the layout.
    const html = fragment
      ? content.body
      : await app.view('public/board.eta', {
          ...base(request),
          title: 'Bounty board',
          section: 'board',
          bodyHtml: content.body,
        });
    if (anonymous) boards.set(request.url, version, content.status, html);
    return reply.status(content.status).type('text/html; charset=utf-8').send(html);
  });

  /** The board's content for a URL (the filters, or only the list), stored for the next visitor. */
  const renderBoard = async (
    url: string,
    raw: Record<string, unknown>,
    fragment: boolean,
    version: string | null,
  ) => {
    // Read before the board: the stream replays whatever happens after it (latestFinalId).
    const liveSince = await services.activity.latestFinalId();
    const parsed = parseBoardQuery(raw);
    const board = parsed.ok ? await loadBoard(services, parsed.query, clock.now()) : null;
    const data = {
      form: parsed.form,
      problems: parsed.ok ? [] : parsed.problems,
      board,
      // The list re-fetches itself from this URL on live events: the same filters, list only.
      fragmentUrl: boardUrl(parsed.form, { fragment: 'list' }),
      pageUrl: (offset: number) => boardUrl(parsed.form, { offset: String(offset) }),
      clearProjectUrl: boardUrl(parsed.form, { project_id: '', offset: '' }),
      statusOptions,
      difficultyOptions,
      payableOptions,
      sortOptions,
      liveQuery: parsed.ok && parsed.query.project_id ? `?project_id=${parsed.query.project_id}` : '',
      liveTypes: BOARD_EVENT_TYPES.join(','),
      liveSince,
    };
    const status = parsed.ok ? 200 : 400;
    const html = await app.view(fragment ? 'partials/board-list.eta' : 'public/board-body.eta', data);
    contents.set(url, version, status, html);
    return { status, body: html };
  };

  const bountyPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    extra: { status: number; error: ActionError | null; fragment?: boolean } = { status: 200, error: null },
  ) => {
    // Read before the bounty: its stream replays whatever happens after it (latestFinalId).
    const liveSince = extra.fragment ? null : await services.activity.latestFinalId();
    const data = await orNotFound(() =>
      loadBounty(services, id, clock.now(), opts.explorerUrl, request.webSession),
    );
    if (!data) return notFoundPage(request, reply, 'bounty');
    // What the viewer sees depends on who is signed in, and the page follows its bounty live:
    // never cached (not even by the anonymous page cache, which is the board's).
    reply.header('cache-control', 'no-store');
    const common = {
      ...base(request),
      title: data.bounty.title,
      liveTypes: BOUNTY_PAGE_EVENT_TYPES,
      liveSince,
      ...data,
    };
    // The live part alone, for console-live.js: no flash taken (it is the page's), no form error.
    if (extra.fragment)
      return reply.view('public/_bounty-live.eta', { ...common, notice: null, actionError: null });
    return reply.status(extra.status).view('public/bounty.eta', {
      ...common,
      scripts: ['/assets/page-actions.js', '/assets/console-live.js'],
      notice: takeNotice(request, reply),
      actionError: extra.error,
    });
  };
  app.get<{ Params: { id: string }; Querystring: { fragment?: string } }>(
    '/bounties/:id',
    PAGE,
    (request, reply) =>
      bountyPage(request, reply, request.params.id, {
        status: 200,
        error: null,
        fragment: request.query.fragment === 'live',
      }),
  );
  registerBountyActions(app, services, bountyPage);
  registerSignUp(app, { ...(opts.rateLimit ? { rateLimit: opts.rateLimit } : {}) });

  app.get<{ Params: { id: string } }>('/projects/:id', PAGE, async (request, reply) => {
    const data = await orNotFound(() =>
      loadProject(services, curves, request.params.id, clock.now(), opts.explorerUrl),
    );
    if (!data) return notFoundPage(request, reply, 'project');
    return reply.view('public/project.eta', { ...base(request), title: data.project.name, ...data });
  });

  app.get<{ Params: { id: string } }>('/agents/:id', PAGE, async (request, reply) => {
    const data = await orNotFound(() => loadAgent(services, request.params.id, clock.now()));
    if (!data) return notFoundPage(request, reply, 'agent');
    return reply.view('public/agent.eta', { ...base(request), title: data.agent.name, ...data });
  });
}

/** The loader's result, or null when the service says the id is unknown or malformed. */
async function orNotFound<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (err) {
    if (err instanceof AppError && err.code === 'not_found') return null;
    throw err;
  }
}

function notFoundPage(request: FastifyRequest, reply: FastifyReply, what: string) {
  return reply
    .status(404)
    .view('public/not-found.eta', { session: request.webSession, title: 'Not found', what });
}
