import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Actor, Gatekeeper } from './auth.ts';
import { acceptedForm, CSRF_FIELD, type Viewer } from './page-sessions.ts';
import type { ApiResponse } from './responses.ts';
import type { RestApi } from './rest-api.ts';
import type { StoredPull, StoredRepo } from './store.ts';
import { STYLESHEET_PATH } from './stylesheet.ts';
import type { Views } from './views.ts';

/** Plain, readable pages for people who open a repository or pull request URL in a browser. */

export const esc = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function layout(title: string, body: string, foot = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${esc(title)}</title><link rel="stylesheet" href="${STYLESHEET_PATH}"><link rel="icon" href="data:,"></head>
<body>${body}
<footer>${foot}<p><small>Local repository host (development only). Reads need no credentials; to push, git asks
for a user name (any) and a password (your marketplace API key).</small></p></footer></body></html>
`;
}

/** Who reads the host's pages, and where the marketplace is (once known). */
export interface PageContext {
  views: Views;
  viewer: Viewer | null;
  marketplaceUrl: string | null;
}

/** Signed in (and a way out), or a way in through the marketplace, which sends the person back here. */
export function viewerLine(ctx: Omit<PageContext, 'views'>, pageUrl: string): string {
  if (ctx.viewer)
    return `<form class="viewer" method="post" action="/-/sign-out"><small>Signed in as <strong>${esc(ctx.viewer.login)}</strong>
through the marketplace.</small> <input type="hidden" name="${CSRF_FIELD}" value="${esc(ctx.viewer.csrf)}"><button type="submit" class="link">Sign out</button></form>`;
  if (!ctx.marketplaceUrl) return '';
  const to = `${ctx.marketplaceUrl}/repo-host/sign-in?to=${encodeURIComponent(pageUrl)}`;
  return `<p class="viewer"><small><a href="${esc(to)}">Sign in through the marketplace</a> to act here as your agent (the founder merges from this page).</small></p>`;
}

export const shortSha = (sha: string) => sha.slice(0, 7);

export const pullStateLabel = (p: StoredPull): 'open' | 'merged' | 'closed' =>
  p.merged ? 'merged' : p.state;

export function notFoundPage(): string {
  return layout('Not Found', '<h1>Not Found</h1><p>No repository or pull request at this address.</p>');
}

export function indexPage(views: Views, names: string[]): string {
  const { baseUrl, org } = views.urls;
  const items = names
    .map((n) => `<li><a href="${esc(`${baseUrl}/${org}/${n}`)}">${esc(`${org}/${n}`)}</a></li>`)
    .join('');
  return layout(org, `<h1>${esc(org)}</h1>${items ? `<ul>${items}</ul>` : '<p>No repositories yet.</p>'}`);
}

/** Each branch, and for every branch but main a link to open a pull request from it. */
const branchList = (htmlUrl: string, branches: string[]) =>
  branches.length === 0
    ? '<p>none yet</p>'
    : `<ul>${branches
        .map(
          (b) =>
            `<li><code>${esc(b)}</code>${
              b === DEFAULT_BASE
                ? ''
                : ` <a href="${esc(compareUrl(htmlUrl, DEFAULT_BASE, b))}">New pull request</a>`
            }</li>`,
        )
        .join('')}</ul>`;

export async function repoPage(views: Views, repo: StoredRepo): Promise<string> {
  const full = `${repo.org}/${repo.name}`;
  const htmlUrl = `${views.urls.baseUrl}/${full}`;
  const branches = [...(await views.store.git(repo.org, repo.name).branches()).keys()].sort();
  const pulls = [...repo.pulls]
    .sort((a, b) => b.number - a.number)
    .map(
      (p) =>
        `<tr><td><span class="state ${pullStateLabel(p)}">${pullStateLabel(p)}</span></td>` +
        `<td><a href="${esc(`${htmlUrl}/pull/${p.number}`)}">#${p.number} ${esc(p.title)}</a></td>` +
        `<td><code>${esc(p.head)}</code> &rarr; <code>${esc(p.base)}</code></td></tr>`,
    )
    .join('');
  return layout(
    full,
    `<h1>${esc(full)}</h1>
${repo.description ? `<p>${esc(repo.description)}</p>` : ''}
<h2>Clone</h2><pre>git clone ${esc(htmlUrl)}</pre>
<h2>Branches</h2>${branchList(htmlUrl, branches)}
<h2>Pull requests</h2>${pulls ? `<table>${pulls}</table>` : '<p>None yet.</p>'}`,
  );
}

/*
 * Opening a pull request from a page: GitHub's compare address, `/{org}/{name}/compare/{base}...{head}`,
 * shows a form (head and base branch, title, description) and opens the pull request as the
 * agent whose API key is typed into the form. The key is this host's only credential for an
 * agent (git asks for it on push, REST takes it as a bearer token): it is sent with the form,
 * checked, used for this one request and never stored, echoed back or logged. The marketplace
 * cannot do this for the agent: its session never holds the key, and the platform's own token
 * would make the platform the author (a pull request is paid only to the agent that opened it).
 * No cookie is involved, so another site's form can do nothing without the key. A person signed in
 * through the marketplace (page-sessions.ts) is not asked for it: the form carries the session's
 * token instead and opens the pull request as that person.
 */

const DEFAULT_BASE = 'main';
export const COMPARE_PAGE = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/compare\/(.+)$/;
const MAX_FORM_BYTES = 64 * 1024;

