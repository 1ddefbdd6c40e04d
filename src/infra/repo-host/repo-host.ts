import { AppError } from '../../lib/errors.ts';

export interface RepoHostInfo {
  kind: 'local' | 'github';
  /** REST base, as Octokit's `baseUrl`: `https://api.github.com` or `{local host}/api/v3`. */
  apiUrl: string;
  /** The organization that owns every project repository. */
  org: string;
}

export interface HostedRepository {
  /** `org/name` */
  fullName: string;
  /** The web address, the project's `repo_url`: `git clone {htmlUrl}` works. */
  htmlUrl: string;
  cloneUrl: string;
  /** False when this project's repository already existed (a retried activation). */
  created: boolean;
  description: string | null;
}

export interface EnsureRepositoryOptions {
  /** Must end with `projectId`: the mark by which a retry knows the repository as its own. */
  description: string;
  /**
   * An existing repository of that name is adopted only when its description ends with this id;
   * any other is refused (409 `invalid_state`), never reused, never granted to the founder.
   */
  projectId: string;
  /**
   * The founder's host login: made a collaborator with `maintain` permission (merge, push to the
   * default branch). Null while the founder has none; nobody but the platform may then merge.
   */
  founderLogin: string | null;
}

/** True when a repository's description carries the project's mark (see EnsureRepositoryOptions). */
export const markedFor = (description: string | null, projectId: string): boolean =>
  description?.trimEnd().endsWith(projectId) ?? false;

export const foreignRepository = (fullName: string): AppError =>
  new AppError(
    'invalid_state',
    `The repository host already has a repository named ${fullName} that was not created for this project; ` +
      'the service will not adopt it. Remove or rename it, then activate again.',
  );

export interface PullRequestInfo {
  number: number;
  state: 'open' | 'closed';
  merged: boolean;
  /** `{repo html_url}/pull/{number}` */
  htmlUrl: string;
  headRef: string;
  title: string;
  /** The author's host login (`user.login`). */
  authorLogin: string;
  /** Who merged it (`merged_by.login`); null while not merged or when the host does not say. */
  mergedByLogin: string | null;
  /** The diff's size, as GitHub's single pull request answer has it; absent when the host omits it. */
  additions?: number;
  deletions?: number;
  changedFiles?: number;
  /** The head commit (`head.sha`): what checks and statuses report on. */
  headSha?: string;
  /** Whether it merges cleanly into its base; null while the host is still computing it. */
  mergeable?: boolean | null;
  /** Its description (Markdown as the author wrote it); null when empty, absent when the host omits it. */
  body?: string | null;
}

/**
 * Checks summed up as GitHub shows them on a pull request: `failure` when any failed (failure,
 * error, cancelled, timed out, action required), else `pending` while any has not finished, else
 * `success`; `none` without any. Which checks are summed is the reviews module's rule.
 */
export interface ChecksSummary {
  state: 'success' | 'failure' | 'pending' | 'none';
  total: number;
  failed: number;
}

/** One check of a commit, with who set it: a check run, or the latest status of one context. */
export interface CommitCheck {
  kind: 'check_run' | 'status';
  /** The status's context, or the check run's name. */
  name: string;
  /** `failure` also for an errored status and a cancelled, timed out or action-required run. */
  state: 'success' | 'failure' | 'pending';
  /** The status's `creator.login`, or a check run's app as `{slug}[bot]`; null when the host does not say. */
  creator: string | null;
  /**
   * Set by one of the repository's own integrations: every check run (only an app installed on the
   * repository makes one) and a status whose creator is a bot account (an app, or the platform's).
   */
  integration: boolean;
}

/** The check runs and commit statuses of a commit, each with who set it. */
export interface CommitChecks {
  checks: CommitCheck[];
  /** Check runs past the first page (100), not read: apps' runs, counted as passed. */
  unlistedRuns: number;
}

/** One file of a pull request's diff (`GET /repos/{o}/{r}/pulls/{n}/files`). */
export interface PullRequestFile {
  filename: string;
  /** added, removed, modified, renamed, ... */
  status: string;
  additions: number;
  deletions: number;
  /** The unified diff hunk text; null when the host sends none (binary, or too large). */
  patch: string | null;
}

/** One commit of a comparison: its id, its author's name and its message. */
export interface ComparedCommit {
  sha: string;
  /** The git author's name; null when the host does not say. */
  authorName: string | null;
  message: string;
}

/** What changed from one commit to another (`GET /repos/{o}/{r}/compare/{base}...{head}`). */
export interface CommitComparison {
  /** Commits on head that base lacks, in all (`commits` lists at most the host's first page). */
  totalCommits: number;
  /** Those commits, oldest first, as the host lists them (GitHub: at most 250). */
  commits: ComparedCommit[];
  /** The diff from their merge base to head, file by file (GitHub: at most 300 files). */
  files: PullRequestFile[];
}

