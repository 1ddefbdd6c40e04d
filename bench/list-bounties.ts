/**
 * Throughput and tail latency of GET /api/bounties on real PostgreSQL, next to a bare-SQL baseline
 * running the very statements the service issues. See bench/README.md for how to run and read it.
 *
 *   npx tsx bench/list-bounties.ts [--rows 100000] [--duration 10] [--connections 50] [--pool 5]
 *                                  [--warmup 2] [--rounds 1] [--db bm_bench] [--keep] [--reuse]
 *                                  [--pgbench prepared,extended,simple|none] [--only page,open+hard,q,relevance]
 *                                  [--miss] [--quiet]
 */

import { openSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { buildApp } from '../src/app.ts';
import { unavailableChain } from '../src/infra/chain/unavailable-chain.ts';
import { DEFAULT_POOL_SIZE, loadConfig } from '../src/infra/config.ts';
import { type Database, openDatabase } from '../src/infra/db/client.ts';
import { TurnWriter } from '../src/infra/log-writer.ts';
import { createLogger } from '../src/infra/logger.ts';
import { systemClock } from '../src/lib/clock.ts';
import {
  type CapturedQuery,
  cpuMeter,
  createSqlCapture,
  type Measurement,
  machineBusy,
  middle,
  PGBENCH_MODES,
  type PgbenchMode,
  runAutocannon,
  runBareSql,
  runBareSqlAtRate,
  runPgbench,
} from './lib/load.ts';
import { fixedAnswerServer, plainListServer } from './lib/plain-http.ts';
import {
  databaseUrl,
  dropDatabase,
  existingRows,
  KEYWORD,
  PROJECTS,
  recreateDatabase,
  seed,
} from './lib/seed.ts';

// Issue 29: share of pgbench's throughput on the same SQL at the same concurrency, against the mode the
// service uses (named statements for page and filter, unnamed for keywords, relevance included); for
// the page and the filter (the issue's item 1) the service's CPU per request at most CPU_TARGET x the
// bare loop's; the keyword p99 at KEYWORD_P99 (1M rows). The keyword's CPU ratio is printed, not judged:
// the issue bounds its throughput and p99 (item 2), and on a box where PostgreSQL takes both cores the
// figure is the machine's contention more than the code's (bench/README.md, "CPU lines where the issue
// draws them").
const TARGET_RATIO = { page: 0.5, filter: 0.5, keyword: 0.8 } as const;
const LIKE_FOR_LIKE = { page: 'prepared', filter: 'prepared', keyword: 'extended' } as const;
const CPU_TARGET = 2;
const CPU_BOUNDED: Record<keyof typeof TARGET_RATIO, boolean> = { page: true, filter: true, keyword: false };
const KEYWORD_P99 = { connections: 10, ms: 100 } as const;

const { values: opts } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    pool: { type: 'string', default: String(DEFAULT_POOL_SIZE) }, // the service's own default
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '1' },
    db: { type: 'string', default: 'bm_bench' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
    pgbench: { type: 'string', default: PGBENCH_MODES.join(',') },
    only: { type: 'string', default: '' },
    // The list's answer cache (BOUNTY_LIST_CACHE_MS) off: every request runs the SQL pgbench runs.
    miss: { type: 'boolean', default: false },
    // The service without its logger, as every run before 2026-11-29 measured it.
    quiet: { type: 'boolean', default: false },
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
const rounds = positiveInt('rounds', opts.rounds, 1);
const pgbenchModes = (opts.pgbench === 'none' ? [] : opts.pgbench.split(',')) as PgbenchMode[];
for (const m of pgbenchModes)
  if (!PGBENCH_MODES.includes(m)) throw new Error(`--pgbench takes ${PGBENCH_MODES.join(',')} or none`);
const dbName = opts.db;
if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error('--db must be a plain lower-case identifier');
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const url = databaseUrl(adminUrl, dbName);

const allScenarios = [
  { name: 'page', kind: 'page', path: '/api/bounties' },
  { name: 'open+hard', kind: 'filter', path: '/api/bounties?status=open&difficulty=hard' },
  { name: `q=${KEYWORD}`, kind: 'keyword', path: `/api/bounties?q=${KEYWORD}` },
  { name: 'relevance', kind: 'keyword', path: `/api/bounties?q=${KEYWORD}&sort=relevance` },
] as const;
const only = opts.only ? opts.only.split(',') : [];
const scenarios = allScenarios.filter(
  (s) => only.length === 0 || only.some((o) => s.name.startsWith(o) || s.kind === o),
);

interface Row {
  name: string;
  kind: keyof typeof TARGET_RATIO;
  service: Measurement;
  bare: Measurement;
  pgbench: Partial<Record<PgbenchMode, Measurement>>;
  /**
   * Process CPU per request: the service, the list without the framework and HTTP alone sending
   * the same bytes (both `--miss`), the bare driver loop flat out, and the bare driver at the rate
   * the service reached (`runBareSqlAtRate`).
   */
  cpu: { service: number; plain?: number; http?: number; bare: number; bareAtRate: number };
  /** Keyword only: the service at KEYWORD_P99.connections connections, and pgbench (like for like) there. */
  fewConnections?: Measurement;
  fewConnectionsPgbench?: Measurement;
}

const log = (msg: string) => console.log(msg);
const secondsSince = (t: number) => ((Date.now() - t) / 1000).toFixed(1);

function describeQueries(queries: CapturedQuery[]): string {
  return queries
    .map(
      (q, i) =>
        `    [${i + 1}] ${q.sql}\n        params ${JSON.stringify(q.params)}` +
        (q.prepare ? ', named prepared statement' : ', unnamed statement'),
    )
    .join('\n');
}

const ratio = (a: Measurement, b: Measurement | undefined) => (b && b.rps > 0 ? a.rps / b.rps : Number.NaN);
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

function printTable(results: Row[]): void {
  const header = [
    'scenario',
    'service req/s',
    'p99 ms',
    'bare req/s',
    ...pgbenchModes.map((m) => `pgbench ${m} tps`),
    'p99 ms (bare / pgbench)',
    'service/bare',
    ...pgbenchModes.map((m) => `service/${m}`),
    opts.miss ? 'CPU µs/req service / no framework / HTTP only / bare' : 'CPU µs/req service / bare',
    "bare at the service's rate",
    'target',
  ];
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  const body = results.map((r) => {
    const target = TARGET_RATIO[r.kind];
    const mode = LIKE_FOR_LIKE[r.kind];
    const cpuRatio = r.cpu.service / r.cpu.bare;
    const atRate = r.cpu.service / r.cpu.bareAtRate;
    const verdicts = [
      r.pgbench[mode] ? `${mode} >= ${target} ${verdict(ratio(r.service, r.pgbench[mode]) >= target)}` : '',
      ...(CPU_BOUNDED[r.kind]
        ? [
            `CPU ${fmt(cpuRatio, 2)}x <= ${CPU_TARGET}x ${verdict(cpuRatio <= CPU_TARGET)}`,
            `at the same rate ${fmt(atRate, 2)}x <= ${CPU_TARGET}x ${verdict(atRate <= CPU_TARGET)}`,
          ]
        : [`CPU ${fmt(cpuRatio, 2)}x, at the same rate ${fmt(atRate, 2)}x (reported)`]),
      r.fewConnections
        ? `p99 at ${KEYWORD_P99.connections} conns ${fmt(r.fewConnections.p99)} ms < ${KEYWORD_P99.ms} ${verdict(r.fewConnections.p99 < KEYWORD_P99.ms)}` +
          (r.fewConnectionsPgbench ? ` (pgbench ${mode} ${fmt(r.fewConnectionsPgbench.p99)} ms)` : '')
        : '',
    ].filter(Boolean);
    return [
      r.name,
      fmt(r.service.rps),
      fmt(r.service.p99, 1),
      fmt(r.bare.rps),
      ...pgbenchModes.map((m) => fmt(r.pgbench[m]?.rps ?? Number.NaN)),
      [r.bare, ...pgbenchModes.map((m) => r.pgbench[m])].map((x) => fmt(x?.p99 ?? Number.NaN, 1)).join(' / '),
      fmt(ratio(r.service, r.bare), 2),
      ...pgbenchModes.map((m) => fmt(ratio(r.service, r.pgbench[m]), 2)),
      [r.cpu.service, ...(opts.miss ? [r.cpu.plain ?? Number.NaN, r.cpu.http ?? Number.NaN] : []), r.cpu.bare]
        .map((n) => fmt(n))
        .join(' / '),
      fmt(r.cpu.bareAtRate),
      verdicts.join(', '),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  log(line(header));
  log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const b of body) log(line(b));
  log(
    `\nTargets (issue 29): service/pgbench on the same SQL at ${connections} connections >= ` +
      `${TARGET_RATIO.page} (page, filter; -M prepared) and ${TARGET_RATIO.keyword} (keyword; -M extended); ` +
      `service CPU per request <= ${CPU_TARGET}x the bare driver's for page and filter (flat out, and at the service's own rate; reported for keywords); keyword p99 < ${KEYWORD_P99.ms} ms at ` +
      `${KEYWORD_P99.connections} connections (set for 1M rows); this run: ${rows.toLocaleString('en')} rows.`,
  );
  for (const r of results) {
    const failed = [r.service, r.bare, ...Object.values(r.pgbench), r.fewConnections].map(
      (m) => m?.failed ?? 0,
    );
    if (failed.some((n) => n > 0))
      log(`WARNING ${r.name}: failed requests (service, bare, pgbench...): ${failed.join(', ')}`);
  }
}

/** `url` driven as the service was (warm-up, then the measured run); its process CPU per request. */
async function driven(url: string, label: string): Promise<number> {
  if (warmup > 0) await runAutocannon(url, connections, warmup);
  const meter = cpuMeter();
  const run = await runAutocannon(url, connections, duration);
  const use = meter(run.completed);
  log(`  ${label}: ${run.rps.toFixed(0)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms; ${use.line}`);
  return use.usPerRequest;
}

/**
 * Only with `--miss` (neither server has an answer cache): the same answer from `plainListServer`
 * (no Fastify, no hooks), checked byte for byte against the service's, then `fixedAnswerServer`
 * sending those bytes with no database, each driven as the service was; their CPU per request.
 * HTTP alone plus the bare loop is the least any Node server answering this query spends here.
 */
async function withoutFramework(app: Awaited<ReturnType<typeof buildApp>>, base: string, path: string) {
  const plain = await plainListServer((q) => app.services.bounties.listJson(q), path);
  try {
    const [viaService, viaPlain] = await Promise.all(
      [base + path, plain.url].map(async (u) => {
        const res = await fetch(u);
        return { body: Buffer.from(await res.arrayBuffer()), etag: res.headers.get('etag') ?? '' };
      }),
    );
    if (!viaService || !viaPlain || !viaService.body.equals(viaPlain.body))
      throw new Error(`${path}: the plain server answers differently`);
    const plainCpu = await driven(plain.url, 'no framework');
    const fixed = await fixedAnswerServer(viaService.body, viaService.etag);
    try {
      return { plain: plainCpu, http: await driven(fixed.url, 'HTTP only (same bytes, no database)') };
    } finally {
      await fixed.close();
    }
  } finally {
    await plain.close();
  }
}

/**
 * Requests the service answers for a scenario before its measured run, at least: a scenario's own
 * code (its validation, its statement's text and rows) is compiled by V8 only after it has run a
 * few thousand times. After 2 s of a keyword search at 1M rows (~900 requests) the measured run
 * still spent 160-280 µs per request on V8's compiler threads and 20-50 % more CPU per request
 * than after 8 s (~4,000); the runs after it (bare loop, no framework) use the driver and the list
 * code the service's run already compiled (bench/README.md, "A warm-up the size of the keyword").
 */
const SERVICE_WARMUP_REQUESTS = 4000;
/** The longest a service's warm-up goes on for, whatever it reached. */
const SERVICE_WARMUP_MAX_SECONDS = 20;

/** `--warmup` seconds of `url`, repeated until SERVICE_WARMUP_REQUESTS; the requests answered. */
async function warmService(url: string): Promise<number> {
  if (warmup === 0) return 0;
  const until = performance.now() + SERVICE_WARMUP_MAX_SECONDS * 1000;
  let answered = 0;
  do answered += (await runAutocannon(url, connections, warmup)).completed;
  while (answered < SERVICE_WARMUP_REQUESTS && performance.now() < until);
  return answered;
}

/**
 * One round of a scenario: the service, then (keyword) the service at few connections, the bare
 * loop flat out and at the service's rate, the service without the framework (`--miss`) and pgbench,
 * one after the other.
 */
async function measure(
  s: (typeof scenarios)[number],
  queries: CapturedQuery[],
  bare: postgres.Sql,
  app: Awaited<ReturnType<typeof buildApp>>,
  base: string,
): Promise<Row> {
  const warmedWith = await warmService(base + s.path);
  const serviceCpu = cpuMeter();
  const service = await runAutocannon(base + s.path, connections, duration);
  const serviceCpuUse = serviceCpu(service.completed);
  log(
    `  service : ${service.rps.toFixed(0)} req/s, p50 ${service.p50} ms, p99 ${service.p99} ms; ${serviceCpuUse.line} ` +
      `(after ${warmedWith.toLocaleString('en')} warm-up requests)`,
  );
  const fewConnections =
    s.kind === 'keyword' ? await runAutocannon(base + s.path, KEYWORD_P99.connections, duration) : undefined;
  if (fewConnections)
    log(
      `  service at ${KEYWORD_P99.connections} connections: ${fewConnections.rps.toFixed(0)} req/s, ` +
        `p50 ${fewConnections.p50} ms, p99 ${fewConnections.p99} ms`,
    );
  if (warmup > 0) await runBareSql(bare, queries, connections, warmup);
  const bareCpu = cpuMeter();
  const bareRun = await runBareSql(bare, queries, connections, duration);
  const bareCpuUse = bareCpu(bareRun.completed);
  log(
    `  bare SQL: ${bareRun.rps.toFixed(0)} req/s, p50 ${bareRun.p50.toFixed(1)} ms, p99 ${bareRun.p99.toFixed(1)} ms; ${bareCpuUse.line}`,
  );
  const atRateCpu = cpuMeter();
  const atRate = await runBareSqlAtRate(bare, queries, connections, service.rps, duration);
  const atRateCpuUse = atRateCpu(atRate.completed);
  log(
    `  bare SQL at the service's rate: ${atRate.rps.toFixed(0)} req/s, p99 ${atRate.p99.toFixed(1)} ms; ${atRateCpuUse.line}`,
  );
  const framework = opts.miss ? await withoutFramework(app, base, s.path) : undefined;
  const pgbench: Row['pgbench'] = {};
  for (const mode of pgbenchModes) {
    const run = { url, queries, mode, connections };
    if (warmup > 0) await runPgbench({ ...run, duration: warmup });
    const m = await runPgbench({ ...run, duration });
    pgbench[mode] = m;
    log(
      `  pgbench -M ${mode.padEnd(8)}: ${m.rps.toFixed(0)} tps, p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms`,
    );
  }
  // The p99 goal is absolute: the database's own p99 at that concurrency says what is the machine's.
  const fewMode = LIKE_FOR_LIKE[s.kind];
  const fewConnectionsPgbench =
    fewConnections && pgbenchModes.includes(fewMode)
      ? await runPgbench({ url, queries, mode: fewMode, connections: KEYWORD_P99.connections, duration })
      : undefined;
  if (fewConnectionsPgbench)
    log(
      `  pgbench -M ${fewMode} at ${KEYWORD_P99.connections} connections: ${fewConnectionsPgbench.rps.toFixed(0)} tps, ` +
        `p50 ${fewConnectionsPgbench.p50.toFixed(1)} ms, p99 ${fewConnectionsPgbench.p99.toFixed(1)} ms`,
    );
  const cpu = {
    service: serviceCpuUse.usPerRequest,
    plain: framework?.plain,
    http: framework?.http,
    bare: bareCpuUse.usPerRequest,
    bareAtRate: atRateCpuUse.usPerRequest,
  };
  return {
    name: s.name,
    kind: s.kind,
    service,
    bare: bareRun,
    pgbench,
    cpu,
    fewConnections,
    fewConnectionsPgbench,
  };
}

/** The run with the median rate (or `by`), with every round's failures counted. */
function medianOf(runs: Measurement[], by: (m: Measurement) => number = (m) => m.rps): Measurement {
  return { ...middle(runs, by), failed: runs.reduce((n, m) => n + m.failed, 0) };
}
const medianOfSome = (runs: (Measurement | undefined)[], by?: (m: Measurement) => number) => {
  const present = runs.filter((m): m is Measurement => m !== undefined);
  return present.length ? medianOf(present, by) : undefined;
};

/**
 * `--rounds` of one scenario as one row: each measurement the run with the median rate (its p50 and
 * p99 that run's; at few connections, whose goal is the p99, the run with the median p99), each CPU
 * figure its median. On this 2-core box one run moves by about +-0.05.
 */
function medianRow(runs: Row[]): Row {
  const first = runs[0] as Row;
  const cpuMedian = (f: (r: Row) => number | undefined) => {
    const xs = runs.map(f).filter((x): x is number => x !== undefined);
    return xs.length ? middle(xs, (x) => x) : undefined;
  };
  return {
    name: first.name,
    kind: first.kind,
    service: medianOf(runs.map((r) => r.service)),
    bare: medianOf(runs.map((r) => r.bare)),
    pgbench: Object.fromEntries(
      pgbenchModes.map((m) => [m, medianOfSome(runs.map((r) => r.pgbench[m]))]),
    ) as Row['pgbench'],
    cpu: {
      service: cpuMedian((r) => r.cpu.service) as number,
      plain: cpuMedian((r) => r.cpu.plain),
      http: cpuMedian((r) => r.cpu.http),
      bare: cpuMedian((r) => r.cpu.bare) as number,
      bareAtRate: cpuMedian((r) => r.cpu.bareAtRate) as number,
    },
    fewConnections: medianOfSome(
      runs.map((r) => r.fewConnections),
      (m) => m.p99,
    ),
    fewConnectionsPgbench: medianOfSome(
      runs.map((r) => r.fewConnectionsPgbench),
      (m) => m.p99,
    ),
  };
}

async function main(): Promise<void> {
  log(
    `list-bounties bench: ${rows.toLocaleString('en')} bounties over ${PROJECTS} projects, ${duration}s per run ` +
      `${rounds > 1 ? `(${rounds} rounds in turn, medians printed) ` : ''}` +
      `(+${warmup}s warm-up, the service's repeated to ${SERVICE_WARMUP_REQUESTS.toLocaleString('en')} requests), ${connections} connections, DB pool ${pool}`,
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
      ...(opts.miss ? { BOUNTY_LIST_CACHE_MS: '0' } : {}),
    });
    // The service logs as `npm start` does (LOG_LEVEL info, JSON lines written once per event-loop
    // turn, log-writer.ts), to /dev/null: the CPU of writing each access line is counted, a log
    // collector's is not (a pipe to one costs the service more; bench/README.md).
    const logger = opts.quiet ? undefined : createLogger(config, new TurnWriter(openSync('/dev/null', 'w')));
    app = await buildApp({
      database,
      chain: unavailableChain,
      clock: systemClock,
      config,
      ...(logger ? { logger } : {}),
    });
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
        `\n== ${s.name}: GET ${s.path} -> total ${body.total}${body.total_is_exact === false ? '+' : ''}, ${body.bounties.length} bounties; SQL per request:`,
      );
      log(describeQueries(queries));
      const runs: Row[] = [];
      for (let round = 1; round <= rounds; round++) {
        if (rounds > 1) log(`  -- round ${round} of ${rounds}`);
        runs.push(await measure(s, queries, bare, app, base));
      }
      results.push(medianRow(runs));
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
