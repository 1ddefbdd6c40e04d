import type { Actor } from './auth.ts';
import { compareCommits } from './compare-api.ts';
import { publicUser, rateLimitOverview } from './github-shapes.ts';
import { PullsApi } from './pulls-api.ts';
import {
  type ApiResponse,
  type Body,
  forbidden,
  notFound,
  requiresAuthentication,
  validationFailed,
} from './responses.ts';
import { StatusesApi } from './statuses-api.ts';
import { PERMISSIONS, type Permission, validName } from './store.ts';
import { controlCharacterErrors } from './text-checks.ts';
import type { Views } from './views.ts';
import type { WebhookSender } from './webhooks.ts';

const decodeSegment = (s: string): string | null => {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
};

/** Who calls: undefined for an anonymous read (writes without credentials never get here). */
type Caller = Actor | undefined;
type Handler = (params: string[], query: URLSearchParams, body: Body, actor: Caller) => Promise<ApiResponse>;

// GitHub's login rules: alphanumerics and single hyphens, at most 39; bots end in `[bot]`.
const LOGIN = /^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\[bot\])?$/;

/** A write: the server already answers 401 to anonymous writes; this keeps the type honest. */
const authed =
  (h: (params: string[], body: Body, actor: Actor) => Promise<ApiResponse>): Handler =>
  async (params, _query, body, actor) =>
    actor ? h(params, body, actor) : requiresAuthentication();

/** Only the platform creates repositories and grants roles, as an organization's admin would. */
const platformOnly = (actor: Caller): ApiResponse | null =>
  !actor
    ? requiresAuthentication()
    : actor.platform
      ? null
      : forbidden('Only the marketplace service may manage repositories of this organization.');

/** The subset of GitHub's REST API (v3) the marketplace and a contributor need, under `/api/v3`. */
export class RestApi {
  /** Method, path, handler, and for a write the resource its validation errors name (GitHub's). */
  private readonly routes: [string, RegExp, Handler, string?][];
  private readonly startedAt = new Date().toISOString();

  constructor(
    private readonly views: Views,
    webhooks: WebhookSender,
  ) {
    const pulls = new PullsApi(views, webhooks);
    const statuses = new StatusesApi(views, webhooks);
    const seg = '([^/]+)';
    const repo = `^/repos/${seg}/${seg}`;
    // A ref may be a branch with slashes in it, sent as they are or percent-encoded.
    const ref = '(.+)';
    this.routes = [
      ['GET', /^\/user$/, async (_p, _q, _b, a) => this.user(a)],
      // What the service's readiness probe asks (GithubHost.ping), as on GitHub.
      ['GET', /^\/rate_limit$/, async () => ({ status: 200, body: rateLimitOverview(new Date()) })],
      ['POST', new RegExp(`^/orgs/${seg}/repos$`), (p, _q, b, a) => this.createRepo(p, b, a), 'Repository'],
      ['GET', new RegExp(`${repo}$`), (p) => this.getRepo(p)],
      [
        'PUT',
        new RegExp(`${repo}/collaborators/${seg}$`),
        (p, _q, b, a) => this.addCollaborator(p, b, a),
        'Repository',
      ],
      ['GET', new RegExp(`${repo}/pulls$`), (p, q) => pulls.list(p, q)],
      ['POST', new RegExp(`${repo}/pulls$`), authed((p, b, a) => pulls.create(p, b, a)), 'PullRequest'],
      ['GET', new RegExp(`${repo}/pulls/(\\d+)$`), (p) => pulls.get(p)],
      [
        'PATCH',
        new RegExp(`${repo}/pulls/(\\d+)$`),
        authed((p, b, a) => pulls.update(p, b, a)),
        'PullRequest',
      ],
      ['GET', new RegExp(`${repo}/pulls/(\\d+)/files$`), (p, q) => pulls.files(p, q)],
      ['GET', new RegExp(`${repo}/pulls/(\\d+)/merge$`), (p) => pulls.isMerged(p)],
      [
        'PUT',
        new RegExp(`${repo}/pulls/(\\d+)/merge$`),
        authed((p, b, a) => pulls.merge(p, b, a)),
        'PullRequest',
      ],
      [
        'POST',
        new RegExp(`${repo}/statuses/${seg}$`),
        authed((p, b, a) => statuses.create(p, b, a)),
        'Status',
      ],
      ['GET', new RegExp(`${repo}/commits/${ref}/status$`), (p, q) => statuses.combined(p, q)],
      ['GET', new RegExp(`${repo}/commits/${ref}/statuses$`), (p, q) => statuses.list(p, q)],
      ['GET', new RegExp(`${repo}/commits/${ref}/check-runs$`), (p) => statuses.checkRuns(p)],
      // `{base}...{head}`: branches may hold slashes.
      ['GET', new RegExp(`${repo}/compare/(.+)$`), (p) => compareCommits(views, p)],
    ];
  }

