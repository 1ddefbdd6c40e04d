import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { buildApp } from '../../src/app.ts';
import { unavailableChain } from '../../src/infra/chain/unavailable-chain.ts';
import type { Config } from '../../src/infra/config.ts';
import type { Db } from '../../src/infra/db/client.ts';
import { withNamedStatements } from '../../src/infra/db/named-statements.ts';
import * as schema from '../../src/infra/db/schema.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { threadSwitches } from './switches.ts';

export interface Measurement {
  /** Completed requests (HTTP 2xx, or both SQL statements) per second. */
  rps: number;
  completed: number;
  p50: number;
  p99: number;
  /** Errors, timeouts and non-2xx answers. */
  failed: number;
}

/** The middle of `xs` by `key` (the lower middle one of an even count): a median that is one of them. */
export function middle<T>(xs: readonly T[], key: (x: T) => number): T {
  const sorted = [...xs].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)] as T;
}

/** Share (%) of all cores busy, any process, between this call and calling the returned function. */
export function machineBusy(): () => number {
  const sample = () =>
    cpus().reduce(
      (acc, c) => {
        const busy = c.times.user + c.times.nice + c.times.sys + c.times.irq;
        return { busy: acc.busy + busy, total: acc.total + busy + c.times.idle };
      },
      { busy: 0, total: 0 },
    );
  const m0 = sample();
  return () => {
    const m1 = sample();
    return (100 * (m1.busy - m0.busy)) / Math.max(1, m1.total - m0.total);
  };
}

/**
 * CPU use over a run: the whole machine's busy share; how busy this process's main thread (the service,
 * or the bare SQL client) kept its event loop; this process's CPU time per request; and (on Linux) how
 * often per request the main thread slept and was preempted, the costs a server pays on top of its
 * code that a loop over the driver does not (bench/README.md, "A sixth box"). The load generator
 * runs in a process of its own (`runAutocannon`), so that time is the service's alone.
 */
export function cpuMeter(): (requests: number) => {
  line: string;
  usPerRequest: number;
  eventLoopBusy: number;
} {
  const machine = machineBusy();
  const p0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const s0 = threadSwitches();
  return (requests) => {
    const p = process.cpuUsage(p0);
    const elu = performance.eventLoopUtilization(elu0).utilization * 100;
    const n = Math.max(1, requests);
    const usPerRequest = (p.user + p.system) / n;
    const s1 = threadSwitches();
    const switches =
      s0 && s1
        ? `; main thread ${((s1.sleeps - s0.sleeps) / n).toFixed(2)} sleeps, ` +
          `${((s1.preempted - s0.preempted) / n).toFixed(2)} preemptions/request`
        : '';
    return {
      usPerRequest,
      eventLoopBusy: elu,
      line:
        `machine CPU ${machine().toFixed(0)}% busy, event loop ${elu.toFixed(0)}% busy, ` +
        `process ${usPerRequest.toFixed(0)} µs CPU/request${switches}`,
    };
  };
}

export interface CapturedQuery {
  sql: string;
  params: unknown[];
  /** Sent as a named prepared statement (drizzle's `.prepare(name)`), not an unnamed one. */
  prepare: boolean;
}

export { runAutocannon } from './load-generator.ts';

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);

/**
 * As the list sends its statements (src/infra/db/statement.ts): the extended protocol, with or without
 * parameters (postgres-js would send a statement without parameters as a simple Query; its types
 * do not declare the option).
 */
const extended = (prepare: boolean): postgres.UnsafeQueryOptions =>
  ({ prepare, simple: false }) as postgres.UnsafeQueryOptions;

/**
 * One request's statements, issued concurrently (as BountiesService.list does with Promise.all),
 * each through the driver call the list makes for it (statement.ts): unsafe(sql, params, { prepare
 * }).values(), named prepared or unnamed as the service sent it. Records the latency or a failure.
 */
