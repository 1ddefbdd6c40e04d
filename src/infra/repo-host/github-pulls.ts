import { AppError } from '../../lib/errors.ts';
import { pullRequestDetails } from './github-checks.ts';
import {
  badUpstream,
  type JsonObject,
  type PullRequestInfo,
  readHttpUrl,
  readObject,
  readOptionalBoolean,
  readPositiveInt,
  readString,
} from './repo-host.ts';

/** Pull requests on GitHub's REST API: the answer read, and the refusals a caller can fix. */

export interface OctokitError {
  status: number;
  response?: { data?: unknown };
}

export const isOctokitError = (err: unknown): err is OctokitError =>
  err instanceof Error &&
  err.name === 'HttpError' &&
  typeof (err as { status?: unknown }).status === 'number';

/**
 * The host's refusals of a pull request the caller can fix (no such branch, nothing to merge, one
 * already open, no access) as the caller's error with the host's words; null for anything else.
 */
export function refusedPullRequest(err: unknown): AppError | null {
  if (!isOctokitError(err)) return null;
  const data = (err.response?.data ?? {}) as { message?: unknown; errors?: unknown };
  const reasons = Array.isArray(data.errors)
    ? data.errors.map((e) => {
        const o = (e ?? {}) as { message?: unknown; field?: unknown; code?: unknown };
        return String(o.message ?? `${String(o.field ?? 'request')} ${String(o.code ?? 'invalid')}`);
      })
    : [];
  const said = [typeof data.message === 'string' ? data.message : '', ...reasons].filter(Boolean).join(': ');
  if (err.status === 422)
    return new AppError(
      'validation_error',
      `The repository host refused the pull request (${said.slice(0, 300)}); push the head branch first and make sure it has commits that base does not.`,
    );
  if (err.status === 404) return new AppError('not_found', 'The repository host has no such repository.');
  if (err.status === 403)
    return new AppError('forbidden', `The repository host refused: ${said.slice(0, 300)}.`);
  return null;
}

/**
 * The host's refusal of a merge the pull request explains (GitHub: 405 not mergeable, 409 head
 * modified, 422 invalid, 404 gone) as 409 `not_mergeable` with the host's words; null otherwise.
 */
export function refusedMerge(err: unknown): AppError | null {
  if (!isOctokitError(err) || ![404, 405, 409, 422].includes(err.status)) return null;
  const data = (err.response?.data ?? {}) as { message?: unknown };
  const said = typeof data.message === 'string' && data.message ? `: ${data.message.slice(0, 300)}` : '';
  return new AppError(
    'not_mergeable',
    `The repository host could not merge the pull request${said}. Nothing was paid; update the pull request (or request changes) and approve again.`,
  );
}

export function parsePullRequest(data: unknown): PullRequestInfo {
  const what = 'pull request';
  const pr = readObject(data, what);
  const state = readString(pr, 'state', what);
  if (state !== 'open' && state !== 'closed') throw badUpstream(what);
  const head: JsonObject = readObject(pr.head, what);
  const mergedBy =
    pr.merged_by === null || pr.merged_by === undefined ? null : readObject(pr.merged_by, what);
  if (pr.body !== undefined && pr.body !== null && typeof pr.body !== 'string') throw badUpstream(what);
  return {
    number: readPositiveInt(pr, 'number', what),
    state,
    merged: readOptionalBoolean(pr, 'merged', what),
    htmlUrl: readHttpUrl(pr, 'html_url', what),
    headRef: readString(head, 'ref', what),
    title: readString(pr, 'title', what),
    authorLogin: readString(readObject(pr.user, what), 'login', what),
    mergedByLogin: mergedBy ? readString(mergedBy, 'login', what) : null,
    ...pullRequestDetails(pr, head, what),
    // GitHub sends null for an empty description; an empty string reads the same.
    ...(pr.body === undefined ? {} : { body: pr.body || null }),
  };
}
