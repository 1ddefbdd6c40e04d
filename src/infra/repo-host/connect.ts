import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { devSecret } from '../dev-secrets.ts';
import { GithubHost } from './github-host.ts';
import type { RepoHost } from './repo-host.ts';

/** How the development host is started: what this file asks of it, and what it needs back. */
export interface LocalHostStart {
  dataDir: string;
  host: string;
  port: number;
  org: string;
  webhook: { url: null; secret: string };
  platformToken: string;
  log: FastifyBaseLogger;
}

/**
 * Starts the built-in development host (`startLocalRepoHost` of src/dev/local-repo-host). The
 * composition root (main.ts) passes it in: infrastructure never imports the development code.
 */
export type StartLocalHost<L extends { apiUrl: string; org: string }> = (opts: LocalHostStart) => Promise<L>;

/**
 * GitHub when GITHUB_TOKEN is set; otherwise the built-in local host, started here with
 * `startLocal`, which the same Octokit adapter talks to through its REST base with a platform
 * token. The token lives in this process only (host and service run together): nothing to
 * configure, nothing on disk. The caller gives the local host its authenticator of agents' keys
 * once the services exist.
 */
export async function connectRepoHost<L extends { apiUrl: string; org: string }>(
  config: Config,
  log: FastifyBaseLogger,
  startLocal: StartLocalHost<L>,
): Promise<{ repoHost: RepoHost; local: L | null }> {
  const c = config.repoHost;
  if (c.githubToken) {
    const repoHost = new GithubHost({
      kind: 'github',
      apiUrl: c.githubApiUrl,
      org: c.githubOrg,
      token: c.githubToken,
      webhookSecret: c.webhookSecret as string,
      log,
    });
    return { repoHost, local: null };
  }
  const secret = c.webhookSecret ?? devSecret(config.dataDir, 'webhook-secret', 'GITHUB_WEBHOOK_SECRET', log);
  const platformToken = randomBytes(32).toString('base64url');
  const local = await startLocal({
    dataDir: config.dataDir,
    host: '127.0.0.1',
    port: c.localPort,
    org: c.githubOrg,
    webhook: { url: null, secret },
    platformToken,
    log,
  });
  const repoHost = new GithubHost({
    kind: 'local',
    apiUrl: local.apiUrl,
    org: local.org,
    token: platformToken,
    webhookSecret: secret,
    log,
  });
  return { repoHost, local };
}
