import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Chain } from '../../infra/chain/chain.ts';
import type { Db } from '../../infra/db/client.ts';
import type { Metrics } from '../../infra/metrics.ts';
import type { RepoHost } from '../../infra/repo-host/repo-host.ts';
import type { Clock } from '../../lib/clock.ts';
import * as repo from './operations.repo.ts';
import { operationsRoutes } from './operations.routes.ts';
import { Readiness } from './readiness.ts';

export interface OperationsDeps {
  metrics: Metrics;
  db: Db;
  clock: Clock;
  chain: Chain;
  repoHost: RepoHost;
  /** SPONSOR_LOW_BALANCE_WEI: below it /readyz warns (still 200) that the sponsor key runs low. */
  sponsorLowBalanceWei: bigint;
}

/**
 * Wires the operator's view of the instance: the database gauges of /metrics, the readiness
 * probes of /readyz (which turns 503 as soon as the app starts closing), and their routes.
 */
export async function registerOperations(app: FastifyInstance, deps: OperationsDeps): Promise<void> {
  const { metrics, db, clock, chain, repoHost } = deps;
  // The sponsor pays the gas of wallets without ETH: its balance is a metric and a warning.
  if (chain.sponsor.address) metrics.readSponsor(() => chain.sponsor.balance(), app.log);
  const warnings = async (): Promise<string[]> => {
    if (!chain.sponsor.address) return [];
    try {
      return (await chain.sponsor.balance()) < deps.sponsorLowBalanceWei ? ['sponsor_low_balance'] : [];
    } catch {
      return [];
    }
  };
  metrics.readDatabase(
    {
      payoutsPending: () => repo.pendingPayouts(db),
      oldestPendingLegAgeSeconds: async () => {
        const at = await repo.oldestPendingLegAt(db);
        // The app's clock wrote created_at, so it measures the age too.
        return at ? Math.max(0, (clock.now().getTime() - at.getTime()) / 1000) : 0;
      },
      outboxPending: () => repo.pendingDeliveries(db),
    },
    app.log,
  );
  const readiness = new Readiness(
    {
      database: () => db.execute(sql`select 1`),
      // eth_blockNumber, the cheapest call a node answers; without a chain (unavailableChain) it
      // refuses, and an instance that cannot pay is not ready.
      chain: () => chain.payoutSigner.headBlock(),
      repo_host: () => repoHost.ping(),
    },
    app.log,
  );
  app.addHook('preClose', async () => readiness.markClosing());
  await app.register(operationsRoutes, { metrics, readiness, warnings });
}
