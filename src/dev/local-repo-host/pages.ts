import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Gatekeeper } from './auth.ts';
import { combinedState, latestStatuses } from './commit-shapes.ts';
import type { ApiResponse } from './responses.ts';
import type { RestApi } from './rest-api.ts';
import type { StoredPull, StoredRepo, StoredStatus } from './store.ts';
import type { Views } from './views.ts';

/** Plain, readable pages for people who open a repository or pull request URL in a browser. */

const esc = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * Served at STYLESHEET_PATH rather than inline: the pages carry the app's content security policy
 * (`style-src 'self'`), which refuses inline styles. `-` is no GitHub login, so no org's path.
 */
export const STYLESHEET_PATH = '/-/style.css';
export const STYLESHEET = `body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1f2328}
a{color:#0969da}code,pre{background:#f6f8fa;padding:.15rem .35rem;border-radius:4px}pre{padding:.8rem;white-space:pre-wrap}
.state{display:inline-block;padding:.1rem .7rem;border-radius:1rem;color:#fff;font-weight:600}
.open{background:#1f883d}.merged{background:#8250df}.closed{background:#cf222e}
table{border-collapse:collapse}td{padding:.2rem .8rem .2rem 0;vertical-align:top}small{color:#59636e}
.success{color:#1a7f37}.failure,.error{color:#cf222e}.pending{color:#9a6700}
label{display:block;font-weight:600;margin:.8rem 0 .2rem}input,textarea{width:100%;box-sizing:border-box;font:inherit;padding:.35rem .5rem}
button{margin-top:1rem;font:inherit;font-weight:600;padding:.4rem 1rem;background:#1f883d;color:#fff;border:0;border-radius:6px}
p.error{font-weight:600}`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${esc(title)}</title><link rel="stylesheet" href="${STYLESHEET_PATH}"></head>
<body>${body}
<p><small>Local repository host (development only). Reads need no credentials; to push, git asks
for a user name (any) and a password (your marketplace API key).</small></p></body></html>
`;
}

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

/**
 * The head commit's statuses, latest per context: one line each, its link only if http(s), and
 * who set it (a status is a claim by its creator).
 */
function checksCell(statuses: StoredStatus[]): string {
  if (statuses.length === 0) return 'none reported';
  const line = (s: StoredStatus) =>
    `<span class="${s.state}">${s.state}</span> <code>${esc(s.context)}</code>` +
    (s.description ? ` ${esc(s.description)}` : '') +
    (s.targetUrl ? ` <a href="${esc(s.targetUrl)}" rel="nofollow noopener">details</a>` : '') +
    ` · by ${esc(s.creatorLogin)}`;
  const state = combinedState(statuses);
  return [`<span class="${state}">${state}</span>`, ...statuses.map(line)].join('<br>');
}

export async function pullPage(views: Views, repo: StoredRepo, pull: StoredPull): Promise<string> {
  const full = `${repo.org}/${repo.name}`;
  const htmlUrl = `${views.urls.baseUrl}/${full}`;
  const json = await views.pull(repo, pull);
  const state = pullStateLabel(pull);
  const headSha = String((json.head as { sha?: unknown }).sha ?? '');
  const rows: [string, string][] = [
    ['Branch', `<code>${esc(pull.head)}</code> &rarr; <code>${esc(pull.base)}</code>`],
    ['State', state],
    ['Opened', esc(pull.createdAt)],
    ...(pull.mergedAt ? [['Merged', esc(pull.mergedAt)] as [string, string]] : []),
    ...(pull.mergeCommitSha
      ? [['Merge commit', `<code>${pull.mergeCommitSha}</code>`] as [string, string]]
      : []),
    ['Commits', String(json.commits)],
    ['Changed files', `${json.changed_files} (+${json.additions} &minus;${json.deletions})`],
    ...(pull.state === 'open'
      ? [['Mergeable', json.mergeable ? 'yes' : 'no, it conflicts with the base branch'] as [string, string]]
      : []),
    ['Head', `<code>${esc(headSha)}</code>`],
    ['Checks', checksCell(latestStatuses(repo, headSha))],
  ];
  return layout(
    `${pull.title} · Pull Request #${pull.number} · ${full}`,
    `<p><a href="${esc(htmlUrl)}">${esc(full)}</a></p>
<h1>${esc(pull.title)} <small>#${pull.number}</small></h1>
<p><span class="state ${state}">${state[0]?.toUpperCase()}${state.slice(1)}</span>
 <code>${esc(pull.head)}</code> &rarr; <code>${esc(pull.base)}</code></p>
<table>${rows.map(([k, v]) => `<tr><td>${k}</td><td>${v}</td></tr>`).join('')}</table>
${pull.body ? `<h2>Description</h2><pre>${esc(pull.body)}</pre>` : ''}
<h2>Check it out</h2><pre>git clone ${esc(htmlUrl)}
git -C ${esc(repo.name)} checkout ${esc(pull.head)}</pre>`,
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
 * No cookie is involved, so another site's form can do nothing without the key.
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

function pullFormPage(views: Views, repo: StoredRepo, form: PullForm, branches: string[], error?: string) {
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
<label for="api_key">Your marketplace API key</label>
<input id="api_key" name="api_key" type="password" required autocomplete="off" spellcheck="false" aria-describedby="api_key-hint">
<p id="api_key-hint"><small>The pull request is opened as the agent this key belongs to. The key is used for this one request and not kept.</small></p>
<button type="submit">Open pull request</button>
</form>`,
  );
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
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
  deps: { views: Views; api: Pick<RestApi, 'handle'>; gate: Pick<Gatekeeper, 'actor'> },
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
    return html(200, pullFormPage(deps.views, repo, form, branches));
  if (req.method !== 'POST') return html(405, notFoundPage());
  const fields = await readForm(req);
  if (!fields) return html(413, pullFormPage(deps.views, repo, form, branches, 'The form is too large.'));
  for (const k of ['head', 'base', 'title', 'body'] as const) form[k] = (fields.get(k) ?? '').trim();
  const key = fields.get('api_key')?.trim() ?? '';
  const actor = key ? await deps.gate.actor(`Bearer ${key}`) : null;
  if (!actor)
    return html(
      401,
      pullFormPage(deps.views, repo, form, branches, 'That API key is not valid: check it and try again.'),
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
      pullFormPage(deps.views, repo, form, branches, refusalText(answer, form)),
    );
  res.writeHead(303, { location: `${deps.views.urls.baseUrl}/${owner}/${name}/pull/${number}` });
  res.end();
}
