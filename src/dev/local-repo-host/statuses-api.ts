import { type Actor, maintains, sameLogin } from './auth.ts';
import { combinedStatus, status, statusEvent } from './commit-shapes.ts';
import { FULL_SHA } from './git.ts';
import { pusherOf } from './pushers.ts';
import { type ApiResponse, type Body, forbidden, notFound, paging, validationFailed } from './responses.ts';
import { type StoredRepo, type StoredStatus, stableId } from './store.ts';
import type { Views } from './views.ts';
import type { WebhookSender } from './webhooks.ts';

const STATES = ['pending', 'success', 'failure', 'error'] as const;
/** GitHub's limit of statuses per commit and context. */
const MAX_PER_CONTEXT = 1000;
const MAX_CONTEXT = 255;
const MAX_DESCRIPTION = 1024;
const MAX_URL = 2048;

const invalid = (field: string, code: 'missing_field' | 'invalid' = 'invalid') =>
  validationFailed([{ resource: 'Status', code, field }]);
const noCommit = (sha: string) =>
  validationFailed(
    [{ resource: 'Status', code: 'custom', field: 'sha', message: `No commit found for SHA: ${sha}` }],
    `No commit found for SHA: ${sha}`,
  );
const notAllowed = () =>
  forbidden(
    "Only the author of an open pull request whose head is this commit and who pushed it, or the project's founder, may set its statuses.",
  );
const contextTaken = (context: string, owner: string) =>
  forbidden(
    `The context "${context}" on this repository belongs to ${owner}, who set it first; set your statuses under a context of your own.`,
  );

/**
 * Whom a context (lower-cased) belongs to: as recorded, or in records from before contexts were
 * recorded, the creator of its first status.
 */
function contextOwner(repo: StoredRepo, context: string): string | null {
  const recorded = repo.contexts?.find((c) => c.context === context);
  if (recorded) return recorded.login;
  return repo.statuses?.find((s) => s.context.toLowerCase() === context)?.creatorLogin ?? null;
}

/** Makes `login` the context's owner. */
function claimContext(repo: StoredRepo, context: string, login: string): void {
  repo.contexts = [...(repo.contexts ?? []).filter((c) => c.context !== context), { context, login }];
}

const isResponse = (o: StoredStatus | ApiResponse): o is ApiResponse => 'status' in o;

const isHttpUrl = (v: string) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol);

/** What a status post asks for, or the 422 that refuses it. */
function readStatus(
  b: Body,
): Pick<StoredStatus, 'state' | 'context' | 'description' | 'targetUrl'> | ApiResponse {
  if (b.state === undefined) return invalid('state', 'missing_field');
  const state = STATES.find((s) => s === b.state);
  if (!state) return invalid('state');
  const context = b.context ?? 'default';
  if (typeof context !== 'string' || context.trim() === '' || context.length > MAX_CONTEXT)
    return invalid('context');
  const description = b.description ?? null;
  if (description !== null && (typeof description !== 'string' || description.length > MAX_DESCRIPTION))
    return invalid('description');
  // Shown as a link on the pull request's page: http(s) only, never `javascript:`.
  const targetUrl = b.target_url === '' ? null : (b.target_url ?? null);
  if (
    targetUrl !== null &&
    (typeof targetUrl !== 'string' || targetUrl.length > MAX_URL || !isHttpUrl(targetUrl))
  )
    return invalid('target_url');
  return { state, context: context.trim(), description, targetUrl };
}

/**
 * Commit statuses as GitHub keeps them, each with its `creator`: `POST .../statuses/{sha}` (the
 * author of an open pull request whose head is that commit and who pushed it, or the founder;
 * a context is its first setter's), `GET .../commits/{ref}/statuses` (all, newest first), `GET
 * .../commits/{ref}/status` (the latest per context, combined) and an empty `GET
 * .../commits/{ref}/check-runs` (no Checks API here). Each new status is sent as a `status` webhook.
 */
export class StatusesApi {
  constructor(
    private readonly views: Views,
    private readonly webhooks: WebhookSender,
  ) {}

  private get store() {
    return this.views.store;
  }

