/**
 * Throughput and tail latency of GET /api/bounties on real PostgreSQL, next to a bare-SQL baseline
 * running the very statements the service issues. See bench/README.md for how to run and read it.
 *
 *   npx tsx bench/list-bounties.ts [--rows 100000] [--duration 10] [--connections 50] [--pool 10]
 *                                  [--warmup 2] [--db bm_bench] [--keep] [--reuse]
 */
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { buildApp } from '../src/app.ts';
import { unavailableChain } from '../src/infra/chain/chain.ts';
import { loadConfig } from '../src/infra/config.ts';
import { type Database, openDatabase } from '../src/infra/db/client.ts';
import { systemClock } from '../src/lib/clock.ts';
import {
  type CapturedQuery,
  cpuMeter,
  createSqlCapture,
  type Measurement,
  machineBusy,
  runAutocannon,
  runBareSql,
} from './lib/load.ts';
import {
  databaseUrl,
  dropDatabase,
  existingRows,
  KEYWORD,
  PROJECTS,
  recreateDatabase,
  seed,
} from './lib/seed.ts';

const TARGET_RATIO = 0.6;
const TARGET_P99_MS = 25;
const TARGET_ROWS = 1_000_000;

const { values: opts } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    pool: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    db: { type: 'string', default: 'bm_bench' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
  },
});

