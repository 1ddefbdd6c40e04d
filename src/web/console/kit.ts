import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { Services } from '../../compose.ts';
import type { Config } from '../../infra/config.ts';
import type { Db } from '../../infra/db/client.ts';
import { toDetails, validatorCompiler } from '../../infra/http/validation.ts';
import type { RepoHost } from '../../infra/repo-host/repo-host.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { clipForCookie } from '../cookie-text.ts';
import { csrfRefused, verifyCsrf } from '../csrf.ts';
import { formRoute, SESSION_COOKIE, type SessionStore } from '../session.ts';
import type { WebSession } from '../web-core.ts';
import { type FixLink, type FormError, helpers } from './format.ts';

/** What the console's loaders and actions are given: the services, and who is signed in. */
export interface ConsoleDeps {
  services: Services;
  repoHost: RepoHost;
  db: Db;
  config: Config;
  devChain: boolean;
  explorerUrl: string | null;
  clock: Clock;
  sessions: SessionStore;
}

export interface ConsoleCtx extends ConsoleDeps {
  session: WebSession;
  /** The signed-in agent as the wallet service wants it (its current wallet address). */
  owner: { id: string; walletAddress: string | null };
  /** The cookie's token of this browser's session (to keep it when others are ended). */
  sessionToken: string | null;
}

/**
 * What the console's live pages follow (`GET /console/events`, console-live.js): what changes a
 * review queue, a claim, a payout, the open bounties or the viewer's wallet transactions.
 */
export const CONSOLE_EVENT_TYPES = [
  'bounty.created',
  'bounty.claimed',
  'bounty.unclaimed',
  'bounty.claim_expired',
  'bounty.payable',
  'bounty.unpayable',
  'submission.created',
  'submission.rejected',
  'submission.changes_requested',
  'submission.approved',
  'submission.merged',
  'payout.failed',
  'claim.expiring',
  'bounty.commented',
  'wallet.tx_confirmed',
  'wallet.tx_failed',
] as const;

/** The console's pages; `live` is the template of the part `console-live.js` re-fetches (`?fragment=live`). */
export const PAGES = {
  overview: {
    path: '/console',
    template: 'console/overview.eta',
    title: 'Console: my work',
    live: 'console/_overview-live.eta',
  },
  projects: {
    path: '/console/projects',
    template: 'console/projects.eta',
    title: 'Console: my projects',
    live: null,
  },
  reviews: {
    path: '/console/reviews',
    template: 'console/reviews.eta',
    title: 'Console: review queue',
    live: 'console/_reviews-live.eta',
  },
  account: {
    path: '/console/account',
    template: 'console/account.eta',
    title: 'Console: account',
    live: null,
  },
} as const;
export type PageName = keyof typeof PAGES;

export type Loader = (ctx: ConsoleCtx) => Promise<Record<string, unknown>>;

const FLASH_COOKIE = 'bm_flash';
const flashOptions = { path: '/', httpOnly: true, sameSite: 'lax' as const, maxAge: 60 };

/** Post/Redirect/Get: the message travels in a cookie that lives one page view (at most a minute). */
export function setFlash(reply: FastifyReply, message: string): void {
  reply.setCookie(FLASH_COOKIE, clipForCookie(message), {
    ...flashOptions,
    secure: reply.request.protocol === 'https',
  });
}

export function redirectWithFlash(reply: FastifyReply, to: string, message: string) {
  setFlash(reply, message);
  return reply.redirect(to, 303);
}

function takeFlash(request: FastifyRequest, reply: FastifyReply): string | null {
  const flash = request.cookies[FLASH_COOKIE];
  if (!flash) return null;
  reply.clearCookie(FLASH_COOKIE, flashOptions);
  return flash;
}

export async function consoleCtx(deps: ConsoleDeps, request: FastifyRequest): Promise<ConsoleCtx | null> {
  const session = request.webSession;
  if (!session) return null;
  const agent = await deps.services.directory.require(session.agentId);
  return {
    ...deps,
    session,
    owner: { id: agent.id, walletAddress: agent.walletAddress },
    sessionToken: request.cookies[SESSION_COOKIE] ?? null,
  };
}

/** To the sign-in form, and back here afterwards. */
export const toSignIn = (reply: FastifyReply, next: string) =>
  reply.redirect(`/sign-in?next=${encodeURIComponent(next)}`, 303);

