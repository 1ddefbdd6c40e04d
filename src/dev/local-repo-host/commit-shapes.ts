import type { DiffFile } from './diff-files.ts';
import type { CommitInfo } from './git.ts';
import { type HostUrls, type Json, nodeId, organization, userOf } from './github-shapes.ts';
import type { StoredRepo, StoredStatus } from './store.ts';

// GitHub's shapes for commits' statuses (`status`, `combined-commit-status`, the `status` webhook)
// and a pull request's files (`diff-entry`).

/** The current status of each context of a commit: the latest posted, contexts case-insensitive. */
export function latestStatuses(repo: StoredRepo, sha: string): StoredStatus[] {
  const latest = new Map<string, StoredStatus>();
  for (const s of repo.statuses ?? []) if (s.sha === sha) latest.set(s.context.toLowerCase(), s);
  return [...latest.values()].sort((a, b) => b.id - a.id);
}

/** GitHub's combined state: failure on any error or failure, pending without statuses or while any is. */
export function combinedState(statuses: StoredStatus[]): 'failure' | 'pending' | 'success' {
  if (statuses.some((s) => s.state === 'failure' || s.state === 'error')) return 'failure';
  if (statuses.length === 0 || statuses.some((s) => s.state === 'pending')) return 'pending';
  return 'success';
}

const apiOf = (u: HostUrls, r: StoredRepo) => `${u.apiUrl}/repos/${r.org}/${r.name}`;

/** `simple-commit-status`, as the combined status lists them. */
export function simpleStatus(u: HostUrls, r: StoredRepo, s: StoredStatus): Json {
  const creator = userOf(u, s.creatorLogin);
  return {
    url: `${apiOf(u, r)}/statuses/${s.sha}`,
    avatar_url: creator.avatar_url,
    id: s.id,
    node_id: nodeId('StatusContext', s.id),
    state: s.state,
    description: s.description,
    target_url: s.targetUrl,
    context: s.context,
    created_at: s.createdAt,
    updated_at: s.createdAt,
  };
}

/** `status`, as `POST .../statuses/{sha}` answers. */
export const status = (u: HostUrls, r: StoredRepo, s: StoredStatus): Json => ({
  ...simpleStatus(u, r, s),
  creator: userOf(u, s.creatorLogin),
});

/** `combined-commit-status`, as `GET .../commits/{ref}/status` answers (`statuses`: one page). */
export function combinedStatus(
  u: HostUrls,
  r: StoredRepo,
  sha: string,
  repoJson: Json,
  page: { perPage: number; from: number },
): Json {
  const latest = latestStatuses(r, sha);
  const api = apiOf(u, r);
  return {
    state: combinedState(latest),
    // GitHub's entries do not say who set them; these do (`creator`), for the founder to see.
    statuses: latest.slice(page.from, page.from + page.perPage).map((s) => status(u, r, s)),
    sha,
    total_count: latest.length,
    repository: repoJson,
    commit_url: `${api}/commits/${sha}`,
    url: `${api}/commits/${sha}/status`,
  };
}

/** `commit`, as the `status` webhook and a compare carry it (GitHub's accounts of it: none here). */
export function commitJson(u: HostUrls, r: StoredRepo, commit: CommitInfo): Json {
  const api = apiOf(u, r);
  const html = `${u.baseUrl}/${r.org}/${r.name}`;
  const person = (p: CommitInfo['author']) => ({ name: p.name, email: p.email, date: p.date });
  return {
    sha: commit.sha,
    node_id: Buffer.from(`0:Commit${r.id}:${commit.sha}`).toString('base64'),
    commit: {
      author: person(commit.author),
      committer: person(commit.committer),
      message: commit.message,
      tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` },
      url: `${api}/git/commits/${commit.sha}`,
      comment_count: 0,
      verification: {
        verified: false,
        reason: 'unsigned',
        signature: null,
        payload: null,
        verified_at: null,
      },
    },
    url: `${api}/commits/${commit.sha}`,
    html_url: `${html}/commit/${commit.sha}`,
    comments_url: `${api}/commits/${commit.sha}/comments`,
    // GitHub names the accounts whose e-mail addresses these are; the local host knows none.
    author: null,
    committer: null,
    parents: commit.parents.map((p) => ({
      sha: p,
      url: `${api}/commits/${p}`,
      html_url: `${html}/commit/${p}`,
    })),
  };
}

/** The `status` webhook GitHub sends when a commit status is created. */
export function statusEvent(
  u: HostUrls,
  r: StoredRepo,
  s: StoredStatus,
  commit: CommitInfo,
  branches: { name: string; sha: string }[],
  repoJson: Json,
): Json {
  const api = apiOf(u, r);
  return {
    id: s.id,
    sha: s.sha,
    name: `${r.org}/${r.name}`,
    target_url: s.targetUrl,
    avatar_url: userOf(u, s.creatorLogin).avatar_url,
    context: s.context,
    description: s.description,
    state: s.state,
    commit: commitJson(u, r, commit),
    branches: branches.map((b) => ({
      name: b.name,
      commit: { sha: b.sha, url: `${api}/commits/${b.sha}` },
      protected: false,
    })),
    created_at: s.createdAt,
    updated_at: s.createdAt,
    repository: repoJson,
    organization: organization(u),
    sender: userOf(u, s.creatorLogin),
  };
}

/** `diff-entry`, one file of `GET .../pulls/{n}/files`; its URLs name the file at the head commit. */
export function diffEntry(u: HostUrls, r: StoredRepo, headSha: string, f: DiffFile): Json {
  const path = f.filename.split('/').map(encodeURIComponent).join('/');
  const html = `${u.baseUrl}/${r.org}/${r.name}`;
  return {
    sha: f.blobSha,
    filename: f.filename,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    blob_url: `${html}/blob/${headSha}/${path}`,
    raw_url: `${html}/raw/${headSha}/${path}`,
    contents_url: `${apiOf(u, r)}/contents/${path}?ref=${headSha}`,
    ...(f.patch === null ? {} : { patch: f.patch }),
    ...(f.previousFilename === undefined ? {} : { previous_filename: f.previousFilename }),
  };
}
