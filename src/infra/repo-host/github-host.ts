import { Octokit } from '@octokit/rest';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { readChecks, readPullRequestFiles } from './github-checks.ts';
import { readComparison } from './github-compare.ts';
import {
  isOctokitError,
  type OctokitError,
  parsePullRequest,
  refusedMerge,
  refusedPullRequest,
} from './github-pulls.ts';
import {
  badUpstream,
  type CommitChecks,
  type CommitComparison,
  type EnsureRepositoryOptions,
  foreignRepository,
  type HostedRepository,
  markedFor,
  type NewPullRequest,
  type PullRequestFile,
  type PullRequestInfo,
  type RepoHost,
  type RepoHostInfo,
  readHttpUrl,
  readObject,
  readString,
} from './repo-host.ts';
import { verifyWebhookSignature } from './webhook-signature.ts';

export interface GithubHostOptions {
  kind: RepoHostInfo['kind'];
  /** GITHUB_API_URL: `https://api.github.com`, a GHES `/api/v3`, or the local host's `apiUrl`. */
  apiUrl: string;
  /** GITHUB_ORG */
  org: string;
  /** GITHUB_TOKEN, or the local host's platform token; null only in tests of reads. */
  token: string | null;
  /** GITHUB_WEBHOOK_SECRET */
  webhookSecret: string;
  log?: FastifyBaseLogger;
  /** Per request; a host that hangs must not hold an activation forever. */
  requestTimeoutMs?: number;
}

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

/**
 * GitHub Enterprise Server without rate limits answers `GET /rate_limit` with 404 and a message
 * saying so ("Rate limiting is not enabled.", formerly "No rate limit for white listed users").
 */