export const compareUrl = (htmlUrl: string, base: string, head: string) =>
  `${htmlUrl}/compare/${encodeURIComponent(base)}...${encodeURIComponent(head)}`;

interface PullForm {
  head: string;
  base: string;
  title: string;
  body: string;
}

function pullFormPage(
  { views, viewer }: { views: Views; viewer?: Viewer | null },
  repo: StoredRepo,
  form: PullForm,
  branches: string[],
  error?: string,
) {
  const full = `${repo.org}/${repo.name}`;
  const htmlUrl = `${views.urls.baseUrl}/${full}`;
  const missing = form.head && !branches.includes(form.head);
  const field = (name: keyof PullForm, label: string) =>
    `<label for="${name}">${label}</label><input id="${name}" name="${name}" type="text" required value="${esc(form[name])}">`;
  return layout(
    `New pull request · ${full}`,
    `<p><a href="${esc(htmlUrl)}">${esc(full)}</a></p>
<h1>Open a pull request</h1>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
${missing ? `<p class="pending">There is no branch <code>${esc(form.head)}</code> here yet: push it first.</p>` : ''}
<form method="post" action="${esc(compareUrl(htmlUrl, form.base, form.head))}">
${field('head', 'From branch (head)')}
${field('base', 'Into branch (base)')}
${field('title', 'Title')}
<label for="body">Description</label><textarea id="body" name="body" rows="6">${esc(form.body)}</textarea>
${
  viewer
    ? `<input type="hidden" name="${CSRF_FIELD}" value="${esc(viewer.csrf)}">
<p><small>The pull request is opened as <strong>${esc(viewer.login)}</strong>, signed in through the marketplace.</small></p>`
    : `<label for="api_key">Your marketplace API key</label>
<input id="api_key" name="api_key" type="password" required autocomplete="off" spellcheck="false" aria-describedby="api_key-hint">
<p id="api_key-hint"><small>The pull request is opened as the agent this key belongs to. The key is used for this one request and not kept.</small></p>`
}
<button type="submit">Open pull request</button>
</form>`,
  );
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** What GitHub's answer says went wrong, in words for the form. */
function refusalText(answer: ApiResponse, form: PullForm): string {
  const body = (answer.body ?? {}) as {
    message?: string;
    errors?: { field?: string; code?: string; message?: string }[];
  };
  const first = body.errors?.[0];
  if (first?.message) return first.message;
  if (first?.code === 'missing_field') return `The ${first.field} is missing.`;
  if (first?.field === 'head') return `There is no branch ${form.head} here: push it first.`;
  if (first?.field === 'base') return `There is no branch ${form.base} here.`;
  return body.message ?? `The pull request could not be opened (${answer.status}).`;
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return '';
  }
};

/** GET: the form for `{base}...{head}` (or `{head}` into main). POST: opens it, then to its page. */
export async function servePullForm(
  req: IncomingMessage,
  res: ServerResponse,
  deps: {
    views: Views;
    viewer?: Viewer | null;
    api: Pick<RestApi, 'handle'>;
    gate: Pick<Gatekeeper, 'actor'>;
  },
  [, owner = '', name = '', spec = '']: string[],
): Promise<void> {
  const html = (status: number, page: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(page);
  };
  const repo = await deps.views.store.get(owner, name);
  if (!repo) return html(404, notFoundPage());
  const [base, head] = spec.includes('...') ? spec.split('...', 2) : [DEFAULT_BASE, spec];
  const url = new URL(req.url ?? '/', 'http://local');
  const branches = [...(await deps.views.store.git(owner, name).branches()).keys()];
  const form: PullForm = {
    head: decode(head ?? ''),
    base: decode(base ?? DEFAULT_BASE),
    title: url.searchParams.get('title') ?? '',
    body: url.searchParams.get('body') ?? '',
  };
  if (req.method === 'GET' || req.method === 'HEAD')
    return html(200, pullFormPage(deps, repo, form, branches));
  if (req.method !== 'POST') return html(405, notFoundPage());
  const fields = await readForm(req);
  if (!fields) return html(413, pullFormPage(deps, repo, form, branches, 'The form is too large.'));
  for (const k of ['head', 'base', 'title', 'body'] as const) form[k] = (fields.get(k) ?? '').trim();
  // A signed-in person's form carries the session's token; anyone else types the key.
  const token = fields.get(CSRF_FIELD);
  let actor: Actor | null | undefined = null;
  if (token !== null) {
    if (!deps.viewer || !acceptedForm(req, deps.views.urls.baseUrl, deps.viewer, token))
      return html(
        403,
        pullFormPage(deps, repo, form, branches, 'This form did not come from this page: reload it.'),
      );
    actor = { login: deps.viewer.login, platform: false };
  } else {
    const key = fields.get('api_key')?.trim() ?? '';
    actor = key ? await deps.gate.actor(`Bearer ${key}`) : null;
  }
  if (!actor)
    return html(
      401,
      pullFormPage(deps, repo, form, branches, 'That API key is not valid: check it and try again.'),
    );
  const answer = await deps.api.handle(
    'POST',
    `/repos/${owner}/${name}/pulls`,
    new URLSearchParams(),
    { ...form },
    actor,
  );
  const number = (answer.body as { number?: unknown } | undefined)?.number;
  if (answer.status !== 201 || typeof number !== 'number')
    return html(
      answer.status >= 400 ? answer.status : 422,
      pullFormPage(deps, repo, form, branches, refusalText(answer, form)),
    );
  res.writeHead(303, { location: `${deps.views.urls.baseUrl}/${owner}/${name}/pull/${number}` });
  res.end();
}
