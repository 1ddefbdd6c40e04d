import { createHash } from 'node:crypto';
import {
  type ChecksSummary,
  type CommitCheck,
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
} from '../../src/infra/repo-host/repo-host.ts';
import { verifyWebhookSignature } from '../../src/infra/repo-host/webhook-signature.ts';
import { AppError } from '../../src/lib/errors.ts';

/**
 * A stand-in repository host for tests of HTTP rules (tests only). Every pull request of a
 * repository counts as open unless a test says otherwise with `setPullRequest`/`removePullRequest`.
 * Its author is whoever a test names; one no test described is claimed by its first submitter
 * (`adoptAuthor`, called by `buildTestApp`), as if that agent had opened it. A pull request's head
 * commit is a stable fake sha of its address (`fakeHeadSha`) and it is mergeable, unless a test
 * says otherwise; every commit has no checks (`setChecks`, `setCheckList`), every pull request no files
 * (`setFiles`) and two commits no difference (`setComparison`) until a test gives them some.
 */
export class FakeRepoHost implements RepoHost {
  readonly info: RepoHostInfo;
  readonly webhookSecret = 'test-webhook-secret';
  readonly created: string[] = [];
  /** Repository name -> what the host holds: its description and the founder granted on it. */
  readonly repos = new Map<string, { description: string | null; founders: string[] }>();
  private readonly prs = new Map<string, PullRequestInfo | null>();
  private readonly users = new Map<string, string>();
  private readonly checks = new Map<string, CommitCheck[]>();
  private readonly files = new Map<string, PullRequestFile[]>();
  private readonly comparisons = new Map<string, CommitComparison | null>();
  /** When set, the next ensureRepository throws it (then clears). */
  failNextRepository: Error | null = null;
  /** Every merge the service asked for, in order (also refused ones). */
  readonly merges: { owner: string; repo: string; number: number; sha: string | null }[] = [];
  /** When set, the next mergePullRequest throws it (then clears); `mergeAfterFailure` merges first. */
  failNextMerge: Error | null = null;
  mergeAfterFailure = false;
  /** Runs once a merge is done and before it is answered: a test delivers the host's webhook here. */
  onMerged: (() => Promise<unknown>) | null = null;

  constructor(opts: { kind?: RepoHostInfo['kind'] } = {}) {
    this.info = { kind: opts.kind ?? 'local', apiUrl: 'http://127.0.0.1:9/api/v3', org: 'bounty-org' };
  }

  /** Answers unless a test makes it fail (readiness). */
  async ping(): Promise<void> {
    if (this.down) throw this.down;
  }

  /** When set, `ping` throws it: the host is down. */
  down: Error | null = null;

  /** The same rule as GithubHost: an existing repository is adopted only with the project's mark. */
  async ensureRepository(name: string, opts: EnsureRepositoryOptions): Promise<HostedRepository> {
    if (this.failNextRepository) {
      const err = this.failNextRepository;
      this.failNextRepository = null;
      throw err;
    }
    const existing = this.repos.get(name);
    const fullName = `${this.info.org}/${name}`;
    if (existing && !markedFor(existing.description, opts.projectId)) throw foreignRepository(fullName);
    const repo = existing ?? { description: opts.description, founders: [] };
    if (!existing) {
      this.repos.set(name, repo);
      this.created.push(name);
    }
    if (opts.founderLogin && !repo.founders.includes(opts.founderLogin))
      repo.founders.push(opts.founderLogin);
    const htmlUrl = `http://127.0.0.1:9/${fullName}`;
    return {
      fullName,
      htmlUrl,
      cloneUrl: `${htmlUrl}.git`,
      created: !existing,
      description: repo.description,
    };
  }

  /** A repository someone else made beforehand (not through the marketplace). */
  addForeignRepository(name: string, description: string | null): void {
    this.repos.set(name, { description, founders: [] });
  }

  setPullRequest(url: string, pr: Partial<PullRequestInfo>): void {
    const number = Number(url.split('/').pop());
    this.prs.set(url, {
      number,
      state: 'open',
      merged: false,
      htmlUrl: url,
      headRef: 'work',
      title: 'Work',
      authorLogin: 'author',
      mergedByLogin: null,
      headSha: fakeHeadSha(url),
      mergeable: true,
      ...pr,
    });
  }

  /** Opens a pull request as the agent whose key this is (the built-in host's way): numbered in turn. */
  async openPullRequestAs(credential: string, owner: string, repo: string, pr: NewPullRequest) {
    const number = [...this.prs.keys()].filter((u) => u.includes(`/${owner}/${repo}/pull/`)).length + 1;
    const url = `http://127.0.0.1:9/${owner}/${repo}/pull/${number}`;
    this.setPullRequest(url, {
      title: pr.title,
      headRef: pr.head,
      authorLogin: this.users.get(credential) ?? 'author',
    });
    return this.prs.get(url) as PullRequestInfo;
  }

  removePullRequest(url: string): void {
    this.prs.set(url, null);
  }

  /** A pull request no test described becomes `login`'s, as if that agent had opened it. */
  adoptAuthor(url: string, login: string): void {
    const canonical = url.trim().replace(/\/+$/, '');
    if (!/\/pull\/\d+$/.test(canonical) || this.find(canonical) !== undefined) return;
    this.setPullRequest(canonical, { authorLogin: login });
  }

