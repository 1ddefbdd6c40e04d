/**
 * The profile of bench/approve.ts: the database and the chain with every SQL statement and chain
 * call the service makes timed into `Stats`.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import type { Chain, PayoutSigner, WalletActions } from '../../src/infra/chain/chain.ts';
import { type Database, type Db, openDatabase } from '../../src/infra/db/client.ts';
import { withNamedStatements } from '../../src/infra/db/named-statements.ts';
import * as schema from '../../src/infra/db/schema.ts';
import { databaseUrl, dropDatabase, recreateDatabase } from './seed.ts';

/** Per name (a chain method, `sql statement`, `sql transaction`): calls and summed wall time, ms. */
export type Stats = Map<string, { calls: number; ms: number }>;

const add = (stats: Stats, name: string, ms: number) => {
  const s = stats.get(name) ?? { calls: 0, ms: 0 };
  s.calls++;
  s.ms += ms;
  stats.set(name, s);
};

/** Wraps an async function so that each call is added to `stats` under `name`. */
const timed =
  <A extends unknown[], R>(stats: Stats, name: string, fn: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    const t0 = performance.now();
    try {
      return await fn(...args);
    } finally {
      add(stats, name, performance.now() - t0);
    }
  };

type Client = postgres.Sql | PGlite;

/**
 * The driver client with each statement timed from send to answer, and each transaction from
 * BEGIN to COMMIT, as drizzle uses it (postgres-js `unsafe` queries run when awaited, after
 * drizzle has called `.values()`; PGlite `query`).
 */
function timedClient<C extends Client>(client: C, stats: Stats): C {
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop === 'query') return timed(stats, 'sql statement', value.bind(target));
      if (prop === 'transaction' || prop === 'begin') {
        return timed(stats, 'sql transaction', (fn: (tx: Client) => Promise<unknown>) =>
          value.call(target, (tx: Client) => fn(timedClient(tx, stats))),
        );
      }
      if (prop !== 'unsafe') return value.bind(target);
      return (...args: unknown[]) => {
        const query = value.apply(target, args) as Promise<unknown>;
        // postgres-js sends the query when it is first awaited: time from there to the answer.
        const send = query.then.bind(query);
        // Inside a transaction postgres-js also attaches its own `.catch`: time the first `then` only.
        let timing = false;
        const timedThen: typeof send = (ok, ko) => {
          if (timing) return send(ok, ko);
          timing = true;
          const t0 = performance.now();
          const done = () => add(stats, 'sql statement', performance.now() - t0);
          return send(
            (v) => {
              done();
              return ok ? ok(v) : (v as never);
            },
            (e) => {
              done();
              return ko ? ko(e) : Promise.reject(e);
            },
          );
        };
        Object.defineProperty(query, 'then', { value: timedThen });
        return query;
      };
    },
  });
}

/**
 * A fresh, migrated database whose driver client times every statement and transaction into
 * `stats`. PostgreSQL: a scratch database on `adminUrl`, dropped on close, with the client
 * options `openDatabase` uses; or in-memory PGlite.
 */
export async function openTimedDatabase(
  pglite: boolean,
  adminUrl: string,
  pool: number,
  stats: Stats,
): Promise<Database & { label: string }> {
  if (pglite) {
    const client = new PGlite();
    await client.waitReady;
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(drizzlePglite({ client, schema }), { migrationsFolder: migrationsFolder() });
    const db = drizzlePglite({ client: timedClient(client, stats), schema }) as unknown as Db;
    return {
      db,
      kind: 'pglite',
      listen: async (channel, onNotify) => client.listen(channel, () => onNotify()),
      close: () => client.close(),
      label: 'PGlite (in memory)',
    };
  }
  const name = `bm_bench_approve_${randomBytes(4).toString('hex')}`;
  await recreateDatabase(adminUrl, name);
  const url = databaseUrl(adminUrl, name);
  // Applies the migrations (it holds one connection for its advisory lock and migrates on another).
  await (await openDatabase({ kind: 'postgres', url, poolSize: 2 })).close();
  const client = postgres(url, { max: pool, onnotice: () => {}, prepare: true });
  // Named statements for drizzle's queries with parameters, as the service opens its client.
  const db = drizzlePostgres({
    client: withNamedStatements(timedClient(client, stats)),
    schema,
  }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    listen: async (channel, onNotify) => (await client.listen(channel, () => onNotify())).unlisten,
    label: `PostgreSQL ${url.replace(/\/\/[^@]*@/, '//')} (scratch, pool ${pool})`,
    async close() {
      await client.end({ timeout: 5 });
      await dropDatabase(adminUrl, name);
    },
  };
}

const migrationsFolder = () => new URL('../../src/infra/db/migrations', import.meta.url).pathname;

/** The payout key's calls (through the transaction engine's wallet actions), timed as `chain <method>`. */
const TIMED_WALLET_CALLS = new Set([
  'nonceOf',
  'quoteFees',
  'signTx',
  'broadcast',
  'known',
  'dryRun',
  'headBlock',
]);

/**
 * The wallet actions with each payout call timed; a receipt lookup that found nothing yet also
 * counts as `chain mined: not yet`.
 */
function timedWallets(wallets: WalletActions, stats: Stats): WalletActions {
  const receipt = timed(stats, 'chain receipt', (hash: string) => wallets.receipt(hash));
  return new Proxy(wallets, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === 'receipt') {
        return async (hash: string) => {
          const r = await receipt(hash);
          if (r === null) add(stats, 'chain mined: not yet', 0);
          return r;
        };
      }
      if (typeof value !== 'function') return value;
      if (typeof prop === 'string' && TIMED_WALLET_CALLS.has(prop)) {
        return timed(stats, `chain ${prop}`, value.bind(target));
      }
      return value.bind(target);
    },
  });
}

/** The chain with each call the approval makes timed into `stats` (`chain <method>`). */
export function timedChain(chain: Chain, stats: Stats): Chain {
  const p = chain.payoutSigner;
  const payoutSigner: PayoutSigner = {
    address: p.address,
    routerAddress: p.routerAddress,
    key: p.key,
    payCall: (t) => p.payCall(t),
    transferFromCall: (t) => p.transferFromCall(t),
    headBlock: timed(stats, 'chain headBlock', () => p.headBlock()),
  };
  return {
    info: chain.info,
    wallets: timedWallets(chain.wallets, stats),
    sponsor: chain.sponsor,
    payoutSigner,
    readFunds: timed(stats, 'chain readFunds', (t: string, o: string) => chain.readFunds(t, o)),
    tokenFundsLogs: (tokens, from, to) => chain.tokenFundsLogs(tokens, from, to),
    readCurve: (curve, token, block) => chain.readCurve(curve, token, block),
    readPriceFeed: (feed) => chain.readPriceFeed(feed),
    deployProject: (id, name, symbol) => chain.deployProject(id, name, symbol),
    faucet: (to, eth) => chain.faucet(to, eth),
    close: () => chain.close(),
  };
}