  async create([owner = '', name = '', rawSha = '']: string[], b: Body, actor: Actor): Promise<ApiResponse> {
    const asked = readStatus(b);
    if ('status' in asked) return asked;
    const sha = rawSha.toLowerCase();
    const git = this.store.git(owner, name);
    const outcome = await this.store.update(
      owner,
      name,
      async (repo): Promise<StoredStatus | ApiResponse> => {
        if (!FULL_SHA.test(sha) || !(await git.commitSha(sha))) return noCommit(rawSha);
        if (!(await this.mayPost(repo, actor, sha))) return notAllowed();
        const context = asked.context.toLowerCase();
        // A context is its first setter's: nobody else speaks under the name of the founder's CI.
        // The founder may take any, so that a contributor cannot squat that name beforehand.
        const owner = contextOwner(repo, context);
        if (owner !== null && !sameLogin(owner, actor.login) && !maintains(repo, actor))
          return contextTaken(asked.context, owner);
        if (!sameLogin(owner, actor.login)) claimContext(repo, context, actor.login);
        repo.statuses ??= [];
        const statuses = repo.statuses;
        if (
          statuses.filter((s) => s.sha === sha && s.context.toLowerCase() === context).length >=
          MAX_PER_CONTEXT
        )
          return validationFailed([
            {
              resource: 'Status',
              code: 'custom',
              message: 'This SHA and context has reached the maximum number of statuses.',
            },
          ]);
        const seq = statuses.length + 1;
        const stored: StoredStatus = {
          id: stableId(`status:${repo.id}#${seq}:${sha}`),
          sha,
          ...asked,
          creatorLogin: actor.login,
          createdAt: new Date().toISOString(),
        };
        statuses.push(stored);
        return stored;
      },
      (o) => !isResponse(o),
    );
    if (!outcome) return notFound();
    if (isResponse(outcome)) return outcome;
    const stored = outcome;
    const repo = await this.store.get(owner, name);
    if (!repo) return notFound();
    this.webhooks.send('status', async () =>
      statusEvent(
        this.views.urls,
        repo,
        stored,
        await git.commitInfo(sha),
        await git.branchesContaining(sha, 10),
        await this.views.repo(repo),
      ),
    );
    const body = status(this.views.urls, repo, stored);
    return { status: 201, body, headers: { location: String(body.url) } };
  }

  /**
   * The founder (or the platform), or the author of an open pull request whose head is `sha` and
   * who pushed it: a branch pointed at another agent's head commit gives no say over its statuses.
   */
  private async mayPost(repo: StoredRepo, actor: Actor, sha: string): Promise<boolean> {
    if (maintains(repo, actor)) return true;
    if (!sameLogin(pusherOf(repo, sha), actor.login)) return false;
    const mine = repo.pulls.filter((p) => p.state === 'open' && sameLogin(p.authorLogin, actor.login));
    if (mine.length === 0) return false;
    const branches = await this.store.git(repo.org, repo.name).branches();
    return mine.some((p) => branches.get(p.head) === sha);
  }

  async combined([owner = '', name = '', ref = '']: string[], q: URLSearchParams): Promise<ApiResponse> {
    const repo = await this.store.get(owner, name);
    const sha = repo ? await this.resolve(repo, ref) : null;
    if (!repo || !sha) return notFound();
    const body = combinedStatus(this.views.urls, repo, sha, await this.views.repo(repo), paging(q));
    return { status: 200, body };
  }

  /** `GET .../commits/{ref}/statuses`: every status of the commit, newest first, with its creator. */
  async list([owner = '', name = '', ref = '']: string[], q: URLSearchParams): Promise<ApiResponse> {
    const repo = await this.store.get(owner, name);
    const sha = repo ? await this.resolve(repo, ref) : null;
    if (!repo || !sha) return notFound();
    const { from, perPage } = paging(q);
    const mine = (repo.statuses ?? []).filter((s) => s.sha === sha).reverse();
    const body = mine.slice(from, from + perPage).map((s) => status(this.views.urls, repo, s));
    return { status: 200, body };
  }

  /** No GitHub App runs here: every commit has no check runs. */
  async checkRuns([owner = '', name = '', ref = '']: string[]): Promise<ApiResponse> {
    const repo = await this.store.get(owner, name);
    const sha = repo ? await this.resolve(repo, ref) : null;
    if (!repo || !sha) return notFound();
    return { status: 200, body: { total_count: 0, check_runs: [] } };
  }

  /** A ref as these endpoints take it: a full commit sha, or a branch name. */
  private async resolve(repo: StoredRepo, ref: string): Promise<string | null> {
    const git = this.store.git(repo.org, repo.name);
    if (FULL_SHA.test(ref.toLowerCase())) {
      const sha = await git.commitSha(ref.toLowerCase());
      if (sha) return sha;
    }
    return ref.startsWith('-') ? null : git.branchSha(ref);
  }
}