function bareRequester(sql: postgres.Sql, queries: CapturedQuery[]) {
  const latencies: number[] = [];
  let failed = 0;
  const start = performance.now();
  return {
    async request(): Promise<void> {
      const t0 = performance.now();
      try {
        await Promise.all(
          queries.map((q) =>
            sql.unsafe(q.sql, q.params as postgres.ParameterOrJSON<never>[], extended(q.prepare)).values(),
          ),
        );
        latencies.push(performance.now() - t0);
      } catch {
        failed++;
      }
    },
    measurement(): Measurement {
      const elapsed = (performance.now() - start) / 1000;
      latencies.sort((a, b) => a - b);
      return {
        rps: latencies.length / elapsed,
        completed: latencies.length,
        p50: percentile(latencies, 0.5),
        p99: percentile(latencies, 0.99),
        failed,
      };
    },
  };
}

/** `workers` loops, each issuing one request after another until `duration` seconds have passed. */
export async function runBareSql(
  sql: postgres.Sql,
  queries: CapturedQuery[],
  workers: number,
  duration: number,
): Promise<Measurement> {
  const bare = bareRequester(sql, queries);
  const end = performance.now() + duration * 1000;
  const worker = async () => {
    while (performance.now() < end) await bare.request();
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return bare.measurement();
}

/**
 * The bare driver at a given rate instead of flat out: requests (each the request's statements,
 * run as `runBareSql` runs them) start at `rate` a second, spread over 1 ms ticks, with at most
 * `maxInFlight` running (the service's connections). CPU per request depends on the load: flat
 * out, 50 requests in flight share each socket write and read, which a loop at the service's own
 * rate shares less. Driven at the rate the service reached, it is the like-for-like baseline for
 * the service's CPU per request.
 */
export async function runBareSqlAtRate(
  sql: postgres.Sql,
  queries: CapturedQuery[],
  maxInFlight: number,
  rate: number,
  duration: number,
): Promise<Measurement> {
  const bare = bareRequester(sql, queries);
  let inFlight = 0;
  let due = 0;
  let last = performance.now();
  const end = last + duration * 1000;
  while (performance.now() < end) {
    await new Promise((r) => setTimeout(r, 1));
    const now = performance.now();
    due += ((now - last) * rate) / 1000;
    last = now;
    for (; due >= 1 && inFlight < maxInFlight; due--) {
      inFlight++;
      void bare.request().finally(() => inFlight--);
    }
  }
  while (inFlight > 0) await new Promise((r) => setTimeout(r, 1));
  return bare.measurement();
}

/**
 * A second instance of the app over a drizzle client that logs its queries. Injecting one request
 * records exactly the SQL and parameters the service runs for it, with no hand-written copy.
 */
export async function createSqlCapture(url: string, config: Config) {
  const client = postgres(url, { max: 2, onnotice: () => {} });
  let log: CapturedQuery[] = [];
  // As the service opens it (named statements for drizzle's queries with parameters).
  const db = drizzle({ client: withNamedStatements(client), schema }) as unknown as Db;
  // Every statement reaches the driver here, with the `prepare` flag the service sends it with.
  const unsafe = client.unsafe.bind(client);
  client.unsafe = ((query: string, params?: unknown[], options?: { prepare?: boolean }) => {
    log.push({ sql: query, params: params ?? [], prepare: options?.prepare ?? false });
    return unsafe(query, params as postgres.ParameterOrJSON<never>[], options);
  }) as typeof client.unsafe;
  const database = {
    db,
    kind: 'postgres' as const,
    listen: async (channel: string, onNotify: () => void) =>
      (await client.listen(channel, () => onNotify())).unlisten,
    close: () => client.end({ timeout: 5 }),
  };
  const app = await buildApp({ database, chain: unavailableChain, clock: systemClock, config });
  return {
    async capture(path: string): Promise<{
      queries: CapturedQuery[];
      body: { total: number; total_is_exact?: boolean; bounties: unknown[] };
    }> {
      log = [];
      const res = await app.inject({ method: 'GET', url: path });
      if (res.statusCode !== 200) throw new Error(`GET ${path} answered ${res.statusCode}: ${res.body}`);
      return { queries: log, body: res.json() };
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export type PgbenchMode = 'prepared' | 'extended' | 'simple';
export const PGBENCH_MODES: readonly PgbenchMode[] = ['prepared', 'extended', 'simple'];

/**
 * Extended and prepared pgbench turn every `:name` into a bind parameter, even inside a string literal
 * (`'[[:punct:]]+'`). Such a literal is spelt with chr(58) for its colons instead, which PostgreSQL
 * folds back into the same constant when it plans the statement.
 */
function hideColons(sql: string): string {
  return sql.replace(/'((?:[^']|'')*)'/g, (literal, body: string) =>
    /:[A-Za-z_]/.test(body)
      ? `(${body
          .split(':')
          .map((part) => `'${part}'`)
          .join(' || chr(58) || ')})`
      : literal,
  );
}

/**
 * The captured statements as a pgbench custom script, one transaction = every statement of one request,
 * run one after another on one connection. `$n` becomes `:pn`; numbers are `\set` in the script,
 * anything else is a `-D` variable. pgbench substitutes variables as text in simple mode (so a string
 * is passed there as a quoted literal) and as bind parameters in extended and prepared mode.
 */
export function pgbenchScript(
  queries: CapturedQuery[],
  mode: PgbenchMode,
): { script: string; defines: string[] } {
  const sets: string[] = [];
  const defines: string[] = [];
  const statements = queries.map((q, qi) => {
    q.params.forEach((value, pi) => {
      const name = `q${qi}p${pi + 1}`;
      if (typeof value === 'number' && Number.isInteger(value)) sets.push(`\\set ${name} ${value}`);
      else {
        const text = String(value);
        defines.push(`${name}=${mode === 'simple' ? `'${text.replace(/'/g, "''")}'` : text}`);
      }
    });
    // Highest numbers first, so that $1 does not eat the start of $10.
    let text = q.sql.replace(/\s+/g, ' ');
    if (mode !== 'simple') text = hideColons(text);
    for (let pi = q.params.length; pi >= 1; pi--) text = text.replaceAll(`$${pi}`, `:q${qi}p${pi}`);
    return `${text};`;
  });
  return { script: `${[...sets, ...statements].join('\n')}\n`, defines };
}

