import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../compose.ts';
import type { Chain } from '../../infra/chain/chain.ts';
import type { Config } from '../../infra/config.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { VersionedCache } from '../../lib/versioned-cache.ts';
import { BOARD_EVENT_TYPES, BOUNTY_PAGE_EVENT_TYPES } from '../../modules/activity/activity.schemas.ts';
import type { WebSession } from '../web-core.ts';
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
// keeps its own headers. A public page shows a session only its own header and forms (each form's
// POST reads the session row), so it may use a recent copy of it (recent-sessions.ts).
const PAGE = { page: true, schema: { hide: true }, config: { recentSession: true } } as const;

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

  // Boards by URL while nothing changed, for everyone: each page kept encoded and split around its
  // header, so a visitor who is not signed in gets the stored bytes and a signed-in one the same
  // page with its own header (partials/header.eta) rendered in.
  const boards = new VersionedCache<BoardPage>({ clock });
  // A session's last board, encoded, for as long as the session object is kept (recent-sessions.ts:
  // at most 2 s): a reload or the list's refresh is not copied again. Each new 27.5 KB buffer costs
  // more in fresh memory than in copying (bench/README.md, "board.ts").
  const sessionBoards = new WeakMap<WebSession, { header: Buffer; page: BoardPage; bytes: Buffer }>();
  app.get('/', PAGE, async (request, reply) => {
    const version = await services.activity.latestId();
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    const { status, body: page } =
      boards.get(request.url, version) ?? (await renderBoard(request.url, request.query, version));
    const session = request.webSession;
    if (session === null || page.around === null) return reply.status(status).send(page.anonymous);
    const last = sessionBoards.get(session);
    if (last?.page === page) return reply.status(status).send(last.bytes);
    const header =
      last?.header ?? Buffer.from(await app.view('partials/header.eta', { session, section: 'board' }));
    const bytes = Buffer.concat([page.around[0], header, page.around[1]]);
    sessionBoards.set(session, { header, page, bytes });
    return reply.status(status).send(bytes);
  });

  /** The board for a URL (the filters, or only the list), stored for the next visitor. */
  const renderBoard = async (url: string, query: unknown, version: string | null) => {
    const raw = query as Record<string, unknown>;
    const fragment = raw.fragment === 'list';
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
    // The list re-fetched by the live board is the content alone, the same for everyone.
    const content = await app.view(fragment ? 'partials/board-list.eta' : 'public/board-body.eta', data);
    const page: BoardPage = fragment
      ? { anonymous: Buffer.from(content), around: null }
      : await boardAround(content);
    boards.set(url, version, status, page);
    return { status, body: page };
  };

  /** A board page around `content`, split at its header: the anonymous page, and the parts around. */
  const boardAround = async (content: string): Promise<BoardPage> => {
    const layout = { title: 'Bounty board', section: 'board', bodyHtml: content };
    const html = await app.view('public/board.eta', { ...layout, session: null, headerHtml: HEADER_MARK });
    const header = await app.view('partials/header.eta', { session: null, section: 'board' });
    const parts = html.split(HEADER_MARK);
    if (parts.length !== 2) throw new Error('layout.eta must place headerHtml exactly once');
    const [before = '', after = ''] = parts;
    const anonymous = Buffer.from(before + header + after);
    // The parts around the header are views of the anonymous page's bytes, not copies.
    const start = Buffer.byteLength(before);
    const end = start + Buffer.byteLength(header);
    return { anonymous, around: [anonymous.subarray(0, start), anonymous.subarray(end)] };
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

/**
 * A board page as sent: whole for a visitor who is not signed in, and the parts before and after
 * its header (null for the list alone, which has none). Kept as bytes, encoded once.
 */
interface BoardPage {
  anonymous: Buffer;
  around: readonly [Buffer, Buffer] | null;
}

/** Where the layout puts the header when the page is rendered to be split; no escaped text holds `<`. */
const HEADER_MARK = '<!--bm:site-header-->';

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
