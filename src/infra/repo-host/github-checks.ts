import type { Octokit } from '@octokit/rest';
import {
  badUpstream,
  type ChecksSummary,
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
 * mergeability, the checks of a commit (check runs and commit statuses summed as GitHub shows
 * them) and its files. Octokit's errors pass through; GithubHost maps them to `upstream_error`.
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

interface Tally {
  total: number;
  failed: number;
  pending: boolean;
}

/** `GET .../commits/{ref}/check-runs` (first page): how many, how many failed, any unfinished. */
export function tallyCheckRuns(data: unknown): Tally {
  const what = 'list of check runs';
  const body = readObject(data, what);
  const runs = readList(body, 'check_runs', what);
  let failed = 0;
  let pending = false;
  for (const run of runs) {
    const status = readString(run, 'status', what);
    const conclusion = run.conclusion ?? null;
    if (conclusion !== null && typeof conclusion !== 'string') throw badUpstream(what);
    if (status !== 'completed') pending = true;
    else if (conclusion !== null && FAILED_CONCLUSIONS.has(conclusion)) failed++;
  }
  return { total: Math.max(readCount(body, 'total_count', what), runs.length), failed, pending };
}

/**
 * `GET .../commits/{ref}/status`: the latest status of each context. Its own `state` is not used:
 * GitHub says `pending` for a commit without any status, which here is no check at all.
 */
export function tallyStatuses(data: unknown): Tally {
  const what = 'combined commit status';
  const body = readObject(data, what);
  const statuses = readList(body, 'statuses', what);
  let failed = 0;
  let pending = false;
  for (const s of statuses) {
    const state = readString(s, 'state', what);
    if (!STATUS_STATES.has(state)) throw badUpstream(what);
    if (state === 'failure' || state === 'error') failed++;
    else if (state === 'pending') pending = true;
  }
  return { total: Math.max(readCount(body, 'total_count', what), statuses.length), failed, pending };
}

/** Check runs and statuses together, as a pull request's checks box sums them up. */
export function sumChecks(runs: Tally, statuses: Tally): ChecksSummary {
  const total = runs.total + statuses.total;
  const failed = runs.failed + statuses.failed;
  const state =
    failed > 0 ? 'failure' : runs.pending || statuses.pending ? 'pending' : total > 0 ? 'success' : 'none';
  return { state, total, failed };
}

const httpStatus = (err: unknown): unknown =>
  err instanceof Error && err.name === 'HttpError' ? (err as { status?: unknown }).status : undefined;

const NO_CHECK_RUNS: Tally = { total: 0, failed: 0, pending: false };

/**
 * The checks of `sha`: its check runs (first page of 100; a host without the Checks API answers
 * 404, which counts as none) and its combined commit status (up to 100 contexts).
 */
export async function readChecks(
  octokit: Octokit,
  owner: string,
  repo: string,
  sha: string,
): Promise<ChecksSummary> {
  const [runs, statuses] = await Promise.all([
    octokit.rest.checks.listForRef({ owner, repo, ref: sha, per_page: 100 }).then(
      (res) => tallyCheckRuns(res.data),
      (err: unknown) => {
        if (httpStatus(err) === 404) return NO_CHECK_RUNS;
        throw err;
      },
    ),
    octokit.rest.repos
      .getCombinedStatusForRef({ owner, repo, ref: sha, per_page: 100 })
      .then((res) => tallyStatuses(res.data)),
  ]);
  return sumChecks(runs, statuses);
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
