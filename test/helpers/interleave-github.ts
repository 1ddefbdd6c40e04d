import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhook } from '../../src/infra/repo-host/webhook-signature.ts';
import { mergedPayload } from './merge-webhook.ts';

/**
 * A repository host that several service processes share (tests only): the REST subset the
 * service's GitHub adapter calls (`GET /rate_limit`, `POST /orgs/{org}/repos`, `GET /repos/{o}/{r}`,
 * `PUT .../collaborators/{login}`, `GET /user`, `GET .../pulls/{n}`), over HTTP, so two processes
 * pointed at it with GITHUB_API_URL see the same repositories and pull requests. The built-in local
 * host cannot serve two processes (each starts its own). Users are tokens the test hands out;
 * pull requests are opened and merged by the test, and merges reach the service as signed
 * `pull_request` deliveries, redelivered (same delivery id) until one is acknowledged.
 */

interface Repo {
  name: string;
  description: string | null;
  collaborators: Set<string>;
  pulls: Pull[];
}

interface Pull {
  number: number;
  author: string;
  mergedBy: string | null;
}

export interface FakeGithub {
  apiUrl: string;
  org: string;
  platformToken: string;
  webhookSecret: string;
  /** A user token whose `GET /user` answers `login`. */
  userToken(login: string): string;
  /** Opens a pull request on `{org}/{repo}` (the name of a repo_url's last segment) by `author`. */
  openPullRequest(repoUrl: string, author: string): string;
  /** Merges the pull request (once: a later merge keeps who merged first); returns who merged it. */
  merge(prUrl: string, by: string): string;
  /** Requests it answered, for the failure account. */
  served(): number;
  close(): Promise<void>;
}

export interface Delivery {
  id: string;
  attempts: { url: string; status: number | string; body: string }[];
  acknowledged: boolean;
}

