import type { Octokit } from '@octokit/rest';
import {
  badUpstream,
  type CommitCheck,
  type CommitChecks,
  type JsonObject,
  type PullRequestFile,
  type PullRequestInfo,
  readObject,
  readOptionalCount,
  readSha,
  readString,
} from './repo-host.ts';

/**
 * What GithubHost reads of a pull request beyond who and where: its diff stats, head commit and
 * mergeability, the checks of a commit (check runs and commit statuses, each with who set it) and
 * its files. Octokit's errors pass through; GithubHost maps them to `upstream_error`.
 */

type Details = Pick<PullRequestInfo, 'additions' | 'deletions' | 'changedFiles' | 'headSha' | 'mergeable'>;

/**
 * The diff stats, head sha and mergeability, only those the host sent (lists of pull requests
 * leave the stats and mergeability out; GitHub sends `mergeable: null` while it computes it).
 */
export function pullRequestDetails(pr: JsonObject, head: JsonObject, what: string): Details {
  const out: Details = {};
  const additions = readOptionalCount(pr, 'additions', what);
  const deletions = readOptionalCount(pr, 'deletions', what);
  const changedFiles = readOptionalCount(pr, 'changed_files', what);
  if (additions !== undefined) out.additions = additions;
  if (deletions !== undefined) out.deletions = deletions;
  if (changedFiles !== undefined) out.changedFiles = changedFiles;
  if (head.sha !== undefined) out.headSha = readSha(head, 'sha', what);
  if (pr.mergeable !== undefined) {
    if (pr.mergeable !== null && typeof pr.mergeable !== 'boolean') throw badUpstream(what);
    out.mergeable = pr.mergeable;
  }
  return out;
}

/** Check run conclusions GitHub shows as a failed check. */
const FAILED_CONCLUSIONS = new Set([
  'failure',
  'timed_out',
  'cancelled',
  'action_required',
  'startup_failure',
]);
const STATUS_STATES = new Set(['success', 'failure', 'error', 'pending']);

function readCount(o: JsonObject, key: string, what: string): number {
  const v = readOptionalCount(o, key, what);
  if (v === undefined) throw badUpstream(what);
  return v;
}

function readList(o: JsonObject, key: string, what: string): JsonObject[] {
  const v = o[key];
  if (!Array.isArray(v)) throw badUpstream(what);
  return v.map((item) => readObject(item, what));
}

/**
 * `GET .../commits/{ref}/check-runs` (first page): each run as its app's check. Only an app
 * installed on the repository can make one, so every run is the repository's integration.
 */
export function parseCheckRuns(data: unknown): CommitChecks {
  const what = 'list of check runs';
  const body = readObject(data, what);
  const runs = readList(body, 'check_runs', what);
  const checks = runs.map((run): CommitCheck => {
    const status = readString(run, 'status', what);
    const conclusion = run.conclusion ?? null;
    if (conclusion !== null && typeof conclusion !== 'string') throw badUpstream(what);
    const app = run.app === undefined || run.app === null ? null : readObject(run.app, what);
    const slug = app?.slug ?? null;
    if (slug !== null && typeof slug !== 'string') throw badUpstream(what);
    return {
      kind: 'check_run',
      name: readString(run, 'name', what),
      state:
        status !== 'completed'
          ? 'pending'
          : conclusion !== null && FAILED_CONCLUSIONS.has(conclusion)
            ? 'failure'
            : 'success',
      creator: slug ? `${slug}[bot]` : null,
      integration: true,
    };
  });
  const total = readCount(body, 'total_count', what);
  return { checks, unlistedRuns: Math.max(total - runs.length, 0) };
}

/**
 * One page of `GET .../commits/{ref}/statuses` (newest first), each with its creator: the
 * combined status does not say who set a status, this list does (`creator`, a bot for an app).
 */