  /** `path` is the part after `/api/v3`. */
  async handle(
    method: string,
    path: string,
    query: URLSearchParams,
    body: Body,
    actor: Caller,
  ): Promise<ApiResponse> {
    for (const [m, pattern, handler, resource] of this.routes) {
      const match = pattern.exec(path);
      if (!match) continue;
      if (m !== method && !(m === 'GET' && method === 'HEAD')) continue;
      const params = match.slice(1).map(decodeSegment);
      // A segment that is not valid percent-encoding names nothing.
      if (params.includes(null)) return notFound();
      // Before any handler, for every write: text with a control character is refused whole,
      // never stored (reads have no body).
      const unprintable = controlCharacterErrors(body, resource ?? 'Request');
      if (unprintable.length > 0) return validationFailed(unprintable);
      return handler(params as string[], query, body, actor);
    }
    return notFound();
  }

  /** `GET /user`: whose credentials these are (the marketplace links an agent's login with it). */
  private user(actor: Caller): ApiResponse {
    if (!actor) return requiresAuthentication();
    return { status: 200, body: publicUser(this.views.urls, actor.login, this.startedAt) };
  }

  private async createRepo([org = '']: string[], body: Body, actor: Caller): Promise<ApiResponse> {
    const { store, urls } = this.views;
    if (org !== urls.org) return notFound();
    const denied = platformOnly(actor);
    if (denied) return denied;
    if (typeof body.name !== 'string' || body.name.trim() === '')
      return validationFailed([{ resource: 'Repository', code: 'missing_field', field: 'name' }]);
    // GitHub turns characters a repository name cannot hold into dashes.
    const name = body.name.trim().replace(/[^A-Za-z0-9._-]/g, '-');
    if (!validName(name))
      return validationFailed([{ resource: 'Repository', code: 'invalid', field: 'name' }]);
    const description = typeof body.description === 'string' ? body.description : null;
    const readme = body.auto_init === true ? `# ${name}\n${description ? `\n${description}\n` : ''}` : null;
    const { repo, created } = await store.create(org, name, description, readme);
    if (!created)
      return validationFailed(
        [
          {
            resource: 'Repository',
            code: 'custom',
            field: 'name',
            message: 'name already exists on this account',
          },
        ],
        'Repository creation failed.',
      );
    const json = await this.views.repo(repo);
    return { status: 201, body: json, headers: { location: String(json.url) } };
  }

  /**
   * `PUT .../collaborators/{username}`: grants a role at once (GitHub would invite an outside
   * user first) and answers 204, as GitHub does for an existing collaborator.
   */
  private async addCollaborator(
    [owner = '', name = '', username = '']: string[],
    body: Body,
    actor: Caller,
  ): Promise<ApiResponse> {
    const denied = platformOnly(actor);
    if (denied) return denied;
    const permission = (body.permission ?? 'push') as Permission;
    if (!PERMISSIONS.includes(permission))
      return validationFailed([{ resource: 'Repository', code: 'invalid', field: 'permission' }]);
    if (!LOGIN.test(username)) return notFound();
    const granted = await this.views.store.update(owner, name, async (repo) => {
      repo.collaborators = { ...repo.collaborators, [username.toLowerCase()]: permission };
      return true;
    });
    return granted ? { status: 204 } : notFound();
  }

  private async getRepo([owner = '', name = '']: string[]): Promise<ApiResponse> {
    const repo = await this.views.store.get(owner, name);
    return repo ? { status: 200, body: await this.views.repo(repo) } : notFound();
  }
}
