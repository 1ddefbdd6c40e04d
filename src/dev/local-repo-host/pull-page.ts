import { Eta } from 'eta';
import { diffView } from '../../web/console/diff.ts';
import { renderMarkdown } from '../../web/markdown.ts';
import { VIEWS_DIR } from '../../web/web-core.ts';
import { maintains } from './auth.ts';
import { combinedState, latestStatuses } from './commit-shapes.ts';
import type { CommitLine } from './git.ts';
import { CSRF_FIELD } from './page-sessions.ts';
import { esc, layout, type PageContext, pullStateLabel, shortSha, viewerLine } from './pages.ts';
import type { StoredPull, StoredRepo, StoredStatus } from './store.ts';

/**
 * A pull request's page, read as on GitHub: who wants what merged where, the description, the
 * commits, the checks, the merge (a button for the founder), and the files changed. The diff and
 * the description are rendered by the marketplace's own code (`web/console/diff.ts` with its
 * `_diff.eta`, `web/markdown.ts`: raw HTML shown as text), so the founder reads the same escaped
 * lines here and in the review queue.
 */

/** Commits listed at most; the count says how many there are. */
const MAX_COMMITS = 250;

// The console's templates, read from the same directory and escaped the same way.
const eta = new Eta({ views: VIEWS_DIR, autoEscape: true, cache: true });

/** A marketplace bounty id named by the head branch (`bounty-<id>`, as the service names it) or the body. */
const BOUNTY_ID = /\bbnt_[0-9a-f]{32}\b/;
export const bountyOf = (pull: StoredPull): string | null =>
  BOUNTY_ID.exec(pull.head)?.[0] ?? BOUNTY_ID.exec(pull.body ?? '')?.[0] ?? null;

/** A branch name, shown whole but free to wrap (a long one never widens the page). */
const ref = (name: string) => `<code class="ref" title="${esc(name)}">${esc(name)}</code>`;
const sha = (full: string) => `<code class="sha" title="${esc(full)}">${esc(shortSha(full))}</code>`;

/** The head commit's statuses, latest per context, each with who set it (a status is its creator's claim). */
function checksHtml(statuses: StoredStatus[]): string {
  if (statuses.length === 0) return '<p>No checks reported on the head commit.</p>';
  const line = (s: StoredStatus) =>
    `<li><span class="${s.state}">${s.state}</span> <code>${esc(s.context)}</code>` +
    (s.description ? ` ${esc(s.description)}` : '') +
    (s.targetUrl ? ` <a href="${esc(s.targetUrl)}" rel="nofollow noopener">details</a>` : '') +
    ` · by ${esc(s.creatorLogin)}</li>`;
  const state = combinedState(statuses);
  return `<p>All checks: <span class="${state}">${state}</span></p><ul class="checks">${statuses.map(line).join('')}</ul>`;
}

function commitsHtml(commits: CommitLine[], total: number): string {
  if (commits.length === 0) return '<p>No commits.</p>';
  const items = commits
    .map((c) => `<li>${sha(c.sha)} ${esc(c.subject)} <small>by ${esc(c.author)}</small></li>`)
    .join('');
  const more = total > commits.length ? `<p><small>and ${total - commits.length} more</small></p>` : '';
  return `<ol class="commits">${items}</ol>${more}`;
}

interface MergeFacts {
  pull: StoredPull;
  repo: StoredRepo;
  htmlUrl: string;
  headSha: string;
  mergeable: boolean;
}

