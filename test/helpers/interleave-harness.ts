import { randomBytes, randomInt } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { privateKeyToAccount } from 'viem/accounts';
import type { Db } from '../../src/infra/db/client.ts';
import * as schema from '../../src/infra/db/schema.ts';
import { externalChainEnv } from './crash.ts';
import { createScratchDatabase } from './database.ts';
import { type IntervalChain, startIntervalChain } from './interleave-chain.ts';
import { type Cluster, snapshotDist, startCluster } from './interleave-cluster.ts';
import { type FakeGithub, startFakeGithub } from './interleave-github.ts';
import type { Env } from './interleave-world.ts';
import { type RpcProxy, startRpcProxy } from './rpc-proxy.ts';

/**
 * What the interleaving model tests share (test/payouts-interleave.chain.int.test.ts,
 * test/wallets-interleave.chain.int.test.ts): one anvil mining a block a second, a repository host,
 * a scratch PostgreSQL database, Redis when one answers, and real service processes started from a
 * private copy of dist/; optionally a JSON-RPC proxy of the test's own between the instances and
 * anvil (the test itself reads the chain directly), through which it loses or delays answers.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Harness {
  chain: IntervalChain;
  gh: FakeGithub;
  cluster: Cluster;
  sql: postgres.Sql;
  db: Db;
  /** The proxy the instances reach the chain through, when asked for. */
  proxy: RpcProxy | null;
  /** The sponsor's address when the instances have its key (SPONSOR_PRIVATE_KEY), else null. */
  sponsor: string | null;
  /** WALLET_MASTER_KEY of every instance (the test may unseal an in-app key to use it outside). */
  masterKey: string;
  env(): Env;
  /** Warnings and errors of the instances' logs (JSON, level >= 40), counted by message. */
  problems(): string;
  /** Stops everything; the instances' logs are kept in test-artifacts/<dir> when `keepAs` is set. */
  stop(keepAs?: string): Promise<void>;
}

/** TEST_REDIS_URL, else the conventional local Redis when one answers; none otherwise. */
async function redisUrl(): Promise<string | undefined> {
  if (process.env.TEST_REDIS_URL) return process.env.TEST_REDIS_URL;
  const up = await new Promise<boolean>((resolve) => {
    const s = connect(6379, '127.0.0.1');
    s.setTimeout(500);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => resolve(false));
  }).catch(() => false);
  return up ? 'redis://127.0.0.1:6379' : undefined;
}