function saysNoRateLimit(err: OctokitError): boolean {
  const message = (err.response?.data as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && /rate limit/i.test(message);
}

function parseRepository(data: unknown, created: boolean): HostedRepository {
  const what = 'repository';
  const repo = readObject(data, what);
  const description = repo.description ?? null;
  if (description !== null && typeof description !== 'string') throw badUpstream(what);
  return {
    fullName: readString(repo, 'full_name', what),
    htmlUrl: readHttpUrl(repo, 'html_url', what),
    cloneUrl: readHttpUrl(repo, 'clone_url', what),
    created,
    description,
  };
}

/** The repository host adapter: Octokit against GitHub's REST API or anything speaking its subset. */
export class GithubHost implements RepoHost {
  readonly info: RepoHostInfo;
  private readonly octokit: Octokit;
  private readonly probeClient: Octokit;

  constructor(private readonly opts: GithubHostOptions) {
    this.info = { kind: opts.kind, apiUrl: opts.apiUrl.replace(/\/+$/, ''), org: opts.org };
    this.octokit = this.client(opts.token);
    this.probeClient = this.client(opts.token, { quiet: true });
  }

  /**
   * An Octokit on the host's REST base with one credential (the platform's, or a user's). Octokit
   * logs each failed request as an error; `quiet` drops those lines for callers that report the
   * failure themselves.
   */
  private client(token: string | null, { quiet = false } = {}): Octokit {
    const timeoutMs = this.opts.requestTimeoutMs ?? 15_000;
    const log = this.opts.log;
    return new Octokit({
      baseUrl: this.info.apiUrl,
      ...(token ? { auth: token } : {}),
      userAgent: 'bounty-marketplace',
      request: {
        fetch: (url: string | URL, init?: RequestInit) =>
          fetch(url, { ...init, signal: init?.signal ?? AbortSignal.timeout(timeoutMs) }),
      },
      log: {
        debug: () => {},
        info: () => {},
        warn: (message: string) => log?.warn({ repoHost: this.info.apiUrl }, message),
        error: quiet ? () => {} : (message: string) => log?.error({ repoHost: this.info.apiUrl }, message),
      },
    });
  }

  /**
   * `GET /rate_limit`: GitHub does not count it against the rate limit, and the built-in local host
   * serves it too. The host is ready when it answers 2xx, or 404 saying it has no rate limits (GitHub
   * Enterprise Server with rate limiting off). Anything else fails: no answer, a timeout, a 5xx,
   * refused credentials (every call of the service would fail too), or a 404 of a base URL that is
   * not GitHub's API. The probe's own client logs nothing: a failure is the readiness check's to
   * report (one warning naming the dependency), and a healthy probe logs no line at all.
   */
  async ping(): Promise<void> {
    try {
      await this.probeClient.request('GET /rate_limit');
    } catch (err) {
      if (isOctokitError(err) && err.status === 404 && saysNoRateLimit(err)) return;
      throw upstream('answer', err);
    }
  }

  async ensureRepository(name: string, opts: EnsureRepositoryOptions): Promise<HostedRepository> {
    const repository = await this.createOrFind(name, opts.description);
    if (!repository.created && !markedFor(repository.description, opts.projectId))
      throw foreignRepository(repository.fullName);
    if (opts.founderLogin) await this.grantFounder(name, opts.founderLogin);
    return repository;
  }

  private async createOrFind(name: string, description: string): Promise<HostedRepository> {
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

  /**
   * `maintain` lets the founder merge and push to the default branch, not delete the repository.
   * Idempotent; on GitHub a user who is not yet a collaborator gets an invitation to accept.
   */
  private async grantFounder(name: string, login: string): Promise<void> {
    try {
      await this.octokit.rest.repos.addCollaborator({
        owner: this.info.org,
        repo: name,
        username: login,
        permission: 'maintain',
      });
    } catch (err) {
      throw upstream("grant the founder's access to the repository", err);
    }
  }

  async userLogin(token: string): Promise<string | null> {
    try {
      const res = await this.client(token).rest.users.getAuthenticated();
      return readString(readObject(res.data, 'user'), 'login', 'user');
    } catch (err) {
      // 401: a bad or expired token; 403: a token without the right to read its own user.
      if (isOctokitError(err) && (err.status === 401 || err.status === 403)) return null;
      throw upstream('check the token', err);
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

  /** Check runs and the latest status per context of `sha`, with who set each (github-checks.ts). */
  async getChecks(owner: string, repo: string, sha: string): Promise<CommitChecks> {
    try {
      return await readChecks(this.octokit, owner, repo, sha);
    } catch (err) {
      throw upstream('read the checks of the commit', err);
    }
  }

  async listPullRequestFiles(owner: string, repo: string, number: number): Promise<PullRequestFile[]> {
    try {
      return await readPullRequestFiles(this.octokit, owner, repo, number);
    } catch (err) {
      throw upstream("list the pull request's files", err);
    }
  }

  async compareCommits(
    owner: string,
    repo: string,
    base: string,
    head: string,
  ): Promise<CommitComparison | null> {
    try {
      return await readComparison(this.octokit, owner, repo, base, head);
    } catch (err) {
      // No such commit (a force-push the host collected) or repository.
      if (isOctokitError(err) && err.status === 404) return null;
      throw upstream('compare the commits', err);
    }
  }

  async openPullRequestAs(
    credential: string,
    owner: string,
    repo: string,
    pr: NewPullRequest,
  ): Promise<PullRequestInfo> {
    try {
      const res = await this.client(credential).rest.pulls.create({ owner, repo, ...pr });
      return parsePullRequest(res.data);
    } catch (err) {
      throw refusedPullRequest(err) ?? upstream('open the pull request', err);
    }
  }

  async mergePullRequest(owner: string, repo: string, number: number, opts: { sha: string | null }) {
    try {
      const sha = opts.sha ?? undefined;
      await this.octokit.rest.pulls.merge({ owner, repo, pull_number: number, sha, merge_method: 'merge' });
    } catch (err) {
      const refused = refusedMerge(err);
      if (!refused) throw upstream('merge the pull request', err);
      // Merged already (the answer to an earlier try was lost): done.
      if ((await this.getPullRequest(owner, repo, number))?.merged) return;
      throw refused;
    }
  }

  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): boolean {
    return verifyWebhookSignature(this.opts.webhookSecret, rawBody, signatureHeader);
  }
}
