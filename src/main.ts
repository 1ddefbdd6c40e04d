import { type Config, ConfigError, loadConfig } from './infra/config.ts';
import { createLogger } from './infra/logger.ts';
import { startTracing } from './infra/telemetry.ts';
import { systemClock } from './lib/clock.ts';

function configOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

async function main() {
  const config = configOrExit();
  // Before anything that could make a traced call; nothing of OpenTelemetry loads without it.
  const tracing = config.otelEndpoint ? await startTracing({ endpoint: config.otelEndpoint }) : null;
  const logger = createLogger(config);
  // Loaded after the configuration is known good (a bad one exits at once). What starts the
  // database, the chain and the repository host loads first; the app's own code (most of the
  // start's module loading) then loads while they start (anvil, PostgreSQL and RPC round trips).
  const [db, dirLock, chainConnect, devChainRecord, payoutRouter, repoHostConnect, localHost, metricsModule] =
    await Promise.all([
      import('./infra/db/client.ts'),
      import('./infra/db/dir-lock.ts'),
      import('./infra/chain/connect.ts'),
      import('./infra/chain/dev-chain-record.ts'),
      import('./infra/chain/payout-router.ts'),
      import('./infra/repo-host/connect.ts'),
      import('./dev/local-repo-host/server.ts'),
      import('./infra/metrics.ts'),
    ]);
  // Made before the chain so that its adapter reports RPC calls to the app's registry.
  const metrics = new metricsModule.Metrics();
  // The database, the chain and the repository host start side by side (each waits on its own
  // files or process); a refusal that says what to fix ends the process with its message.
  const exitOn =
    (...known: (new (...args: never[]) => Error)[]) =>
    (err: unknown): never => {
      if (known.some((k) => err instanceof k)) {
        console.error((err as Error).message);
        process.exit(1);
      }
      throw err;
    };
  const [[database, { chain, devChain, masterKey }, { repoHost, local }], { buildApp }, { WalletVault }] =
    await Promise.all([
      Promise.all([
        db
          .openDatabase(
            config.databaseUrl
              ? { kind: 'postgres', url: config.databaseUrl, poolSize: config.databasePoolSize }
              : { kind: 'pglite', dataDir: config.dataDir },
          )
          .catch(exitOn(dirLock.DirLockedError)),
        // Both say what to fix (another process on DATA_DIR; a factory without this payout key's router).
        chainConnect
          .connectChain(config, logger, metrics.observeRpc)
          .catch(exitOn(devChainRecord.DevChainInUseError, payoutRouter.ChainSetupError)),
        // The development host is this file's to pick (src/dev is for the composition root only).
        repoHostConnect.connectRepoHost(config, logger, localHost.startLocalRepoHost),
      ]),
      import('./app.ts'),
      import('./infra/chain/wallet-vault.ts'),
    ]);
  // Loaded only when used: a single instance keeps its rate-limit counters in memory.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
      })
    : undefined;
  const app = await buildApp({
    database,
    chain,
    clock: systemClock,
    config,
    repoHost,
    logger,
    redis,
    vault: masterKey ? new WalletVault(masterKey) : null,
    runJobs: true,
    metrics,
    ...(tracing ? { tracing: tracing.plugin } : {}),
    ...(local ? { localRepoHost: local } : {}),
  });
  // The local host knows agents only through the service: an API key -> the agent's repo_login.
  local?.setAuthenticator((key) => app.services.agents.repoLoginForKey(key));
  app.log.info(
    {
      database: database.kind,
      dataDir: database.kind === 'pglite' ? config.dataDir : undefined,
      rateLimits: redis ? 'redis' : 'memory',
      tracing: config.otelEndpoint ? 'otlp' : 'off',
    },
    'storage ready',
  );
  if (database.kind === 'postgres' && (devChain || local))
    app.log.info(
      'the embedded dev chain and local repository host live in this process: run one instance on this ' +
        'database, or set CHAIN_RPC_URL and GITHUB_TOKEN to run several (docs/scale-out.md)',
    );
  if (!chain.info)
    app.log.warn('no chain configured: creating bounties and approving answer 503 chain_unavailable');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: no new requests, finishing in-flight ones');
    const force = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    try {
      // Keep-alive connections that finish their last response after close() began would hold
      // the server open until their keep-alive timeout; close each one as soon as it is idle.
      const closeIdle = setInterval(() => app.server.closeIdleConnections(), 50);
      await app.close();
      clearInterval(closeIdle);
      app.log.info('http server closed');
      // The spans of the last requests are still buffered.
      await tracing?.shutdown().catch((err: unknown) => app.log.warn({ err }, 'trace export failed'));
      await chain.close();
      await local?.stop();
      await devChain?.stop();
      redis?.disconnect();
      await database.close();
      app.log.info('database closed; bye');
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  // The local host reports merges to this very service; its address is known only now.
  local?.setWebhookUrl(`${address.replace('0.0.0.0', '127.0.0.1')}/api/webhooks/github`);
  // Its pages link back to bounties and sign in through this service's session.
  local?.setMarketplaceUrl(address.replace('0.0.0.0', '127.0.0.1'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