export async function startHarness(opts: {
  seed: number;
  log: (line: string) => void;
  /** Variables over the model's defaults, for every instance. */
  env?: Record<string, string>;
  proxy?: boolean;
  /** The instances get the dev chain's sponsor key: in-app wallets without ETH are sponsored. */
  sponsor?: boolean;
  feeBps: bigint;
}): Promise<Harness> {
  const t0 = Date.now();
  const logDir = mkdtempSync(join(tmpdir(), 'bm-interleave-'));
  let gh: FakeGithub | undefined;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let chain: IntervalChain | undefined;
  let dist: ReturnType<typeof snapshotDist> | undefined;
  let cluster: Cluster | undefined;
  let proxy: RpcProxy | null = null;
  let sql: postgres.Sql | undefined;
  const masterKey = randomBytes(32).toString('hex');

  const stop = async (keepAs?: string) => {
    await cluster?.stop().catch(() => {});
    if (keepAs) {
      const keep = join(root, 'test-artifacts', keepAs);
      mkdirSync(keep, { recursive: true });
      cpSync(logDir, keep, { recursive: true, filter: (p) => !p.includes('/data-') });
      // The money tables as the run left them, for reading a failure back.
      const tables = ['payouts', 'wallet_intents', 'wallet_txs', 'account_nonces'];
      const dump = await Promise.all(
        tables.map(async (t) => [t, await sql?.unsafe(`select * from ${t} order by 1`).catch(() => null)]),
      );
      const text = JSON.stringify(
        Object.fromEntries(dump),
        (_k, v) => (typeof v === 'bigint' ? `${v}` : v),
        1,
      );
      writeFileSync(join(keep, 'money-tables.json'), text);
      opts.log(`instance logs kept in ${keep}`);
    }
    await sql?.end({ timeout: 5 }).catch(() => {});
    await scratch?.drop().catch(() => {});
    await gh?.close().catch(() => {});
    await proxy?.close().catch(() => {});
    await chain?.stop().catch(() => {});
    dist?.remove();
    rmSync(logDir, { recursive: true, force: true });
  };

  try {
    // One at a time, so that a failure stops whatever started before it.
    gh = await startFakeGithub();
    scratch = await createScratchDatabase();
    chain = await startIntervalChain();
    if (opts.proxy) proxy = await startRpcProxy(chain.rpcUrl);
    const t1 = Date.now();
    dist = snapshotDist();
    const t2 = Date.now();
    const redis = await redisUrl();
    const c = chain;
    const g = gh;
    const url = scratch.url;
    cluster = await startCluster({
      count: 2,
      distDir: dist.dir,
      logDir,
      env: (i) => ({
        ...externalChainEnv(c.tc.options),
        ...(proxy ? { CHAIN_RPC_URL: proxy.url } : {}),
        ...(opts.sponsor && c.tc.options.sponsorKey ? { SPONSOR_PRIVATE_KEY: c.tc.options.sponsorKey } : {}),
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: '8',
        ...(redis ? { REDIS_URL: redis } : {}),
        DATA_DIR: join(logDir, `data-${i}`),
        WALLET_MASTER_KEY: masterKey,
        GITHUB_TOKEN: g.platformToken,
        GITHUB_API_URL: g.apiUrl,
        GITHUB_ORG: g.org,
        GITHUB_WEBHOOK_SECRET: g.webhookSecret,
        PLATFORM_FEE_BPS: String(opts.feeBps),
        APPROVAL_LEASE_SECONDS: '4',
        PAYOUT_RECEIPT_TIMEOUT_SECONDS: '2',
        PAYOUT_RECONCILE_INTERVAL_SECONDS: '1',
        PAYOUT_STUCK_AFTER_SECONDS: '3',
        PAYOUT_CONFIRMATIONS: '2',
        PAYOUT_REVERT_CONFIRMATIONS: '1',
        CHAIN_WATCH_INTERVAL_SECONDS: '1',
        CLAIM_TTL_HOURS: '1',
        CLAIM_SWEEP_INTERVAL_SECONDS: '1',
        RATE_LIMIT_PER_IP_PER_MINUTE: '1000000',
        RATE_LIMIT_PER_KEY_PER_MINUTE: '1000000',
        RATE_LIMIT_REGISTER_PER_IP_PER_HOUR: '1000000',
        SHUTDOWN_TIMEOUT_MS: '3000',
        LOG_LEVEL: 'info',
        ...opts.env,
      }),
    });
    sql = postgres(scratch.url, { max: 3, onnotice: () => {} });
    opts.log(
      `anvil ${chain.rpcUrl}${proxy ? ` (instances through proxy ${proxy.url})` : ''}, instances ` +
        `${cluster.instances.map((x) => x.url).join(' ')}, logs ${logDir}; set up in ${Date.now() - t0} ms ` +
        `(chain ${t1 - t0}, build ${t2 - t1}, instances ${Date.now() - t2})`,
    );
  } catch (err) {
    await stop();
    throw err;
  }

  const h: Harness = {
    chain,
    gh,
    cluster,
    sql,
    db: drizzle({ client: sql, schema }) as unknown as Db,
    proxy,
    sponsor:
      opts.sponsor && chain.tc.options.sponsorKey
        ? privateKeyToAccount(chain.tc.options.sponsorKey).address
        : null,
    masterKey,
    env: () =>
      ({
        cluster: h.cluster,
        chain: h.chain,
        gh: h.gh,
        sql: h.sql,
        tag: `${opts.seed % 100_000}x${randomInt(1000)}`,
      }) as Env,
    problems: () => instanceProblems(h.cluster),
    stop,
  };
  return h;
}

function instanceProblems(cluster: Cluster): string {
  const counts = new Map<string, number>();
  for (const file of cluster.logFiles()) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const level = /"level":(40|50|60)/.exec(line)?.[1];
      if (!level) continue;
      let key = line.slice(0, 200);
      try {
        const j = JSON.parse(line) as { msg?: string; err?: { message?: string } };
        key = `${j.msg ?? ''}${j.err?.message ? `: ${j.err.message.split('\n')[0]?.slice(0, 160)}` : ''}`;
      } catch {}
      key = `${level === '40' ? 'warn' : 'error'} ${key}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return (
    [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `  ${n}x ${k}`)
      .join('\n') || '  none'
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` (what is still moving) until it was empty for `quietForMs`, or gives up after `withinMs`. */
export async function quiesce(
  probe: () => Promise<string[]>,
  withinMs: number,
  quietForMs: number,
): Promise<{ quiet: boolean; ms: number; last: string[] }> {
  const started = Date.now();
  let calmSince: number | null = null;
  let last: string[] = [];
  while (Date.now() - started < withinMs) {
    last = await probe();
    if (last.length > 0) calmSince = null;
    else {
      calmSince ??= Date.now();
      if (Date.now() - calmSince >= quietForMs) return { quiet: true, ms: Date.now() - started, last };
    }
    await sleep(500);
  }
  return { quiet: false, ms: Date.now() - started, last };
}
