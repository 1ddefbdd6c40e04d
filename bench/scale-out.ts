/**
 * Does throughput add up with instances? GET /api/bounties through one compiled instance, then
 * through two (separate processes, so separate cores) on one PostgreSQL, as docs/scale-out.md
 * runs them. See bench/README.md for how to read it.
 *
 *   npx tsx bench/scale-out.ts [--rows 20000] [--duration 10] [--connections 40] [--rounds 2]
 *                              [--path '/api/bounties?limit=20']
 *
 * PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) hosts a scratch
 * database, seeded as list-bounties.ts does and dropped afterwards. One anvil (the dev chain's
 * start-up: factory deployed) is the deployment's chain for both instances (CHAIN_RPC_URL), and
 * GITHUB_TOKEN points the repository host away (nothing here uses it), as several instances need.
 * autocannon runs in a worker thread of this process; with two instances its connections
 * alternate between them, as a round-robin balancer would send them, without a proxy's own cost.
 * Each phase prints the CPU time of each instance, of PostgreSQL and of this process.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { pino } from 'pino';
import postgres from 'postgres';
import { startDevChain } from '../src/infra/chain/dev-chain.ts';
import { databaseUrl, dropDatabase, recreateDatabase, seed } from './lib/seed.ts';

const root = new URL('..', import.meta.url).pathname;
const { values: opts } = parseArgs({
  options: {
    rows: { type: 'string', default: '20000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '40' },
    rounds: { type: 'string', default: '2' },
    path: { type: 'string', default: '/api/bounties?limit=20' },
  },
});
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DB_NAME = `bm_bench_scale_${process.pid}`;
const CLK_TCK = 100;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** user + system CPU seconds of a process (0 once it is gone). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch {
    return 0;
  }
}

/** Every PostgreSQL server process on this machine (the bench's backends among them). */
function postgresPids(): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        return readFileSync(`/proc/${e}/comm`, 'utf8').trim().startsWith('postgres');
      } catch {
        return false;
      }
    })
    .map(Number);
}

function machineBusy(): () => number {
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

interface Instance {
  url: string;
  child: ChildProcess;
  dataDir: string;
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'bm-scale-'));
  // As `npm start` runs it.
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance exited (${child.exitCode})`);
    const ok = await fetch(`${url}/livez`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child, dataDir };
    if (Date.now() > deadline) throw new Error('instance did not start within 120 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stopInstance(i: Instance): Promise<void> {
  const exited = new Promise((r) => i.child.once('exit', r));
  i.child.kill('SIGTERM');
  await exited;
  rmSync(i.dataDir, { recursive: true, force: true });
}

// bench/lib/autocannon.d.ts declares one URL; autocannon also takes several and spreads its
// connections over them in turn.
type Run = (
  o: { url: string[]; connections: number; duration: number; workers: number; timeout: number },
  cb: (err: Error | null, r: autocannon.Result) => void,
) => unknown;

function load(urls: string[], connections: number, duration: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    (autocannon as unknown as Run)({ url: urls, connections, duration, workers: 1, timeout: 30 }, (err, r) =>
      err ? reject(err) : resolve(r),
    );
  });
}

async function phase(label: string, targets: Instance[], all: Instance[]) {
  const connections = Number(opts.connections);
  const urls = targets.map((t) => `${t.url}${opts.path}`);
  // Warm-up: JIT, prepared statements, connection pools.
  await load(urls, connections, 2);
  const pg = postgresPids();
  const cpu = () => ({
    instances: all.map((i) => cpuSeconds(i.child.pid as number)),
    pg: pg.reduce((s, p) => s + cpuSeconds(p), 0),
    self: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
  });
  const busy = machineBusy();
  const c0 = cpu();
  const r = await load(urls, connections, Number(opts.duration));
  const c1 = cpu();
  const secs = r.duration;
  const rps = r['2xx'] / secs;
  const share = (a: number, b: number) => `${((100 * (b - a)) / secs).toFixed(0)}%`;
  const cpuText = [
    ...all.map((_, i) => `instance ${i + 1} ${share(c0.instances[i] ?? 0, c1.instances[i] ?? 0)}`),
    `PostgreSQL ${share(c0.pg, c1.pg)}`,
    `load generator ${share(c0.self, c1.self)}`,
  ].join(', ');
  const failed = r.errors + r.timeouts + r.non2xx;
  console.log(
    `| ${label} | ${rps.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${failed} | ${busy().toFixed(0)}% | ${cpuText} |`,
  );
  return rps;
}

async function main() {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
  const chainDir = mkdtempSync(join(tmpdir(), 'bm-scale-chain-'));
  const devChain = await startDevChain(chainDir, pino({ level: 'warn' }));
  const o = devChain.options;
  const env = {
    DATABASE_URL: databaseUrl(adminUrl, DB_NAME),
    CHAIN_RPC_URL: o.rpcUrl,
    CHAIN_ID: String(o.chainId),
    FACTORY_ADDRESS: o.factoryAddress,
    TREASURY_ADDRESS: o.treasuryAddress,
    OPERATOR_PRIVATE_KEY: o.operatorKey,
    PAYOUT_PRIVATE_KEY: o.payoutKey,
    WALLET_MASTER_KEY: randomBytes(32).toString('hex'),
    GITHUB_TOKEN: 'bench-unused',
    GITHUB_WEBHOOK_SECRET: 'bench-unused',
    GITHUB_API_URL: 'http://127.0.0.1:9',
    // The seeded projects' tokens do not exist on this chain; one pass of the watcher is enough.
    CHAIN_WATCH_INTERVAL_SECONDS: '3600',
    RATE_LIMIT_PER_IP_PER_MINUTE: '1000000',
    LOG_LEVEL: 'warn',
  };
  const instances: Instance[] = [];
  await recreateDatabase(adminUrl, DB_NAME);
  try {
    // The first applies the migrations; the data goes in before anything is measured.
    instances.push(await startInstance(env));
    const sql = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
    await seed(sql, Number(opts.rows), () => {});
    await sql.end();
    instances.push(await startInstance(env));
    console.log(
      `node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)}; ` +
        `GET ${opts.path} over ${opts.rows} bounties, ${opts.connections} connections, ${opts.duration} s per run\n`,
    );
    console.log(
      '| instances | req/s | p50 ms | p99 ms | failed | machine CPU busy | CPU (100% = one core) |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
    const ratios: number[] = [];
    for (let round = 0; round < Number(opts.rounds); round++) {
      const one = await phase('1', [instances[0] as Instance], instances);
      const two = await phase('2', instances, instances);
      ratios.push(two / one);
    }
    console.log(`\n2 instances / 1 instance: ${ratios.map((r) => r.toFixed(2)).join(', ')}`);
  } finally {
    for (const i of instances) await stopInstance(i);
    await devChain.stop();
    rmSync(chainDir, { recursive: true, force: true });
    await dropDatabase(adminUrl, DB_NAME);
  }
}

await main();