/** What merging looks like for this viewer: done, a button (the founder's), or who may. */
function mergeHtml(ctx: PageContext, f: MergeFacts): string {
  const { pull } = f;
  if (pull.merged)
    return `<p>Merged${pull.mergedByLogin ? ` by <strong>${esc(pull.mergedByLogin)}</strong>` : ''}${
      pull.mergedAt ? ` on ${esc(pull.mergedAt)}` : ''
    }${pull.mergeCommitSha ? ` as ${sha(pull.mergeCommitSha)}` : ''}.</p>`;
  if (pull.state === 'closed') return '<p>Closed without merging.</p>';
  const status = f.mergeable
    ? '<p class="success">No conflicts with the base branch.</p>'
    : '<p class="failure">This branch conflicts with the base branch: it cannot be merged until that is resolved.</p>';
  const { viewer } = ctx;
  if (viewer && maintains(f.repo, { login: viewer.login, platform: false }))
    return `${status}<form method="post" action="${esc(`${f.htmlUrl}/pull/${pull.number}/merge`)}">
<input type="hidden" name="${CSRF_FIELD}" value="${esc(viewer.csrf)}">
<input type="hidden" name="sha" value="${esc(f.headSha)}">
<button type="submit"${f.mergeable ? '' : ' disabled'}>Merge pull request</button>
</form>`;
  return `${status}<p><small>Only the project's founder merges here; merging it approves the bounty it backs.</small></p>`;
}

export async function pullPage(
  ctx: PageContext,
  repo: StoredRepo,
  pull: StoredPull,
  notice?: string,
): Promise<string> {
  const { views } = ctx;
  const full = `${repo.org}/${repo.name}`;
  const htmlUrl = `${views.urls.baseUrl}/${full}`;
  const pageUrl = `${htmlUrl}/pull/${pull.number}`;
  const git = views.store.git(repo.org, repo.name);
  const tips =
    pull.state === 'open' ? await views.tips(repo, pull) : { headSha: pull.headSha, baseSha: pull.baseSha };
  const json = await views.pull(repo, pull);
  const [commits, files] = await Promise.all([
    git.commits(tips.baseSha, tips.headSha, MAX_COMMITS),
    git.diffFiles(tips.baseSha, tips.headSha),
  ]);
  const total = Number(json.commits) || commits.length;
  const state = pullStateLabel(pull);
  const author = pull.authorLogin ? `<strong>${esc(pull.authorLogin)}</strong>` : 'Someone';
  const verb = pull.merged ? 'merged' : 'wants to merge';
  const bounty = bountyOf(pull);
  const bountyLine =
    bounty && ctx.marketplaceUrl
      ? `<p>This pull request backs <a href="${esc(`${ctx.marketplaceUrl}/bounties/${bounty}`)}">a bounty on the marketplace</a> <small>(${esc(bounty)})</small>.</p>`
      : '';
  const diff = eta.render('./console/_diff', {
    diff: diffView(files, Number(json.changed_files) || files.length),
    prUrl: pageUrl,
  });
  return layout(
    `${pull.title} · Pull Request #${pull.number} · ${full}`,
    `<p><a href="${esc(htmlUrl)}">${esc(full)}</a></p>
<h1>${esc(pull.title)} <small>#${pull.number}</small></h1>
<p><span class="state ${state}">${state[0]?.toUpperCase()}${state.slice(1)}</span>
${author} ${verb} ${total} commit${total === 1 ? '' : 's'} into ${ref(pull.base)} from ${ref(pull.head)}
<small>(opened ${esc(pull.createdAt)})</small></p>
${notice ? `<p class="error" role="alert">${esc(notice)}</p>` : ''}
${bountyLine}
<h2>Description</h2>
${renderMarkdown(pull.body) || '<p><small>No description.</small></p>'}
<h2>Commits</h2>
${commitsHtml(commits, total)}
<h2>Checks</h2>
${checksHtml(latestStatuses(repo, tips.headSha))}
<h2>Merge</h2>
${mergeHtml(ctx, { pull, repo, htmlUrl, headSha: tips.headSha, mergeable: json.mergeable === true })}
<section id="files">${diff}</section>
<h2>Check it out</h2><pre>git clone ${esc(htmlUrl)}
git -C ${esc(repo.name)} checkout ${esc(pull.head)}</pre>`,
    viewerLine(ctx, pageUrl),
  );
}
