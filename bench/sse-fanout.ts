/**
 * 1,000 concurrent SSE clients on one instance: delivery latency from commit, and the server's
 * CPU per event per client, against baselines from the same run (the same events with no client,
 * then with one). See bench/README.md.
 *
 *   npx tsx bench/sse-fanout.ts [--clients 1000] [--events 100] [--interval 50]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/sse-fanout.ts
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { unavailableChain } from '../src/infra/chain/unavailable-chain.ts';
import { loadConfig } from '../src/infra/config.ts';
import { type Database, openDatabase } from '../src/infra/db/client.ts';
import { systemClock } from '../src/lib/clock.ts';
import { databaseUrl, dropDatabase, recreateDatabase } from './lib/seed.ts';

const { values: opts } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    events: { type: 'string', default: '100' },
    interval: { type: 'string', default: '50' },
  },
});
const CLIENTS = Number(opts.clients);
const EVENTS = Number(opts.events);
const INTERVAL_MS = Number(opts.interval);
// Long enough for every client to have every event: the target is p99 under 1 s.
const SETTLE_MS = 2_000;
const pgUrl = process.env.DATABASE_URL;
const DB_NAME = 'bm_bench_sse';

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The soft open-files limit: each client is a socket here and one in the client process. */
function openFilesLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  return Number(line?.split(/\s+/)[3] ?? Number.NaN);
}

class Clients {
  private constructor(private readonly child: ChildProcess) {}

  static async open(url: string, n: number): Promise<Clients> {
    const child = fork(new URL('./lib/sse-clients.ts', import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
    });
    const c = new Clients(child);
    await c.ask({ cmd: 'open', url: `${url}/api/events`, n }, 'opened');
    return c;
  }

  /** Receive times of each event by seq, since the last report. */
  async report(): Promise<Record<string, number[]>> {
    return (await this.ask({ cmd: 'report' }, 'received')) as Record<string, number[]>;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.send({ cmd: 'close' });
    });
  }

  private ask(msg: unknown, key: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const onMessage = (m: Record<string, unknown>) => {
        if (!(key in m)) return;
        this.child.off('message', onMessage);
        resolve(m[key]);
      };
      this.child.on('message', onMessage);
      this.child.once('error', reject);
      this.child.send(msg as object);
    });
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

interface PhaseResult {
  label: string;
  clients: number;
  cpuUs: number;
  latencies: number[];
  lost: number;
}

async function main() {
  const limit = openFilesLimit();
  if (limit < CLIENTS + 200) {
    throw new Error(
      `ulimit -n is ${limit}; ${CLIENTS} clients need at least ${CLIENTS + 200}. Raise it first.`,
    );
  }
  let database: Database;
  let label: string;
  if (pgUrl) {
    await recreateDatabase(pgUrl, DB_NAME);
    database = await openDatabase({ kind: 'postgres', url: databaseUrl(pgUrl, DB_NAME), poolSize: 10 });
    label = `PostgreSQL ${pgUrl.replace(/\/\/[^@]*@/, '//')} (scratch ${DB_NAME})`;
  } else {
    database = await openDatabase({ kind: 'pglite-memory' });
    label = 'PGlite (in memory)';
  }
  const config = loadConfig({
    RATE_LIMIT_PER_IP_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_KEY_PER_MINUTE: '1000000',
    // Every client connects from this machine without a key: one client IP.
    EVENTS_MAX_STREAMS_PER_CLIENT: String(CLIENTS + 1),
  });
  const app = await buildApp({ database, chain: unavailableChain, clock: systemClock, config });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(`SSE fan-out on ${label}: ${EVENTS} events ${INTERVAL_MS} ms apart per phase`);
  console.log(
    `open files limit (ulimit -n): ${limit}; cores: ${availableParallelism()}; node ${process.version}`,
  );

  let seq = 0;
  /** One event in its own transaction, as a service records it; returns when it has committed. */
  const emit = async (): Promise<[number, number]> => {
    const s = ++seq;
    await database.db.transaction((tx) =>
      app.services.activity.record(tx, { type: 'project.created', data: { seq: s } }),
    );
    return [s, now()];
  };

  const phase = async (name: string, clients: Clients | null, n: number): Promise<PhaseResult> => {
    if (clients) {
      // Warm-up: every stream is registered and live before anything is measured.
      await emit();
      await sleep(SETTLE_MS);
      await clients.report();
    }
    const commits = new Map<number, number>();
    const cpu = process.cpuUsage();
    for (let i = 0; i < EVENTS; i++) {
      const [s, at] = await emit();
      commits.set(s, at);
      await sleep(INTERVAL_MS);
    }
    await sleep(SETTLE_MS);
    const used = process.cpuUsage(cpu);
    const latencies: number[] = [];
    let lost = 0;
    if (clients) {
      const received = await clients.report();
      for (const [s, at] of commits) {
        const times = received[s] ?? [];
        lost += n - times.length;
        for (const t of times) latencies.push(t - at);
      }
    }
    latencies.sort((a, b) => a - b);
    return { label: name, clients: n, cpuUs: used.user + used.system, latencies, lost };
  };

  const results: PhaseResult[] = [];
  results.push(await phase('writes only', null, 0));
  const one = await Clients.open(url, 1);
  results.push(await phase('one client', one, 1));
  await one.close();
  const many = await Clients.open(url, CLIENTS);
  results.push(await phase(`${CLIENTS} clients`, many, CLIENTS));
  await many.close();

  const ms = (x: number) => (Number.isNaN(x) ? '-' : `${x.toFixed(1)} ms`);
  console.log('\n| phase | clients | server CPU per event | latency p50 | p99 | max | lost |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    const cpuPerEvent = r.cpuUs / EVENTS;
    const max = r.latencies.at(-1) ?? Number.NaN;
    console.log(
      `| ${r.label} | ${r.clients} | ${(cpuPerEvent / 1000).toFixed(2)} ms | ${ms(percentile(r.latencies, 50))} | ` +
        `${ms(percentile(r.latencies, 99))} | ${ms(max)} | ${r.lost} |`,
    );
  }
  const [, single, all] = results as [PhaseResult, PhaseResult, PhaseResult];
  const perClient = (all.cpuUs - single.cpuUs) / (EVENTS * (CLIENTS - 1));
  console.log(
    `\nfan-out cost: ${perClient.toFixed(2)} µs of server CPU per event per client ` +
      `((CPU with ${CLIENTS} clients - CPU with one) / (${EVENTS} events x ${CLIENTS - 1} clients))`,
  );
  const p99 = percentile(all.latencies, 99);
  console.log(
    `target p99 < 1000 ms with ${CLIENTS} clients: ${p99 < 1000 && all.lost === 0 ? 'met' : 'NOT met'}`,
  );

  await app.close();
  await database.close();
  if (pgUrl) await dropDatabase(pgUrl, DB_NAME);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