const json = (res: ServerResponse, status: number, body?: unknown) => {
  res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
  res.end(body === undefined ? undefined : JSON.stringify(body));
};

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export async function startFakeGithub(org = 'bounty-org'): Promise<FakeGithub> {
  const platformToken = `platform-${randomUUID()}`;
  const webhookSecret = `secret-${randomUUID()}`;
  const repos = new Map<string, Repo>();
  const users = new Map<string, string>();
  let base = '';
  let count = 0;

  const htmlOf = (name: string) => `${base}/${org}/${name}`;
  const repoJson = (r: Repo) => ({
    id: 1,
    name: r.name,
    full_name: `${org}/${r.name}`,
    html_url: htmlOf(r.name),
    clone_url: `${htmlOf(r.name)}.git`,
    description: r.description,
    private: false,
    default_branch: 'main',
  });
  const pullJson = (r: Repo, p: Pull) => ({
    number: p.number,
    state: p.mergedBy ? 'closed' : 'open',
    merged: p.mergedBy !== null,
    html_url: `${htmlOf(r.name)}/pull/${p.number}`,
    title: `Work ${p.number}`,
    head: { ref: `work-${p.number}` },
    base: { ref: 'main' },
    user: { login: p.author },
    merged_by: p.mergedBy ? { login: p.mergedBy } : null,
  });
  const tokenOf = (req: IncomingMessage) =>
    /^(?:token|bearer)\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];

  const server: Server = createServer((req, res) => {
    count++;
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/api\/v3/, '');
      const token = tokenOf(req);
      if (req.method === 'GET' && path === '/user') {
        const login = token ? users.get(token) : undefined;
        return login
          ? json(res, 200, { login, id: 1, type: 'User' })
          : json(res, 401, { message: 'Bad credentials' });
      }
      if (token !== platformToken) return json(res, 401, { message: 'Bad credentials' });
      if (req.method === 'GET' && path === '/rate_limit') return json(res, 200, { resources: {} });
      let m = /^\/orgs\/([^/]+)\/repos$/.exec(path);
      if (req.method === 'POST' && m) {
        const body = await readBody(req);
        const name = String(body.name);
        if (repos.has(name))
          return json(res, 422, {
            message: 'Repository creation failed.',
            errors: [
              {
                resource: 'Repository',
                code: 'custom',
                field: 'name',
                message: 'name already exists on this account',
              },
            ],
          });
        const repo: Repo = {
          name,
          description: typeof body.description === 'string' ? body.description : null,
          collaborators: new Set(),
          pulls: [],
        };
        repos.set(name, repo);
        return json(res, 201, repoJson(repo));
      }
      m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
      const repo = m && m[1] === org ? repos.get(m[2] as string) : undefined;
      if (!m || !repo) return json(res, 404, { message: 'Not Found' });
      const rest = m[3] ?? '';
      if (req.method === 'GET' && rest === '') return json(res, 200, repoJson(repo));
      const collab = /^\/collaborators\/([^/]+)$/.exec(rest);
      if (req.method === 'PUT' && collab) {
        repo.collaborators.add((collab[1] as string).toLowerCase());
        return json(res, 204);
      }
      const pull = /^\/pulls\/(\d+)$/.exec(rest);
      if (req.method === 'GET' && pull) {
        const p = repo.pulls.find((x) => x.number === Number(pull[1]));
        return p ? json(res, 200, pullJson(repo, p)) : json(res, 404, { message: 'Not Found' });
      }
      return json(res, 404, { message: 'Not Found' });
    })().catch((err: unknown) => json(res, 500, { message: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const find = (prUrl: string) => {
    const m = /\/([^/]+)\/pull\/(\d+)$/.exec(prUrl);
    const repo = m ? repos.get(m[1] as string) : undefined;
    const pull = repo?.pulls.find((p) => p.number === Number(m?.[2]));
    if (!repo || !pull) throw new Error(`no pull request ${prUrl}`);
    return { repo, pull };
  };

  return {
    apiUrl: `${base}/api/v3`,
    org,
    platformToken,
    webhookSecret,
    userToken(login) {
      const token = `user-${login}-${randomUUID()}`;
      users.set(token, login);
      return token;
    },
    openPullRequest(repoUrl, author) {
      const name = repoUrl.replace(/\/+$/, '').split('/').pop() as string;
      const repo = repos.get(name);
      if (!repo) throw new Error(`no repository ${repoUrl}`);
      const pull: Pull = { number: repo.pulls.length + 1, author, mergedBy: null };
      repo.pulls.push(pull);
      return `${htmlOf(name)}/pull/${pull.number}`;
    },
    merge(prUrl, by) {
      const { pull } = find(prUrl);
      pull.mergedBy ??= by;
      return pull.mergedBy;
    },
    served: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Delivers a signed "closed, merged" `pull_request` event for `prUrl`, as the host does, to the
 * instance `target()` names at each attempt; redelivers the same delivery id until an instance
 * acknowledges it (2xx) or `attempts` run out.
 */
export async function deliverMergeWebhook(
  gh: FakeGithub,
  prUrl: string,
  target: (attempt: number) => string,
  opts: { attempts?: number; backoffMs?: number } = {},
): Promise<Delivery> {
  const raw = JSON.stringify(mergedPayload(prUrl));
  const delivery: Delivery = { id: randomUUID(), attempts: [], acknowledged: false };
  const attempts = opts.attempts ?? 6;
  for (let i = 0; i < attempts && !delivery.acknowledged; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, opts.backoffMs ?? 700));
    const url = target(i);
    try {
      const res = await fetch(`${url}/api/webhooks/github`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'pull_request',
          'x-github-delivery': delivery.id,
          'x-hub-signature-256': signWebhook(gh.webhookSecret, raw),
        },
        body: raw,
        signal: AbortSignal.timeout(20_000),
      });
      const body = await res.text();
      delivery.attempts.push({ url, status: res.status, body: body.slice(0, 300) });
      delivery.acknowledged = res.ok;
    } catch (err) {
      delivery.attempts.push({ url, status: (err as Error).message, body: '' });
    }
  }
  return delivery;
}