  private find(suffixOrUrl: string): string | undefined {
    const tail = suffixOrUrl.replace(/^https?:\/\/[^/]+/, '').toLowerCase();
    return [...this.prs.keys()].find((u) => u.toLowerCase().endsWith(tail));
  }

  async getPullRequest(owner: string, repo: string, number: number): Promise<PullRequestInfo | null> {
    const key = this.find(`/${owner}/${repo}/pull/${number}`);
    if (key !== undefined) return this.prs.get(key) ?? null;
    return {
      number,
      state: 'open',
      merged: false,
      htmlUrl: '',
      headRef: 'work',
      title: 'Work',
      authorLogin: 'author',
      mergedByLogin: null,
      headSha: fakeHeadSha(`/${owner}/${repo}/pull/${number}`),
      mergeable: true,
    };
  }

  /**
   * From now on `sha` has checks that sum up to `summary`, all check runs of the repository's
   * integrations (which every report counts): `failed` failed ones, one pending while the summary
   * is pending, the rest passed.
   */
  setChecks(sha: string, summary: ChecksSummary): void {
    const state = (i: number): CommitCheck['state'] =>
      i < summary.failed
        ? 'failure'
        : summary.state === 'pending' && i === summary.failed
          ? 'pending'
          : 'success';
    this.setCheckList(
      sha,
      Array.from({ length: summary.total }, (_, i) => ({
        kind: 'check_run',
        name: `ci-${i + 1}`,
        state: state(i),
        creator: 'ci-app[bot]',
        integration: true,
      })),
    );
  }

  /** What `getChecks(…, sha)` answers from now on: these checks, with who set each. */
  setCheckList(sha: string, checks: CommitCheck[]): void {
    this.checks.set(sha, checks);
  }

  async getChecks(_owner: string, _repo: string, sha: string): Promise<CommitChecks> {
    return { checks: (this.checks.get(sha) ?? []).map((c) => ({ ...c })), unlistedRuns: 0 };
  }

  /** What `listPullRequestFiles(owner, repo, number)` answers from now on. */
  setFiles(owner: string, repo: string, number: number, files: PullRequestFile[]): void {
    this.files.set(`${owner}/${repo}#${number}`.toLowerCase(), files);
  }

  async listPullRequestFiles(owner: string, repo: string, number: number): Promise<PullRequestFile[]> {
    return (this.files.get(`${owner}/${repo}#${number}`.toLowerCase()) ?? []).map((f) => ({ ...f }));
  }

  /** What `compareCommits(owner, repo, base, head)` answers from now on; null: no such commit. */
  setComparison(owner: string, repo: string, base: string, head: string, c: CommitComparison | null): void {
    this.comparisons.set(`${owner}/${repo}/${base}...${head}`.toLowerCase(), c);
  }

  /** What a test set, else the two commits are the same: no commits, no files. */
  async compareCommits(owner: string, repo: string, base: string, head: string) {
    const key = `${owner}/${repo}/${base}...${head}`.toLowerCase();
    const c = this.comparisons.has(key)
      ? this.comparisons.get(key)
      : { totalCommits: 0, commits: [], files: [] };
    return c ? structuredClone(c) : null;
  }

  /** `GET /user` answers `login` for this token; any other token is refused. */
  setUser(token: string, login: string): void {
    this.users.set(token, login);
  }

  async userLogin(token: string): Promise<string | null> {
    return this.users.get(token) ?? null;
  }

  /** GithubHost's rules: refused unless open, mergeable and at `sha`; a merged one is done. */
  async mergePullRequest(owner: string, repo: string, number: number, opts: { sha: string | null }) {
    this.merges.push({ owner, repo, number, sha: opts.sha });
    const pr = await this.getPullRequest(owner, repo, number);
    const url =
      this.find(`/${owner}/${repo}/pull/${number}`) ?? `http://127.0.0.1:9/${owner}/${repo}/pull/${number}`;
    const fail = this.failNextMerge;
    this.failNextMerge = null;
    if (fail && !this.mergeAfterFailure) throw fail;
    if (pr?.merged) {
      if (fail) throw fail;
      return;
    }
    const refused = !pr
      ? 'Not Found'
      : pr.state !== 'open' || pr.mergeable === false
        ? 'Pull Request is not mergeable'
        : opts.sha !== null && opts.sha !== pr.headSha
          ? 'Head branch was modified. Review and try the merge again.'
          : null;
    if (refused)
      throw new AppError(
        'not_mergeable',
        `The repository host could not merge the pull request: ${refused}.`,
      );
    this.setPullRequest(url, { ...pr, state: 'closed', merged: true, mergedByLogin: 'platform-bot' });
    if (this.onMerged) await this.onMerged();
    if (fail) throw fail;
  }

  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): boolean {
    return verifyWebhookSignature(this.webhookSecret, rawBody, signatureHeader);
  }
}

/** The fake's head commit of a pull request: 40 hex digits, the same for the same address. */
export const fakeHeadSha = (prUrl: string): string =>
  createHash('sha1')
    .update(prUrl.replace(/^https?:\/\/[^/]+/, '').toLowerCase())
    .digest('hex');
