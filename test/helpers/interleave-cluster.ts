import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  type WriteStream,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/**
 * Real service processes for the interleaving model test: two (or more) instances started as
 * `npm start` runs them (`node <flags> main.js`), from a private copy of `dist/` taken once, so a
 * rebuild by someone else's test while this file runs (a restart after a SIGKILL loads the code
 * again) cannot swap or half-write the code under it. Each instance's whole output goes to a log
 * file the failure account points at.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const startScript = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start;
const nodeFlags = startScript
  .replace(/^node\s+/, '')
  .split(/\s+/)
  .filter((a) => a.startsWith('--'));

/**
 * Each instance runs under a small sh supervisor (the pattern of src/infra/chain/anvil.ts): a
 * watcher holding the read end of our stdin pipe SIGKILLs the instance when that pipe closes,
 * which the kernel does however this test process dies, so no instance outlives the test. The
 * instance's pid is reported on fd 3; its output is the supervisor's.
 */
const SUPERVISOR = `
exec 4<&0 </dev/null
"$@" 3>&- 4<&- &
c=$!
echo "$c" >&3
exec 3>&-
{ while read -r _; do :; done; kill -KILL "$c"; } <&4 >/dev/null 2>&1 &
w=$!
exec 4<&-
wait "$c"
s=$?
kill -KILL "$w" 2>/dev/null
exit "$s"
`;

const START_TIMEOUT_MS = 60_000;

/**
 * Builds src/ when stale (as `prestart` does) and copies dist/ to a directory under node_modules
 * (so the copy resolves the same packages); a package.json marks its files as ES modules.
 */
export function snapshotDist(): { dir: string; remove(): void } {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'pipe' });
  const dir = join(root, 'node_modules/.cache', `interleave-dist-${process.pid}-${Date.now()}`);
  const stamp = () => {
    const f = join(root, 'dist/.build-stamp');
    return existsSync(f) ? readFileSync(f, 'utf8') : '';
  };
  for (let attempt = 0; ; attempt++) {
    const before = stamp();
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    cpSync(join(root, 'dist'), dir, { recursive: true, filter: (src) => !src.endsWith('.build.lock') });
    // A build that ran meanwhile rewrote dist/: take the copy again.
    if (before !== '' && before === stamp()) break;
    if (attempt >= 5) throw new Error('dist/ kept changing while it was copied; is a build looping?');
    execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'pipe' });
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Instance {
  index: number;
  /** How many times this instance was started (1 = the first start). */
  generation: number;
  url: string;
  /** The supervisor; `pid` is the instance's own process. */
  child: ChildProcess;
  pid: number;
  exited: Promise<number | null>;
  alive: boolean;
}

export interface Cluster {
  instances: Instance[];
  /** The URL of instance `i`, or of a live one when it is down (a balancer's choice). */
  url(i: number): string;
  /** SIGKILL: no shutdown hook runs; resolves once the process is gone. */
  kill(i: number): Promise<void>;
  start(i: number): Promise<Instance>;
  logFiles(): string[];
  stop(): Promise<void>;
}

export async function startCluster(opts: {
  count: number;
  distDir: string;
  logDir: string;
  env: (i: number) => Record<string, string>;
}): Promise<Cluster> {
  mkdirSync(opts.logDir, { recursive: true });
  const instances: Instance[] = [];
  const logs: WriteStream[] = [];
  const files: string[] = [];

  const start = (i: number): Promise<Instance> => {
    const generation = (instances[i]?.generation ?? 0) + 1;
    const file = join(opts.logDir, `instance-${i}.log`);
    if (!logs[i]) {
      logs[i] = createWriteStream(file, { flags: 'a' });
      files[i] = file;
    }
    const log = logs[i] as WriteStream;
    log.write(`\n===== instance ${i} start #${generation} at ${new Date().toISOString()} =====\n`);
    const child = spawn(
      '/bin/sh',
      [
        '-c',
        SUPERVISOR,
        'interleave-instance',
        process.execPath,
        ...nodeFlags,
        join(opts.distDir, 'main.js'),
      ],
      {
        cwd: root,
        env: { ...process.env, PORT: '0', LOG_FORMAT: 'json', ...opts.env(i) },
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      },
    );
    child.stdin?.on('error', () => {});
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let pid = 0;
    let pidText = '';
    (child.stdio[3] as Readable).on('data', (c: Buffer) => {
      pidText += c.toString();
      pid = Number(/^(\d+)\n/.exec(pidText)?.[1] ?? 0);
    });
    const killNow = () => {
      if (pid > 0) signal(pid, 'SIGKILL');
      child.stdin?.end();
    };
    let seen = '';
    let listening = false;
    return new Promise<Instance>((resolve, reject) => {
      const timer = setTimeout(() => {
        killNow();
        reject(
          new Error(`instance ${i} did not listen within ${START_TIMEOUT_MS} ms:\n${seen.slice(-4000)}`),
        );
      }, START_TIMEOUT_MS);
      const onData = (chunk: Buffer) => {
        const text = chunk.toString();
        log.write(text);
        if (listening) return;
        seen += text;
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
        if (!m) return;
        clearTimeout(timer);
        const inst: Instance = { index: i, generation, url: m[1] as string, child, pid, exited, alive: true };
        void exited.then(() => {
          inst.alive = false;
        });
        instances[i] = inst;
        listening = true;
        resolve(inst);
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`instance ${i} exited (${code}) before listening:\n${seen.slice(-4000)}`));
      });
    });
  };

  const kill = async (i: number) => {
    const inst = instances[i];
    if (!inst?.alive) return;
    signal(inst.pid, 'SIGKILL');
    await inst.exited;
  };

  const stop = async () => {
    await Promise.all(
      instances.map(async (inst) => {
        if (!inst.alive) return;
        signal(inst.pid, 'SIGTERM');
        const timer = setTimeout(() => {
          signal(inst.pid, 'SIGKILL');
          inst.child.stdin?.end();
        }, 5_000);
        await inst.exited;
        clearTimeout(timer);
      }),
    );
    await Promise.all(logs.map((l) => new Promise<void>((resolve) => l.end(() => resolve()))));
  };

  // One after the other: the first applies the migrations, as a deployment's first instance does.
  try {
    for (let i = 0; i < opts.count; i++) await start(i);
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    instances,
    url(i) {
      const want = instances[i % instances.length];
      if (want?.alive) return want.url;
      const live = instances.find((x) => x.alive);
      if (!live) throw new Error('no instance is running');
      return live.url;
    },
    kill,
    start,
    logFiles: () => files.filter(Boolean),
    stop,
  };
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}