export function parseStatuses(data: unknown): CommitCheck[] {
  const what = 'list of commit statuses';
  if (!Array.isArray(data)) throw badUpstream(what);
  return data.map((item): CommitCheck => {
    const s = readObject(item, what);
    const state = readString(s, 'state', what);
    if (!STATUS_STATES.has(state)) throw badUpstream(what);
    const creator = s.creator === undefined || s.creator === null ? null : readObject(s.creator, what);
    return {
      kind: 'status',
      name: readString(s, 'context', what),
      state: state === 'error' ? 'failure' : (state as CommitCheck['state']),
      creator: creator ? readString(creator, 'login', what) : null,
      integration: creator?.type === 'Bot',
    };
  });
}

/** The latest status of each context (case-insensitive, as GitHub keeps them) of a newest-first list. */
export function latestPerContext(statuses: CommitCheck[]): CommitCheck[] {
  const latest = new Map<string, CommitCheck>();
  for (const s of statuses) if (!latest.has(s.name.toLowerCase())) latest.set(s.name.toLowerCase(), s);
  return [...latest.values()];
}

const httpStatus = (err: unknown): unknown =>
  err instanceof Error && err.name === 'HttpError' ? (err as { status?: unknown }).status : undefined;

const NO_CHECK_RUNS: CommitChecks = { checks: [], unlistedRuns: 0 };
const STATUSES_PER_PAGE = 100;
/** Up to 300 statuses, newest first: a context re-posted past that many is not seen. */
const MAX_STATUS_PAGES = 3;

async function readStatuses(octokit: Octokit, owner: string, repo: string, sha: string) {
  const statuses: CommitCheck[] = [];
  for (let page = 1; page <= MAX_STATUS_PAGES; page++) {
    const res = await octokit.rest.repos.listCommitStatusesForRef({
      owner,
      repo,
      ref: sha,
      per_page: STATUSES_PER_PAGE,
      page,
    });
    const batch = parseStatuses(res.data);
    statuses.push(...batch);
    if (batch.length < STATUSES_PER_PAGE) break;
  }
  return latestPerContext(statuses);
}

/**
 * The checks of `sha` with who set each: its check runs (first page of 100; a host without the
 * Checks API answers 404, which counts as none) and the latest status of each context.
 */
export async function readChecks(
  octokit: Octokit,
  owner: string,
  repo: string,
  sha: string,
): Promise<CommitChecks> {
  const [runs, statuses] = await Promise.all([
    octokit.rest.checks.listForRef({ owner, repo, ref: sha, per_page: 100 }).then(
      (res) => parseCheckRuns(res.data),
      (err: unknown) => {
        if (httpStatus(err) === 404) return NO_CHECK_RUNS;
        throw err;
      },
    ),
    readStatuses(octokit, owner, repo, sha),
  ]);
  return { checks: [...runs.checks, ...statuses], unlistedRuns: runs.unlistedRuns };
}

/** One page of `GET .../pulls/{n}/files` as PullRequestFile (patch null when the host sent none). */
export function parsePullRequestFiles(data: unknown): PullRequestFile[] {
  const what = 'list of pull request files';
  if (!Array.isArray(data)) throw badUpstream(what);
  return data.map((item) => {
    const f = readObject(item, what);
    const patch = f.patch ?? null;
    if (patch !== null && typeof patch !== 'string') throw badUpstream(what);
    return {
      filename: readString(f, 'filename', what),
      status: readString(f, 'status', what),
      additions: readCount(f, 'additions', what),
      deletions: readCount(f, 'deletions', what),
      patch,
    };
  });
}

const FILES_PER_PAGE = 100;
const MAX_FILE_PAGES = 3;

/** The pull request's files: pages of 100, at most 3 (300 files), until a page comes back short. */
export async function readPullRequestFiles(
  octokit: Octokit,
  owner: string,
  repo: string,
  number: number,
): Promise<PullRequestFile[]> {
  const files: PullRequestFile[] = [];
  for (let page = 1; page <= MAX_FILE_PAGES; page++) {
    const res = await octokit.rest.pulls.listFiles({
      owner,
      repo,
      pull_number: number,
      per_page: FILES_PER_PAGE,
      page,
    });
    const batch = parsePullRequestFiles(res.data);
    files.push(...batch);
    if (batch.length < FILES_PER_PAGE) break;
  }
  return files;
}