function positiveInt(name: string, raw: string, min: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${name} must be a whole number >= ${min} (got "${raw}")`);
  return n;
}

const rows = positiveInt('rows', opts.rows, 1);
const duration = positiveInt('duration', opts.duration, 1);
const connections = positiveInt('connections', opts.connections, 1);
const pool = positiveInt('pool', opts.pool, 1);
const warmup = positiveInt('warmup', opts.warmup, 0);
const dbName = opts.db;
if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error('--db must be a plain lower-case identifier');
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const url = databaseUrl(adminUrl, dbName);

const scenarios = [
  { name: 'page', path: '/api/bounties' },
  { name: 'open+hard', path: '/api/bounties?status=open&difficulty=hard' },
  { name: `q=${KEYWORD}`, path: `/api/bounties?q=${KEYWORD}` },
];

interface Row {
  name: string;
  service: Measurement;
  bare: Measurement;
}

const log = (msg: string) => console.log(msg);
const secondsSince = (t: number) => ((Date.now() - t) / 1000).toFixed(1);

function describeQueries(queries: CapturedQuery[]): string {
  return queries
    .map((q, i) => `    [${i + 1}] ${q.sql}\n        params ${JSON.stringify(q.params)}`)
    .join('\n');
}

function printTable(results: Row[]): void {
  const header = [
    'scenario',
    'service req/s',
    'service p99 ms',
    'bare SQL req/s',
    'bare p99 ms',
    'ratio service/bare',
    'target',
  ];
  const body = results.map((r) => {
    const ratio = r.bare.rps > 0 ? r.service.rps / r.bare.rps : 0;
    const misses = [
      ratio < TARGET_RATIO ? `ratio<${TARGET_RATIO}` : '',
      r.service.p99 >= TARGET_P99_MS ? `p99>=${TARGET_P99_MS}ms` : '',
    ].filter(Boolean);
    return [
      r.name,
      r.service.rps.toFixed(0),
      r.service.p99.toFixed(1),
      r.bare.rps.toFixed(0),
      r.bare.p99.toFixed(1),
      ratio.toFixed(2),
      misses.length === 0 ? 'PASS' : `MISS (${misses.join(', ')})`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  log(line(header));
  log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const b of body) log(line(b));
  log(
    `\nTargets: ratio service/bare >= ${TARGET_RATIO} and service p99 < ${TARGET_P99_MS} ms, defined at ` +
      `${TARGET_ROWS.toLocaleString('en')} rows${rows === TARGET_ROWS ? '' : ` (this run: ${rows.toLocaleString('en')} rows)`}.`,
  );
  const failed = results.filter((r) => r.service.failed > 0 || r.bare.failed > 0);
  for (const r of failed)
    log(`WARNING ${r.name}: ${r.service.failed} failed HTTP requests, ${r.bare.failed} failed SQL requests`);
}

async function main(): Promise<void> {
  log(
    `list-bounties bench: ${rows.toLocaleString('en')} bounties over ${PROJECTS} projects, ${duration}s per run ` +
      `(+${warmup}s warm-up), ${connections} connections, DB pool ${pool}`,
  );
  log(
    `machine: ${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  log(`database: ${url.replace(/\/\/[^@]*@/, '//')}`);

  let database: Database | undefined;
  let capture: Awaited<ReturnType<typeof createSqlCapture>> | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  const bare = postgres(url, { max: pool, onnotice: () => {}, prepare: true });
  const started = Date.now();
  try {
    const open = () => openDatabase({ kind: 'postgres', url, poolSize: pool }); // applies the migrations
    if (opts.reuse && (await existingRows(url)) === rows) {
      // A kept database from before a migration was rewritten cannot be migrated; seed afresh then.
      database = await open().catch((err: unknown) => {
        log(`cannot reuse ${dbName} (${(err as Error).message.split('\n')[0]}); seeding afresh`);
        return undefined;
      });
      if (database) log(`reusing ${dbName}: ${rows} bounties seeded by an earlier --keep run`);
    }
    if (!database) {
      await recreateDatabase(adminUrl, dbName);
      database = await open();
      log(`created and migrated in ${secondsSince(started)}s; seeding ...`);
      const seeded = Date.now();
      const { keywordRows } = await seed(bare, rows, log);
      log(
        `seeded and analyzed in ${secondsSince(seeded)}s; bounty_counts verified; ` +
          `"${KEYWORD}" matches ${keywordRows} rows (${((100 * keywordRows) / rows).toFixed(2)}%)`,
      );
    }

    const config = loadConfig({
      DATABASE_URL: url,
      DATABASE_POOL_SIZE: String(pool),
      RATE_LIMIT_PER_IP_PER_MINUTE: '1000000',
      LOG_LEVEL: 'silent',
    });
    app = await buildApp({ database, chain: unavailableChain, clock: systemClock, config });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('service did not bind a TCP port');
    const base = `http://127.0.0.1:${address.port}`;
    capture = await createSqlCapture(url, config);

    // Anything else running now competes with the bench for the same cores.
    const idle = machineBusy();
    await new Promise((r) => setTimeout(r, 2000));
    const busy = idle();
    log(
      `\nmachine ${busy.toFixed(0)}% busy before measuring${busy > 15 ? ': WARNING, other work will skew the numbers' : ''}`,
    );

    const results: Row[] = [];
    for (const s of scenarios) {
      const { queries, body } = await capture.capture(s.path);
      log(
        `\n== ${s.name}: GET ${s.path} -> total ${body.total}, ${body.bounties.length} bounties; SQL per request:`,
      );
      log(describeQueries(queries));
      if (warmup > 0) await runAutocannon(base + s.path, connections, warmup);
      const serviceCpu = cpuMeter();
      const service = await runAutocannon(base + s.path, connections, duration);
      const serviceCpuUse = serviceCpu(service.completed);
      log(
        `  service : ${service.rps.toFixed(0)} req/s, p50 ${service.p50} ms, p99 ${service.p99} ms; ${serviceCpuUse}`,
      );
      if (warmup > 0) await runBareSql(bare, queries, connections, warmup);
      const bareCpu = cpuMeter();
      const bareRun = await runBareSql(bare, queries, connections, duration);
      const bareCpuUse = bareCpu(bareRun.completed);
      log(
        `  bare SQL: ${bareRun.rps.toFixed(0)} req/s, p50 ${bareRun.p50.toFixed(1)} ms, p99 ${bareRun.p99.toFixed(1)} ms; ${bareCpuUse}`,
      );
      results.push({ name: s.name, service, bare: bareRun });
    }
    log('');
    printTable(results);
  } finally {
    await capture?.close();
    await app?.close();
    await database?.close();
    await bare.end({ timeout: 5 });
    if (opts.keep) log(`\nkept database ${dbName} (--keep)`);
    else await dropDatabase(adminUrl, dbName);
  }
}

main().then(
  () => process.exit(0), // targets missed or not, a finished measurement exits 0
  (err: unknown) => {
    console.error(err);
    process.exit(1); // a broken run, unlike a missed target, is an error
  },
);