/**
 * What the marketplace needs from a repository host. `GithubHost` (Octokit) is the one
 * implementation; it talks to GitHub, or to the built-in local host through the same REST subset.
 */
export interface RepoHost {
  readonly info: RepoHostInfo;
  /**
   * Resolves when the host serves its API to the service (readiness); costs no rate limit where the
   * host has one. Logs nothing when it resolves.
   */
  ping(): Promise<void>;
  /**
   * Creates `{org}/{name}` with a README commit on `main` and grants the founder; a repeat finds
   * the repository it created (`created: false`) and grants again. Someone else's: 409.
   */
  ensureRepository(name: string, opts: EnsureRepositoryOptions): Promise<HostedRepository>;
  /** The pull request, or null when the host has no such pull request (404). */
  getPullRequest(owner: string, repo: string, number: number): Promise<PullRequestInfo | null>;
  /** The checks of a commit with who set each: its check runs and the latest status per context. */
  getChecks(owner: string, repo: string, sha: string): Promise<CommitChecks>;
  /** The pull request's files with their patches, as the host lists them (at most 300). */
  listPullRequestFiles(owner: string, repo: string, number: number): Promise<PullRequestFile[]>;
  /**
   * What changed from `base` to `head` (commit ids or branches): the commits between and the diff
   * file by file, as GitHub's compare has it; null when the host has no such commit (404).
   */
  compareCommits(owner: string, repo: string, base: string, head: string): Promise<CommitComparison | null>;
  /**
   * The login of the account a user token belongs to (`GET /user`), or null when the host refuses
   * the token. The token is used for this one call and never kept.
   */
  userLogin(token: string): Promise<string | null>;
  /** Checks `X-Hub-Signature-256` against the raw request body with the webhook secret. */
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): boolean;
  /**
   * Merges the pull request as the platform (the founder's approval with `merge`), only while its
   * head is `sha` when given, so a head pushed after the review is never merged unreviewed.
   * Resolves once it is merged, also when it already was (a retry after a lost answer). Throws 409
   * `not_mergeable` when the host refuses for a reason the pull request carries (a conflict, a
   * closed or missing pull request, a new head); 502 for anything else (the outcome is unknown).
   */
  mergePullRequest(owner: string, repo: string, number: number, opts: { sha: string | null }): Promise<void>;
  /**
   * Opens a pull request as the user whose credential this is (on the local host an agent's API
   * key), so that the user is its author. The credential is used for this one call, never kept.
   * Absent on hosts where the service never holds a user's credential.
   */
  openPullRequestAs?(
    credential: string,
    owner: string,
    repo: string,
    pr: NewPullRequest,
  ): Promise<PullRequestInfo>;
}

export interface NewPullRequest {
  title: string;
  /** The branch with the work. */
  head: string;
  /** The branch to merge into, `main` for project repositories. */
  base: string;
  body?: string;
}

// Readers for upstream JSON: anything unexpected is a bad upstream answer (502), never a guess.
export type JsonObject = Record<string, unknown>;

export const badUpstream = (what: string): AppError =>
  new AppError('upstream_error', `The repository host sent a malformed ${what}.`);

export function readObject(value: unknown, what: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badUpstream(what);
  return value as JsonObject;
}

export function readString(o: JsonObject, key: string, what: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') throw badUpstream(what);
  return v;
}

export function readPositiveInt(o: JsonObject, key: string, what: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw badUpstream(what);
  return v;
}

/** A count the host may leave out (the diff stats of a pull request): absent or null -> undefined. */
export function readOptionalCount(o: JsonObject, key: string, what: string): number | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw badUpstream(what);
  return v;
}

/** GitHub sends `merged: null` on some pull request payloads; absent or null reads as false. */
export function readOptionalBoolean(o: JsonObject, key: string, what: string): boolean {
  const v = o[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw badUpstream(what);
  return v;
}

export function readHttpUrl(o: JsonObject, key: string, what: string): string {
  const v = readString(o, key, what);
  if (!URL.canParse(v) || !/^https?:$/.test(new URL(v).protocol)) throw badUpstream(what);
  return v;
}

/** A commit's id as git names it in full: 40 hex digits (SHA-1) or 64 (SHA-256). */
export function readSha(o: JsonObject, key: string, what: string): string {
  const v = readString(o, key, what);
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(v)) throw badUpstream(what);
  return v;
}

const refuse = (): never => {
  throw new AppError('repo_host_unavailable', 'No repository host is configured for this service.');
};

/** For apps built without a repository host (benchmarks, chain-only tests): refuses, never guesses. */
export const unavailableRepoHost: RepoHost = {
  info: { kind: 'local', apiUrl: '', org: '' },
  ping: async () => refuse(),
  ensureRepository: async () => refuse(),
  getPullRequest: async () => refuse(),
  getChecks: async () => refuse(),
  listPullRequestFiles: async () => refuse(),
  compareCommits: async () => refuse(),
  mergePullRequest: async () => refuse(),
  userLogin: async () => refuse(),
  verifyWebhook: () => false,
};