/** Renders a console page: its loader's data, the flash, and a form error with its status. */
export async function renderPage(
  reply: FastifyReply,
  ctx: ConsoleCtx,
  page: PageName,
  load: Loader,
  extra: {
    status?: number;
    error?: FormError | null;
    shown?: Record<string, unknown>;
    /** Only the page's live part (`PAGES[page].live`), for console-live.js; no flash taken. */
    fragment?: boolean;
  } = {},
) {
  const live = extra.fragment ? PAGES[page].live : null;
  // Read before the page's data: its stream replays whatever happens after it (latestFinalId).
  const liveSince = live ? null : await ctx.services.activity.latestFinalId();
  const data = await load(ctx);
  const error = extra.error ?? null;
  return reply
    .status(extra.status ?? 200)
    .header('cache-control', 'no-store')
    .view(live ?? PAGES[page].template, {
      title: PAGES[page].title,
      session: ctx.session,
      page,
      flash: live ? null : takeFlash(reply.request, reply),
      error,
      shown: extra.shown ?? null,
      devChain: ctx.devChain,
      liveTypes: CONSOLE_EVENT_TYPES,
      liveSince,
      h: helpers(error, ctx.explorerUrl),
      ...data,
    });
}

// One compiled validator per schema, as the MCP tools do: the same limits as the JSON routes.
const validators = new WeakMap<TSchema, ReturnType<typeof validatorCompiler>>();

/**
 * A form's fields checked against the JSON route's own TypeBox schema. Form values are text, so
 * the coercing validator turns "100" into 100; empty optional fields count as absent.
 */
export function parseForm<T extends TSchema>(schema: T, fields: Record<string, unknown>): Static<T> {
  let validate = validators.get(schema);
  if (!validate) {
    validate = validatorCompiler({ schema, httpPart: 'querystring' });
    validators.set(schema, validate);
  }
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== '') copy[k] = v;
  if (!validate(copy))
    throw new AppError(
      'validation_error',
      'Some fields need fixing.',
      toDetails(validate.errors ?? [], 'form'),
    );
  return copy as Static<T>;
}

/** What an action does after it succeeds: redirect with a message, or show a page (a one-time secret). */
export type ActionResult =
  | { flash: string; to?: string }
  | { page: PageName; shown: Record<string, unknown> };

export interface ActionSpec<P extends Record<string, string>> {
  path: string;
  /** The page the form lives on: where errors are shown and success redirects to. */
  page: PageName;
  load: Loader;
  /** The id of the form on its page, so that an error is shown inside the right one. */
  form: (params: P, body: Record<string, unknown>) => string;
  run: (ctx: ConsoleCtx, params: P, body: Record<string, unknown>) => Promise<ActionResult>;
  /** Links that fix a refusal (shown with its message): "Buy tokens" when funds are short. */
  fixes?: (err: AppError, params: P, ctx: ConsoleCtx) => Promise<FixLink[]>;
}

/**
 * A console form's POST route: signed in, CSRF-checked, then the action (which calls the same
 * service as the JSON route). An AppError is shown on the form's page with its own status;
 * nothing else is caught here (the app's error handler logs it as a 500).
 */
export function registerAction<P extends Record<string, string>>(
  app: FastifyInstance,
  deps: ConsoleDeps,
  spec: ActionSpec<P>,
): void {
  app.post(spec.path, formRoute, async (request, reply) => {
    const session = request.webSession;
    if (!session) return toSignIn(reply, PAGES[spec.page].path);
    if (!verifyCsrf(request, session)) return csrfRefused(reply);
    const ctx = (await consoleCtx(deps, request)) as ConsoleCtx;
    const params = request.params as P;
    const body = (request.body ?? {}) as Record<string, unknown>;
    try {
      if (request.validationError)
        throw new AppError('validation_error', 'The form could not be read; reload the page and try again.');
      const result = await spec.run(ctx, params, body);
      if ('page' in result) return renderPage(reply, ctx, result.page, spec.load, { shown: result.shown });
      return redirectWithFlash(reply, result.to ?? PAGES[spec.page].path, result.flash);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.status >= 500) request.log.warn({ err }, 'console action failed');
      const fields: Record<string, string> = {};
      for (const d of err.details ?? []) fields[d.field] ??= d.message;
      const { _csrf: _, ...values } = body;
      const fixes = (await spec.fixes?.(err, params, ctx).catch(() => [])) ?? [];
      const error = { form: spec.form(params, body), message: err.message, fields, values, fixes };
      return renderPage(reply, ctx, spec.page, spec.load, { status: err.status, error });
    }
  });
}

/**
 * A console GET page: signed-in only, otherwise to the sign-in form and back. A page with a live
 * part answers `?fragment=live` with that part alone (401 without a session: a script asked).
 */
export function registerPage(app: FastifyInstance, deps: ConsoleDeps, page: PageName, load: Loader): void {
  app.get(PAGES[page].path, { page: true, schema: { hide: true } }, async (request, reply) => {
    const fragment =
      PAGES[page].live !== null && (request.query as { fragment?: unknown }).fragment === 'live';
    const ctx = await consoleCtx(deps, request);
    if (!ctx) return fragment ? reply.status(401).send('') : toSignIn(reply, PAGES[page].path);
    return renderPage(reply, ctx, page, load, { fragment });
  });
}
