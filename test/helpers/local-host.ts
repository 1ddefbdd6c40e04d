import { type LocalRepoHostOptions, startLocalRepoHost } from '../../src/dev/local-repo-host/server.ts';
import { GithubHost } from '../../src/infra/repo-host/github-host.ts';

/**
 * The built-in repository host started with `options`, taking the keys of `keys` (key to login) on
 * HTTP when given, and the service's client of it: a GithubHost that speaks to it as the platform
 * (its token and webhook secret).
 */
export async function localHostWithClient(options: LocalRepoHostOptions, keys?: ReadonlyMap<string, string>) {
  const host = await startLocalRepoHost(options);
  if (keys) host.setAuthenticator(async (key) => keys.get(key) ?? null);
  const client = new GithubHost({
    kind: 'local',
    apiUrl: host.apiUrl,
    org: host.org,
    token: options.platformToken,
    webhookSecret: options.webhook.secret,
  });
  return { host, client };
}
