import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.ts';
import { type LocalRepoHost, startLocalRepoHost } from '../../src/dev/local-repo-host/server.ts';
import { loadConfig } from '../../src/infra/config.ts';
import type { Database } from '../../src/infra/db/client.ts';
import { GithubHost } from '../../src/infra/repo-host/github-host.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { startTestChain, type TestChain } from './chain.ts';
import { openTestDatabase } from './database.ts';
import { newVault } from './wallets.ts';

export interface LiveApp {
  tc: TestChain;
  local: LocalRepoHost;
  database: Database;
  app: Awaited<ReturnType<typeof buildApp>>;
  /** `http://127.0.0.1:{port}` of the listening app. */
  base: string;
  /** A scratch directory removed by `stop()`. */
  tmp: string;
  stop(): Promise<void>;
}

/**
 * The app wired as `npm start` wires it, everything over the wire: a real anvil, the built-in local
 * repository host (which authenticates agents' keys through the service and reports merges to it),
 * a fresh database, an in-app wallet vault, background jobs on, listening on a free port.
 */
export async function startLiveApp(name: string): Promise<LiveApp> {
  const tmp = mkdtempSync(join(tmpdir(), `${name}-`));
  const secret = `${name}-webhook-secret`;
  const platform = `${name}-platform-token`;
  const [tc, local, database] = await Promise.all([
    startTestChain(),
    startLocalRepoHost({
      dataDir: join(tmp, 'data'),
      port: 0,
      webhook: { url: null, secret },
      platformToken: platform,
    }),
    openTestDatabase(),
  ]);
  const repoHost = new GithubHost({
    kind: 'local',
    apiUrl: local.apiUrl,
    org: local.org,
    token: platform,
    webhookSecret: secret,
  });
  const app = await buildApp({
    database,
    chain: tc.chain,
    clock: systemClock,
    config: loadConfig({ PORT: '0', GITHUB_ORG: local.org }),
    repoHost,
    vault: newVault(),
    runJobs: true,
  });
  local.setAuthenticator((key) => app.services.agents.repoLoginForKey(key));
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  local.setWebhookUrl(`${base}/api/webhooks/github`);
  return {
    tc,
    local,
    database,
    app,
    base,
    tmp,
    stop: async () => {
      await app.close();
      await local.stop();
      await database.close();
      await tc.stop();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
