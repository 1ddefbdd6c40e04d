import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { buildApp } from '../../src/app.ts';
import { unavailableChain } from '../../src/infra/chain/chain.ts';
import type { Config } from '../../src/infra/config.ts';
import type { Db } from '../../src/infra/db/client.ts';
import * as schema from '../../src/infra/db/schema.ts';
import { systemClock } from '../../src/lib/clock.ts';

export interface Measurement {
  /** Completed requests (HTTP 2xx, or both SQL statements) per second. */
  rps: number;
  completed: number;
  p50: number;
  p99: number;
  /** Errors, timeouts and non-2xx answers. */
  failed: number;
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
 * or the bare SQL client) kept its event loop; and this process's CPU time per request.
 */
export function cpuMeter(): (requests: number) => string {
  const machine = machineBusy();
  const p0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  return (requests) => {
    const p = process.cpuUsage(p0);
    const elu = performance.eventLoopUtilization(elu0).utilization * 100;
    const processUsPerRequest = (p.user + p.system) / Math.max(1, requests);
    return (
      `machine CPU ${machine().toFixed(0)}% busy, event loop ${elu.toFixed(0)}% busy, ` +
      `process ${processUsPerRequest.toFixed(0)} µs CPU/request`
    );
  };
}

export interface CapturedQuery {
  sql: string;
  params: unknown[];
}

/** Drives `url` with autocannon from a worker thread, so it does not share the service's event loop. */
export function runAutocannon(url: string, connections: number, duration: number): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, workers: 1, timeout: 30 }, (err, r) => {
      if (err) return reject(err);
      resolve({
        rps: r['2xx'] / r.duration,
        completed: r['2xx'],
        p50: r.latency.p50,
        p99: r.latency.p99,
        failed: r.errors + r.timeouts + r.non2xx,
      });
    });
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);

/**
 * `workers` loops, each issuing the request's statements concurrently (as BountiesService.list
 * does with Promise.all) until `duration` seconds have passed. Statements go through the driver
 * call drizzle's postgres-js session makes for them: unsafe(sql, params, { prepare: false }).values().
 */
export async function runBareSql(
  sql: postgres.Sql,
  queries: CapturedQuery[],
  workers: number,
  duration: number,
): Promise<Measurement> {
  const latencies: number[] = [];
  let failed = 0;
  const start = performance.now();
  const end = start + duration * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        await Promise.all(
          queries.map((q) =>
            sql.unsafe(q.sql, q.params as postgres.ParameterOrJSON<never>[], { prepare: false }).values(),
          ),
        );
        latencies.push(performance.now() - t0);
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    completed: latencies.length,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    failed,
  };
}

/**
 * A second instance of the app over a drizzle client that logs its queries. Injecting one request
 * records exactly the SQL and parameters the service runs for it, with no hand-written copy.
 */
export async function createSqlCapture(url: string, config: Config) {
  const client = postgres(url, { max: 2, onnotice: () => {} });
  let log: CapturedQuery[] = [];
  const db = drizzle({
    client,
    schema,
    logger: { logQuery: (query, params) => log.push({ sql: query, params }) },
  }) as unknown as Db;
  const database = {
    db,
    kind: 'postgres' as const,
    listen: async (channel: string, onNotify: () => void) =>
      (await client.listen(channel, () => onNotify())).unlisten,
    close: () => client.end({ timeout: 5 }),
  };
  const app = await buildApp({ database, chain: unavailableChain, clock: systemClock, config });
  return {
    async capture(
      path: string,
    ): Promise<{ queries: CapturedQuery[]; body: { total: number; bounties: unknown[] } }> {
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
