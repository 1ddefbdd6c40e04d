import { type StoredRepo, stableId } from './store.ts';

/**
 * GitHub's JSON shapes for what the local host serves, with every property GitHub's OpenAPI
 * description marks required (simple-user, full-repository; pull requests in pull-shapes.ts). Templated `*_url` fields follow GitHub's patterns; most of the APIs they
 * point at are not served here.
 */
export interface HostUrls {
  /** `http://127.0.0.1:{port}`: web pages and git. */
  baseUrl: string;
  /** `{baseUrl}/api/v3` */
  apiUrl: string;
  org: string;
}

export type Json = Record<string, unknown>;

export const DOCS = 'https://docs.github.com/rest';

export const nodeId = (kind: string, id: number) => Buffer.from(`0:${kind}${id}`).toString('base64');

export function simpleUser(u: HostUrls, login: string, type: 'User' | 'Organization' | 'Bot'): Json {
  const id = stableId(`user:${login.toLowerCase()}`);
  // A bot's login has brackets, which a URL path must escape.
  const path = encodeURIComponent(login);
  const api = `${u.apiUrl}/users/${path}`;
  return {
    login,
    id,
    node_id: nodeId(type, id),
    avatar_url: `${u.baseUrl}/${path}.png`,
    gravatar_id: '',
    url: api,
    html_url: `${u.baseUrl}/${path}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type,
    user_view_type: 'public',
    site_admin: false,
  };
}

/** The account behind a login: the platform's bot, or an agent's user. */
export const userOf = (u: HostUrls, login: string): Json =>
  simpleUser(u, login, login.endsWith('[bot]') ? 'Bot' : 'User');

/** GitHub's `public-user`, as `GET /user` answers; the local host keeps no profile. */
export function publicUser(u: HostUrls, login: string, createdAt: string): Json {
  return {
    ...userOf(u, login),
    name: null,
    company: null,
    blog: null,
    location: null,
    email: null,
    hireable: null,
    bio: null,
    public_repos: 0,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

/**
 * GitHub's `rate-limit-overview`, as `GET /rate_limit` answers. The local host limits nothing: every
 * bucket is full, its window ending an hour from now (unix seconds, as GitHub counts `reset`).
 */
export function rateLimitOverview(now: Date): Json {
  const limit = 5000;
  const bucket = { limit, used: 0, remaining: limit, reset: Math.floor(now.getTime() / 1000) + 3600 };
  return {
    resources: { core: bucket, search: { ...bucket, limit: 30, remaining: 30 }, graphql: bucket },
    rate: bucket,
  };
}

export function organization(u: HostUrls): Json {
  const api = `${u.apiUrl}/orgs/${u.org}`;
  const id = stableId(`user:${u.org}`);
  return {
    login: u.org,
    id,
    node_id: nodeId('Organization', id),
    url: api,
    repos_url: `${api}/repos`,
    events_url: `${api}/events`,
    hooks_url: `${api}/hooks`,
    issues_url: `${api}/issues`,
    members_url: `${api}/members{/member}`,
    public_members_url: `${api}/public_members{/member}`,
    avatar_url: `${u.baseUrl}/${u.org}.png`,
    description: 'Repositories of the local development host',
  };
}

export interface RepoLive {
  openPulls: number;
  pushedAt: string | null;
}

/** A superset of GitHub's `full-repository`, `repository` and `repository-webhooks`. */
export function repository(u: HostUrls, r: StoredRepo, live: RepoLive): Json {
  const api = `${u.apiUrl}/repos/${r.org}/${r.name}`;
  const html = `${u.baseUrl}/${r.org}/${r.name}`;
  const host = new URL(u.baseUrl).host;
  const owner = simpleUser(u, r.org, 'Organization');
  return {
    id: r.id,
    node_id: nodeId('Repository', r.id),
    name: r.name,
    full_name: `${r.org}/${r.name}`,
    private: false,
    owner,
    html_url: html,
    description: r.description,
    fork: false,
    url: api,
    archive_url: `${api}/{archive_format}{/ref}`,
    assignees_url: `${api}/assignees{/user}`,
    blobs_url: `${api}/git/blobs{/sha}`,
    branches_url: `${api}/branches{/branch}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    comments_url: `${api}/comments{/number}`,
    commits_url: `${api}/commits{/sha}`,
    compare_url: `${api}/compare/{base}...{head}`,
    contents_url: `${api}/contents/{+path}`,
    contributors_url: `${api}/contributors`,
    deployments_url: `${api}/deployments`,
    downloads_url: `${api}/downloads`,
    events_url: `${api}/events`,
    forks_url: `${api}/forks`,
    git_commits_url: `${api}/git/commits{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    // GitHub's git:// and ssh addresses, for shape only: this host serves git over HTTP alone.
    git_url: `git://${host}/${r.org}/${r.name}.git`,
    ssh_url: `git@${new URL(u.baseUrl).hostname}:${r.org}/${r.name}.git`,
    clone_url: `${html}.git`,
    svn_url: html,
    hooks_url: `${api}/hooks`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    issue_events_url: `${api}/issues/events{/number}`,
    issues_url: `${api}/issues{/number}`,
    keys_url: `${api}/keys{/key_id}`,
    labels_url: `${api}/labels{/name}`,
    languages_url: `${api}/languages`,
    merges_url: `${api}/merges`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    pulls_url: `${api}/pulls{/number}`,
    releases_url: `${api}/releases{/id}`,
    stargazers_url: `${api}/stargazers`,
    statuses_url: `${api}/statuses/{sha}`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    tags_url: `${api}/tags`,
    teams_url: `${api}/teams`,
    trees_url: `${api}/git/trees{/sha}`,
    mirror_url: null,
    homepage: null,
    language: null,
    size: 0,
    default_branch: 'main',
    forks: 0,
    forks_count: 0,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    open_issues: live.openPulls,
    open_issues_count: live.openPulls,
    network_count: 0,
    subscribers_count: 0,
    is_template: false,
    topics: [],
    has_issues: false,
    has_projects: false,
    has_wiki: false,
    has_pages: false,
    has_downloads: false,
    has_discussions: false,
    archived: false,
    disabled: false,
    visibility: 'public',
    license: null,
    allow_forking: false,
    web_commit_signoff_required: false,
    allow_merge_commit: true,
    allow_squash_merge: true,
    allow_rebase_merge: false,
    allow_auto_merge: false,
    delete_branch_on_merge: false,
    permissions: { admin: true, maintain: true, push: true, triage: true, pull: true },
    organization: owner,
    pushed_at: live.pushedAt ?? r.createdAt,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}
