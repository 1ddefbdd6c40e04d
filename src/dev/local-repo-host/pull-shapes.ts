import { PLATFORM_LOGIN } from './auth.ts';
import type { DiffStats } from './git.ts';
import { type HostUrls, type Json, nodeId, organization, simpleUser, userOf } from './github-shapes.ts';
import type { StoredPull, StoredRepo } from './store.ts';

// GitHub's pull request shapes: `pull-request`, `pull-request-simple` and the `pull_request` webhook.

export interface PullLive {
  headSha: string;
  baseSha: string;
  /** Only for the full shape (single pull request). */
  stats?: DiffStats;
  mergeable?: boolean | null;
}

/** GitHub's `pull-request` (full) or `pull-request-simple` (lists). */
export function pullRequest(u: HostUrls, repoJson: Json, r: StoredRepo, p: StoredPull, live: PullLive): Json {
  const api = `${u.apiUrl}/repos/${r.org}/${r.name}`;
  const html = `${u.baseUrl}/${r.org}/${r.name}/pull/${p.number}`;
  // Records from before the host knew its users read as opened and merged by the platform.
  const user = userOf(u, p.authorLogin ?? PLATFORM_LOGIN);
  const owner = simpleUser(u, r.org, 'Organization');
  const branch = (ref: string, sha: string) => ({
    label: `${r.org}:${ref}`,
    ref,
    sha,
    user: owner,
    repo: repoJson,
  });
  const links = {
    self: `${api}/pulls/${p.number}`,
    html,
    issue: `${api}/issues/${p.number}`,
    comments: `${api}/issues/${p.number}/comments`,
    review_comments: `${api}/pulls/${p.number}/comments`,
    review_comment: `${api}/pulls/comments{/number}`,
    commits: `${api}/pulls/${p.number}/commits`,
    statuses: `${api}/statuses/${live.headSha}`,
  };
  const simple: Json = {
    url: links.self,
    id: p.id,
    node_id: nodeId('PullRequest', p.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: links.issue,
    commits_url: links.commits,
    review_comments_url: links.review_comments,
    review_comment_url: links.review_comment,
    comments_url: links.comments,
    statuses_url: links.statuses,
    number: p.number,
    state: p.state,
    locked: false,
    title: p.title,
    user,
    body: p.body,
    labels: [],
    milestone: null,
    active_lock_reason: null,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    closed_at: p.closedAt,
    merged_at: p.mergedAt,
    merge_commit_sha: p.mergeCommitSha,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    head: branch(p.head, live.headSha),
    base: branch(p.base, live.baseSha),
    _links: Object.fromEntries(Object.entries(links).map(([k, href]) => [k, { href }])),
    author_association: 'CONTRIBUTOR',
    auto_merge: null,
    draft: p.draft,
  };
  if (!live.stats) return simple;
  const mergeable = p.state === 'open' ? (live.mergeable ?? null) : null;
  return {
    ...simple,
    merged: p.merged,
    mergeable,
    rebaseable: false,
    mergeable_state: mergeable === null ? 'unknown' : mergeable ? 'clean' : 'dirty',
    merged_by: p.merged ? userOf(u, p.mergedByLogin ?? PLATFORM_LOGIN) : null,
    comments: 0,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: live.stats.commits,
    additions: live.stats.additions,
    deletions: live.stats.deletions,
    changed_files: live.stats.changedFiles,
  };
}

/** The `pull_request` webhook GitHub sends for an organization repository (`extra`: `before`, `after`). */
export function pullRequestEvent(
  u: HostUrls,
  action: string,
  pullJson: Json,
  repoJson: Json,
  senderLogin: string,
  extra: Json = {},
): Json {
  // The branches' repositories of a webhook's pull request carry no organization object (GitHub's
  // description of some actions types it as a string).
  const branch = (b: unknown) => {
    const { organization: _, ...repo } = (b as { repo: Json }).repo;
    return { ...(b as Json), repo };
  };
  return {
    action,
    number: pullJson.number,
    ...extra,
    pull_request: {
      ...pullJson,
      head: branch(pullJson.head),
      base: branch(pullJson.base),
      allow_auto_merge: false,
      delete_branch_on_merge: false,
    },
    repository: repoJson,
    organization: organization(u),
    sender: userOf(u, senderLogin),
  };
}
