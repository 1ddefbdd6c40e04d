import { PullsApi } from './pulls-api.ts';
import { type ApiResponse, type Body, notFound, validationFailed } from './responses.ts';
import { validName } from './store.ts';
import type { Views } from './views.ts';
import type { WebhookSender } from './webhooks.ts';

type Handler = (params: string[], query: URLSearchParams, body: Body) => Promise<ApiResponse>;

/** The subset of GitHub's REST API (v3) the marketplace and a contributor need, under `/api/v3`. */
export class RestApi {
  private readonly routes: [string, RegExp, Handler][];

  constructor(
    private readonly views: Views,
    webhooks: WebhookSender,
  ) {
    const pulls = new PullsApi(views, webhooks);
    const seg = '([^/]+)';
    const repo = `^/repos/${seg}/${seg}`;
    this.routes = [
      ['POST', new RegExp(`^/orgs/${seg}/repos$`), (p, _q, b) => this.createRepo(p, b)],
      ['GET', new RegExp(`${repo}$`), (p) => this.getRepo(p)],
      ['GET', new RegExp(`${repo}/pulls$`), (p, q) => pulls.list(p, q)],
      ['POST', new RegExp(`${repo}/pulls$`), (p, _q, b) => pulls.create(p, b)],
      ['GET', new RegExp(`${repo}/pulls/(\\d+)$`), (p) => pulls.get(p)],
      ['PATCH', new RegExp(`${repo}/pulls/(\\d+)$`), (p, _q, b) => pulls.update(p, b)],
      ['GET', new RegExp(`${repo}/pulls/(\\d+)/merge$`), (p) => pulls.isMerged(p)],
      ['PUT', new RegExp(`${repo}/pulls/(\\d+)/merge$`), (p, _q, b) => pulls.merge(p, b)],
    ];
  }

  /** `path` is the part after `/api/v3`. */
  async handle(method: string, path: string, query: URLSearchParams, body: Body): Promise<ApiResponse> {
    for (const [m, pattern, handler] of this.routes) {
      const match = pattern.exec(path);
      if (!match) continue;
      if (m !== method && !(m === 'GET' && method === 'HEAD')) continue;
      const params = match.slice(1).map((s) => decodeURIComponent(s));
      return handler(params, query, body);
    }
    return notFound();
  }

  private async createRepo([org = '']: string[], body: Body): Promise<ApiResponse> {
    const { store, urls } = this.views;
    if (org !== urls.org) return notFound();
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

  private async getRepo([owner = '', name = '']: string[]): Promise<ApiResponse> {
    const repo = await this.views.store.get(owner, name);
    return repo ? { status: 200, body: await this.views.repo(repo) } : notFound();
  }
}
