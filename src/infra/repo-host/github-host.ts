import { Octokit } from '@octokit/rest';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import {
  badUpstream,
  type HostedRepository,
  type JsonObject,
  type PullRequestInfo,
  type RepoHost,
  type RepoHostInfo,
  readHttpUrl,
  readObject,
  readOptionalBoolean,
  readPositiveInt,
  readString,
} from './repo-host.ts';
import { verifyWebhookSignature } from './webhook-signature.ts';

export interface GithubHostOptions {
  kind: RepoHostInfo['kind'];
  /** GITHUB_API_URL: `https://api.github.com`, a GHES `/api/v3`, or the local host's `apiUrl`. */
  apiUrl: string;
  /** GITHUB_ORG */
  org: string;
  /** GITHUB_TOKEN; null for the local host, which takes calls without credentials. */
  token: string | null;
  /** GITHUB_WEBHOOK_SECRET */
  webhookSecret: string;
  log?: FastifyBaseLogger;
  /** Per request; a host that hangs must not hold an activation forever. */
  requestTimeoutMs?: number;
}

interface OctokitError {
  status: number;
  response?: { data?: unknown };
}

const isOctokitError = (err: unknown): err is OctokitError =>
  err instanceof Error &&
  err.name === 'HttpError' &&
  typeof (err as { status?: unknown }).status === 'number';

/** A 502 with a short, safe message; the full error stays on `cause` for the log. */
function upstream(what: string, err: unknown): AppError {
  if (err instanceof AppError) return err;
  const answer =
    isOctokitError(err) && err.response
      ? `it answered HTTP ${err.status}`
      : 'it could not be reached or timed out';
  const appErr = new AppError('upstream_error', `The repository host failed to ${what}: ${answer}.`);
  (appErr as { cause?: unknown }).cause = err;
  return appErr;
}

/** GitHub's answer when the name is taken: 422 with an error saying "name already exists". */
function nameAlreadyExists(err: unknown): boolean {
  if (!isOctokitError(err) || err.status !== 422) return false;
  const data = err.response?.data as { errors?: unknown } | undefined;
  return (
    Array.isArray(data?.errors) &&
    data.errors.some((e) => /already exists/i.test(String((e as { message?: unknown })?.message ?? '')))
  );
}

function parseRepository(data: unknown, created: boolean): HostedRepository {
  const what = 'repository';
  const repo = readObject(data, what);
  return {
    fullName: readString(repo, 'full_name', what),
    htmlUrl: readHttpUrl(repo, 'html_url', what),
    cloneUrl: readHttpUrl(repo, 'clone_url', what),
    created,
  };
}

function parsePullRequest(data: unknown): PullRequestInfo {
  const what = 'pull request';
  const pr = readObject(data, what);
  const state = readString(pr, 'state', what);
  if (state !== 'open' && state !== 'closed') throw badUpstream(what);
  const head: JsonObject = readObject(pr.head, what);
  const mergedBy =
    pr.merged_by === null || pr.merged_by === undefined ? null : readObject(pr.merged_by, what);
  return {
    number: readPositiveInt(pr, 'number', what),
    state,
    merged: readOptionalBoolean(pr, 'merged', what),
    htmlUrl: readHttpUrl(pr, 'html_url', what),
    headRef: readString(head, 'ref', what),
    title: readString(pr, 'title', what),
    authorLogin: readString(readObject(pr.user, what), 'login', what),
    mergedByLogin: mergedBy ? readString(mergedBy, 'login', what) : null,
  };
}

/** The repository host adapter: Octokit against GitHub's REST API or anything speaking its subset. */
export class GithubHost implements RepoHost {
  readonly info: RepoHostInfo;
  private readonly octokit: Octokit;

  constructor(private readonly opts: GithubHostOptions) {
    this.info = { kind: opts.kind, apiUrl: opts.apiUrl.replace(/\/+$/, ''), org: opts.org };
    const timeoutMs = opts.requestTimeoutMs ?? 15_000;
    const log = opts.log;
    this.octokit = new Octokit({
      baseUrl: this.info.apiUrl,
      ...(opts.token ? { auth: opts.token } : {}),
      userAgent: 'bounty-marketplace',
      request: {
        fetch: (url: string | URL, init?: RequestInit) =>
          fetch(url, { ...init, signal: init?.signal ?? AbortSignal.timeout(timeoutMs) }),
      },
      log: {
        debug: () => {},
        info: () => {},
        warn: (message: string) => log?.warn({ repoHost: this.info.apiUrl }, message),
        error: (message: string) => log?.error({ repoHost: this.info.apiUrl }, message),
      },
    });
  }

  async ensureRepository(name: string, description: string): Promise<HostedRepository> {
    const org = this.info.org;
    try {
      const res = await this.octokit.rest.repos.createInOrg({
        org,
        name,
        description,
        auto_init: true,
        private: false,
      });
      return parseRepository(res.data, true);
    } catch (err) {
      if (!nameAlreadyExists(err)) throw upstream('create the repository', err);
    }
    try {
      const res = await this.octokit.rest.repos.get({ owner: org, repo: name });
      return parseRepository(res.data, false);
    } catch (err) {
      throw upstream('read the existing repository', err);
    }
  }

  async getPullRequest(owner: string, repo: string, number: number): Promise<PullRequestInfo | null> {
    try {
      const res = await this.octokit.rest.pulls.get({ owner, repo, pull_number: number });
      return parsePullRequest(res.data);
    } catch (err) {
      if (isOctokitError(err) && err.status === 404) return null;
      throw upstream('read the pull request', err);
    }
  }

  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): boolean {
    return verifyWebhookSignature(this.opts.webhookSecret, rawBody, signatureHeader);
  }
}
