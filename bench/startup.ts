/**
 * Start-up time and idle memory of the real entry point, compiled (`npm start`: node dist/main.js)
 * next to the TypeScript sources through tsx (`npm run start:dev`), on embedded PGlite and on
 * PostgreSQL. See bench/README.md for how to read it.
 *
 *   npx tsx bench/startup.ts [--runs 2] [--idle 5] [--modes compiled,compiled-semi4,tsx]
 *                            [--dbs pglite,postgres]
 *
 * Each run starts a server on a new DATA_DIR (and, on PostgreSQL, a new scratch database on
 * BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, dropped afterwards), then
 * restarts it on the same data: `first` includes migrations and the dev chain's factory deployment,
 * `restart` is what an everyday start costs. Times are from spawn to the first 200 of /livez and
 * of /readyz (database, chain and repository host answering). After `--idle` seconds with no
 * requests it reads VmRSS of the service and, separately, of its children (the anvil dev chain and
 * its supervising shell) from /proc, and the V8 heap from /metrics.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';

const root = new URL('..', import.meta.url).pathname;
const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '2' },
    idle: { type: 'string', default: '5' },
    modes: { type: 'string', default: 'compiled,compiled-semi4,tsx' },
    dbs: { type: 'string', default: 'pglite,postgres' },
  },
});
// `compiled` is `npm start` (package.json); `compiled-semi4` the same with V8's young generation
// capped at 4 MB semi-spaces, as `npm start` ran it until 2026-11-30: the memory that cap saves
// (bench/README.md, "The young generation back to V8's size").
const ENTRIES = {
  compiled: ['dist/main.js'],
  'compiled-semi4': ['--max-semi-space-size=4', 'dist/main.js'],
  tsx: ['--import', 'tsx', 'src/main.ts'],
} as const;
type Mode = keyof typeof ENTRIES;
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Sample {
  livezMs: number;
  readyMs: number;
  rssMb: number;
  heapMb: number;
  childrenMb: number;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** VmRSS of a process in MB, 0 once it is gone. */
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Every descendant of pid (anvil runs under a small sh supervisor), from /proc/<n>/stat. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Exited while we looked.
    }
  }
  const found: number[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const next = [...parentOf].filter(([, ppid]) => frontier.includes(ppid)).map(([p]) => p);
    found.push(...next);
    frontier = next;
  }
  return found;
}

async function until200(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before ${url} answered`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url}: no 200 within ${timeoutMs} ms`);
    await sleep(10);
  }
}

async function heapMb(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? 0) / 2 ** 20;
}

async function measure(mode: Mode, env: Record<string, string>, idleSeconds: number): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...ENTRIES[mode]], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), REPO_HOST_PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  const base = `http://127.0.0.1:${port}`;
  try {
    await until200(`${base}/livez`, child, 120_000);
    const livezMs = performance.now() - started;
    await until200(`${base}/readyz`, child, 120_000);
    const readyMs = performance.now() - started;
    await sleep(idleSeconds * 1000);
    const pid = child.pid as number;
    const heap = await heapMb(base);
    const childrenMb = descendants(pid).reduce((sum, p) => sum + rssMb(p), 0);
    return { livezMs, readyMs, rssMb: rssMb(pid), heapMb: heap, childrenMb };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bm_bench_startup_${process.pid}_${Date.now()}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/** Issue 29's goals for `npm start` on PGlite: to /readyz, and the service's idle RSS. */
const GOALS = { firstReadyMs: 5_000, restartReadyMs: 3_000, idleRssMb: 350 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;

async function main() {
  const runs = Number(opts.runs);
  const idle = Number(opts.idle);
  const modes = opts.modes.split(',') as Mode[];
  const dbs = opts.dbs.split(',') as ('pglite' | 'postgres')[];
  // What `npm start` does first (a no-op when dist/ is up to date).
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
  console.log(
    `node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)}; ` +
      `${runs} run(s) each, RSS read after ${idle} s idle; median of runs\n`,
  );
  console.log(
    '| database | entry | start | /livez ms | /readyz ms | service RSS MB | V8 heap MB | anvil + sh RSS MB |',
  );
  console.log('| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |');
  const verdicts: string[] = [];
  for (const db of dbs) {
    for (const mode of modes) {
      const rows: Record<'first' | 'restart', Sample[]> = { first: [], restart: [] };
      for (let i = 0; i < runs; i++) {
        const dataDir = mkdtempSync(join(tmpdir(), 'bm-startup-'));
        const scratch = db === 'postgres' ? await scratchDatabase() : null;
        const env = { DATA_DIR: dataDir, ...(scratch ? { DATABASE_URL: scratch.url } : {}) };
        try {
          rows.first.push(await measure(mode, env, idle));
          rows.restart.push(await measure(mode, env, idle));
        } finally {
          await scratch?.drop();
          rmSync(dataDir, { recursive: true, force: true });
        }
      }
      for (const [start, samples] of Object.entries(rows)) {
        const m = (k: keyof Sample) => median(samples.map((s) => s[k])).toFixed(0);
        console.log(
          `| ${db} | ${mode} | ${start} | ${m('livezMs')} | ${m('readyMs')} | ${m('rssMb')} | ` +
            `${m('heapMb')} | ${m('childrenMb')} |`,
        );
        if (db !== 'pglite' || mode !== 'compiled') continue;
        const ready = median(samples.map((s) => s.readyMs));
        const rss = median(samples.map((s) => s.rssMb));
        const goal = start === 'first' ? GOALS.firstReadyMs : GOALS.restartReadyMs;
        const pass = (ok: boolean) => (ok ? 'PASS' : 'MISS');
        verdicts.push(
          `npm start on PGlite, ${start}: /readyz ${ready.toFixed(0)} ms < ${goal} ${pass(ready < goal)}; ` +
            `idle RSS ${rss.toFixed(0)} MB < ${GOALS.idleRssMb} ${pass(rss < GOALS.idleRssMb)}`,
        );
      }
    }
  }
  if (verdicts.length > 0) console.log(`\n${verdicts.join('\n')}`);
  console.log(`\nload average after: ${loadavg()[0]?.toFixed(1)}`);
}

await main();