/**
 * The real pgbench binary on the captured statements: `-c connections -j 2 -T duration -M mode`,
 * every transaction logged (-l) so that p50/p99 come from the same per-transaction latencies as
 * the other runs.
 */
export async function runPgbench(opts: {
  url: string;
  queries: CapturedQuery[];
  mode: PgbenchMode;
  connections: number;
  duration: number;
  binary?: string;
}): Promise<Measurement> {
  const dir = await mkdtemp(join(tmpdir(), 'bm-pgbench-'));
  try {
    const { script, defines } = pgbenchScript(opts.queries, opts.mode);
    const file = join(dir, 'list.sql');
    await writeFile(file, script);
    const args = [
      ...['-n', '-f', file, '-M', opts.mode, '-c', String(opts.connections)],
      ...['-j', String(Math.min(2, opts.connections)), '-T', String(opts.duration)],
      ...['-l', '--log-prefix', join(dir, 'tx')],
      ...defines.flatMap((d) => ['-D', d]),
      opts.url, // the last argument: the database (`-d` would be --debug)
    ];
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(opts.binary ?? 'pgbench', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (b: Buffer) => {
        text += b;
      });
      child.stderr.on('data', (b: Buffer) => {
        text += b;
      });
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve(text) : reject(new Error(`pgbench exited ${code}:\n${text}\n${script}`)),
      );
    });
    // A run too short to finish one transaction (a warm-up on a busy box) prints no tps: 0.
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1] ?? '0');
    const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? '0');
    const latencies: number[] = [];
    for (const name of await readdir(dir)) {
      if (!name.startsWith('tx.')) continue;
      for (const line of (await readFile(join(dir, name), 'utf8')).split('\n')) {
        // client_id transaction_no time_us script_no time_epoch time_us
        const us = Number(line.split(' ')[2]);
        if (line && Number.isFinite(us)) latencies.push(us / 1000);
      }
    }
    latencies.sort((a, b) => a - b);
    return {
      rps: tps,
      completed: latencies.length,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      failed,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
