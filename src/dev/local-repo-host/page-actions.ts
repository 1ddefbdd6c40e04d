import type { IncomingMessage, ServerResponse } from 'node:http';
import { acceptedForm, CSRF_FIELD, type PageSessions, sessionCookie } from './page-sessions.ts';
import { layout, notFoundPage, type PageContext, readForm } from './pages.ts';
import { pullPage } from './pull-page.ts';
import type { RestApi } from './rest-api.ts';

/**
 * What a person does on the host's pages: sign in with the marketplace's ticket, sign out, and
 * merge a pull request (the founder). A merge here is `PUT .../pulls/{n}/merge` as that person,
 * through the same handler as the REST API, so the same rules hold and the same signed
 * `pull_request` webhook goes to the marketplace.
 */

export const SIGN_IN_PATH = '/-/sign-in';
export const SIGN_OUT_PATH = '/-/sign-out';
export const MERGE_ACTION = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/pull\/(\d+)\/merge$/;

/** Where a sign-in may send the browser: a path of this host, never another origin. */
const LOCAL_PATH = /^\/(?![/\\])[A-Za-z0-9._~\-/%]*$/;

export interface PageActionDeps {
  sessions: PageSessions;
  api: Pick<RestApi, 'handle'>;
  /** The page context of this request (viewer included). */
  context: (req: IncomingMessage) => PageContext;
}

const html = (res: ServerResponse, status: number, page: string, headers: Record<string, string> = {}) => {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(page);
};
const seeOther = (res: ServerResponse, location: string, headers: Record<string, string> = {}) => {
  res.writeHead(303, { location, 'cache-control': 'no-store', ...headers });
  res.end();
};
const message = (heading: string, text: string) =>
  layout(heading, `<h1>${heading}</h1><p>${text}</p><p><a href="/">Back to the repositories</a></p>`);

/** `GET /-/sign-in?ticket=...&to=/path`: the ticket spent for a session, then on to the page. */
export function signIn(res: ServerResponse, url: URL, deps: PageActionDeps) {
  const session = deps.sessions.redeem(url.searchParams.get('ticket') ?? '');
  if (!session)
    return html(
      res,
      401,
      message(
        'Sign-in link expired',
        'This sign-in link was used already or is too old. Follow the link from the marketplace again.',
      ),
    );
  const to = url.searchParams.get('to') ?? '/';
  seeOther(res, LOCAL_PATH.test(to) ? to : '/', {
    'set-cookie': sessionCookie(session.token, session.maxAgeSeconds),
  });
}

/** `POST /-/sign-out` from this host's own page. */
export async function signOut(req: IncomingMessage, res: ServerResponse, deps: PageActionDeps) {
  const { viewer, views } = deps.context(req);
  const form = await readForm(req);
  if (viewer && !acceptedForm(req, views.urls.baseUrl, viewer, form?.get(CSRF_FIELD) ?? null))
    return html(res, 403, message('Request refused', 'This form did not come from a page of this host.'));
  deps.sessions.end(req);
  seeOther(res, '/', { 'set-cookie': sessionCookie('', 0) });
}

/** `POST /{org}/{name}/pull/{n}/merge`: the founder's merge button. */
export async function mergeFromPage(
  req: IncomingMessage,
  res: ServerResponse,
  deps: PageActionDeps,
  [, owner = '', name = '', n = '']: string[],
): Promise<void> {
  const ctx = deps.context(req);
  const repo = await ctx.views.store.get(owner, name);
  const pull = repo?.pulls.find((p) => p.number === Number(n));
  if (!repo || !pull) return html(res, 404, notFoundPage());
  const page = `${ctx.views.urls.baseUrl}/${owner}/${name}/pull/${pull.number}`;
  const form = await readForm(req);
  const refuse = async (status: number, notice: string) =>
    html(res, status, await pullPage(ctx, repo, pull, notice));
  if (!form) return refuse(413, 'The form is too large.');
  if (!ctx.viewer) return refuse(401, 'Sign in through the marketplace to merge.');
  if (!acceptedForm(req, ctx.views.urls.baseUrl, ctx.viewer, form.get(CSRF_FIELD)))
    return refuse(
      403,
      'This form did not come from this page, or the page is too old: reload it and try again.',
    );
  const sha = form.get('sha');
  const answer = await deps.api.handle(
    'PUT',
    `/repos/${owner}/${name}/pulls/${pull.number}/merge`,
    new URLSearchParams(),
    { merge_method: 'merge', ...(sha ? { sha } : {}) },
    { login: ctx.viewer.login, platform: false },
  );
  if (answer.status === 200) return seeOther(res, page);
  const said = (answer.body as { message?: unknown } | undefined)?.message;
  // The record may have moved (merged meanwhile): the page shows it as it is now.
  const fresh = (await ctx.views.store.get(owner, name)) ?? repo;
  const now = fresh.pulls.find((p) => p.number === pull.number) ?? pull;
  return html(
    res,
    answer.status,
    await pullPage(ctx, fresh, now, typeof said === 'string' ? said : 'Not merged.'),
  );
}
