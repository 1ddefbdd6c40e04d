/**
 * The repository host's webhook deliveries as the marketplace reads them (after the signature
 * check): a pull request's changes, and a commit's checks.
 */
import {
  badUpstream,
  type JsonObject,
  readHttpUrl,
  readObject,
  readOptionalBoolean,
  readPositiveInt,
  readSha,
  readString,
} from './repo-host.ts';

/** What the marketplace reads from a `pull_request` webhook delivery. */
export interface PullRequestEvent {
  action: string;
  number: number;
  merged: boolean;
  htmlUrl: string;
  /** `owner/repo` */
  repositoryFullName: string;
  /** The head commit (`pull_request.head.sha`), when the delivery carries it. */
  headSha?: string;
}

/** What the marketplace reads from a delivery about a commit's checks (`status`, `check_run`, ...). */
export interface CommitEvent {
  /** `owner/repo` */
  repositoryFullName: string;
  sha: string;
}

/**
 * Parses a `pull_request` webhook delivery (already signature-checked). Deliveries of other
 * actions parse too; the caller acts on `action === 'closed' && merged`.
 */
export function parsePullRequestWebhook(payload: unknown): PullRequestEvent {
  const what = 'pull_request webhook payload';
  const body = readObject(payload, what);
  const action = readString(body, 'action', what);
  const pr = readObject(body.pull_request, what);
  const number = readPositiveInt(pr, 'number', what);
  if (body.number !== undefined && body.number !== number) throw badUpstream(what);
  const head = pr.head === undefined || pr.head === null ? null : readObject(pr.head, what);
  const headSha = head && head.sha !== undefined ? readSha(head, 'sha', what) : undefined;
  return {
    action,
    number,
    merged: readOptionalBoolean(pr, 'merged', what),
    htmlUrl: readHttpUrl(pr, 'html_url', what),
    repositoryFullName: readFullName(body, what),
    ...(headSha ? { headSha } : {}),
  };
}

/** `repository.full_name` of a delivery: `owner/repo`. */
function readFullName(body: JsonObject, what: string): string {
  const fullName = readString(readObject(body.repository, what), 'full_name', what);
  if (!/^[^/\s]+\/[^/\s]+$/.test(fullName)) throw badUpstream(what);
  return fullName;
}

/** Where each commit event carries the commit: `status.sha`, `check_run.head_sha`, ... */
const COMMIT_EVENTS: Record<string, (body: JsonObject, what: string) => string> = {
  status: (body, what) => readSha(body, 'sha', what),
  check_run: (body, what) => readSha(readObject(body.check_run, what), 'head_sha', what),
  check_suite: (body, what) => readSha(readObject(body.check_suite, what), 'head_sha', what),
};

/**
 * Parses a delivery (already signature-checked) that reports on a commit's checks: `status`,
 * `check_run` or `check_suite`, whatever its action. Null for any other event; a malformed payload
 * of one of these is a bad upstream answer (502), as for `parsePullRequestWebhook`.
 */
export function parseCommitWebhook(event: string, payload: unknown): CommitEvent | null {
  const read = Object.hasOwn(COMMIT_EVENTS, event) ? COMMIT_EVENTS[event] : undefined;
  if (!read) return null;
  const what = `${event} webhook payload`;
  const body = readObject(payload, what);
  return { repositoryFullName: readFullName(body, what), sha: read(body, what) };
}
