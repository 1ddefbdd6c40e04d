import { combinedState, latestStatuses } from './commit-shapes.ts';
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
.success{color:#1a7f37}.failure,.error{color:#cf222e}.pending{color:#9a6700}`;

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
<h2>Branches</h2><p>${branches.map((b) => `<code>${esc(b)}</code>`).join(' ') || 'none yet'}</p>
<h2>Pull requests</h2>${pulls ? `<table>${pulls}</table>` : '<p>None yet.</p>'}`,
  );
}

/** The head commit's statuses, latest per context: one line each, its link only if http(s). */
function checksCell(statuses: StoredStatus[]): string {
  if (statuses.length === 0) return 'none reported';
  const line = (s: StoredStatus) =>
    `<span class="${s.state}">${s.state}</span> <code>${esc(s.context)}</code>` +
    (s.description ? ` ${esc(s.description)}` : '') +
    (s.targetUrl ? ` <a href="${esc(s.targetUrl)}" rel="nofollow noopener">details</a>` : '');
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
