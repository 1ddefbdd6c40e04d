import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type LocalRepoHost, startLocalRepoHost } from '../src/dev/local-repo-host/server.ts';
import { loadConfig } from '../src/infra/config.ts';
import { createLogger } from '../src/infra/logger.ts';
import { GithubHost } from '../src/infra/repo-host/github-host.ts';
import { AppError } from '../src/lib/errors.ts';
import { TestClock } from './helpers/clock.ts';
import { reusableTestDatabase } from './helpers/database.ts';
import { FakeChain } from './helpers/fake-chain.ts';

/**
 * /readyz against a real repository host: the built-in local host (which serves the probe's
 * `GET /rate_limit`), and stubs answering as GitHub and GitHub Enterprise Server do.
 */

const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

interface LogLine {
  level: number;
  msg: string;
  dependency?: string;
}

/** A logger whose lines are kept, parsed, for the test to read. */
function capturingLogger() {
  const lines: LogLine[] = [];
  const logger = createLogger(
    { logLevel: 'debug' },
    { write: (line: string) => void lines.push(JSON.parse(line)) },
  );
  // pino's levels: 40 warn, 50 error, 60 fatal.
  const warnings = () => lines.filter((l) => l.level >= 40);
  return { lines, logger, warnings };
}

/** A local host on a new data directory, or again on `at`'s directory and port (a restart). */
async function localHost(at?: {
  dataDir: string;
  port: number;
}): Promise<LocalRepoHost & { dataDir: string }> {
  const dataDir = at?.dataDir ?? mkdtempSync(join(tmpdir(), 'readyz-repo-host-'));
  if (!at) cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const host = await startLocalRepoHost({
    dataDir,
    host: '127.0.0.1',
    port: at?.port ?? 0,
    webhook: { url: null, secret: 'readyz-secret' },
    platformToken: 'readyz-platform-token',
  });
  cleanup.push(() => host.stop());
  return Object.assign(host, { dataDir });
}

/** A stand-in for GitHub's REST base answering `GET /rate_limit` with `status` and `body`. */
async function stubHost(status: number, body: unknown): Promise<string> {
  const server: Server = createServer((req, res) => {
    const ok = req.url === '/rate_limit';
    res.writeHead(ok ? status : 404, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(ok ? body : { message: 'Not Found' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => new Promise((r) => server.close(r)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function appWith(repoHost: GithubHost, logger: ReturnType<typeof createLogger>) {
  const database = await reusableTestDatabase();
  cleanup.push(() => database.close());
  const app = await buildApp({
    database,
    chain: new FakeChain(),
    clock: new TestClock(),
    config: loadConfig({}),
    repoHost,
    logger,
  });
  cleanup.push(() => app.close());
  await app.ready();
  return app;
}

const hostFor = (apiUrl: string, log: ReturnType<typeof createLogger>, kind: 'local' | 'github' = 'github') =>
  new GithubHost({
    kind,
    apiUrl,
    org: 'marketplace',
    token: 'readyz-platform-token',
    webhookSecret: 's',
    log,
  });

describe('GET /readyz with the built-in local repository host', () => {
  it('is ready, and a probe logs no warning or error', async () => {
    const host = await localHost();
    const { logger, warnings, lines } = capturingLogger();
    const app = await appWith(hostFor(host.apiUrl, logger, 'local'), logger);

    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    }
    expect(lines.some((l) => l.msg === 'request completed')).toBe(true);
    expect(warnings()).toEqual([]);
  });

  it('names the repository host once the host is stopped, and is ready again when it is back', async () => {
    const host = await localHost();
    const { logger, warnings } = capturingLogger();
    const app = await appWith(hostFor(host.apiUrl, logger, 'local'), logger);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

    await host.stop();
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', failing: ['repo_host'] });
    // One warning from the readiness check naming the dependency; the adapter adds no error line.
    expect(warnings().map((l) => [l.level, l.msg, l.dependency])).toEqual([
      [40, 'readiness probe failed', 'repo_host'],
    ]);

    await localHost({ dataDir: host.dataDir, port: Number(new URL(host.baseUrl).port) });
    const back = await app.inject({ method: 'GET', url: '/readyz' });
    expect(back.statusCode, back.body).toBe(200);
    expect(warnings()).toHaveLength(1);
  });
});

describe('GithubHost.ping', () => {
  it("resolves on GitHub's 200, and on GitHub Enterprise Server's 404 without rate limits", async () => {
    const { logger, warnings } = capturingLogger();
    const github = await stubHost(200, {
      resources: { core: { limit: 5000, used: 1, remaining: 4999, reset: 1 } },
      rate: { limit: 5000, used: 1, remaining: 4999, reset: 1 },
    });
    await expect(hostFor(github, logger).ping()).resolves.toBeUndefined();
    for (const message of ['Rate limiting is not enabled.', 'No rate limit for white listed users']) {
      const ghes = await stubHost(404, { message, documentation_url: 'https://docs.github.com/enterprise' });
      await expect(hostFor(ghes, logger).ping()).resolves.toBeUndefined();
    }
    expect(warnings()).toEqual([]);
  });

  it('fails on a 404 of another server, refused credentials, a 5xx or no answer, logging nothing itself', async () => {
    const { logger, warnings } = capturingLogger();
    const answers: [number, unknown][] = [
      [404, { message: 'Not Found' }],
      [401, { message: 'Bad credentials' }],
      [403, { message: 'Resource not accessible by integration' }],
      [500, { message: 'Server Error' }],
      [502, 'bad gateway'],
    ];
    for (const [status, body] of answers) {
      const err = await hostFor(await stubHost(status, body), logger)
        .ping()
        .catch((e: unknown) => e);
      expect(err, `HTTP ${status}`).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('upstream_error');
      expect((err as AppError).message).toContain(`it answered HTTP ${status}`);
    }
    // Nothing listens on this port any more.
    const gone = await stubHost(200, {});
    await cleanup.pop()?.();
    const err = await hostFor(gone, logger)
      .ping()
      .catch((e: unknown) => e);
    expect((err as AppError).message).toContain('could not be reached');
    expect(warnings()).toEqual([]);
  });

  it('makes /readyz name the repository host when the REST base is not a GitHub API', async () => {
    const { logger } = capturingLogger();
    const app = await appWith(hostFor(await stubHost(404, { message: 'Not Found' }), logger), logger);
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.json()).toEqual({ status: 'unavailable', failing: ['repo_host'] });
  });
});
