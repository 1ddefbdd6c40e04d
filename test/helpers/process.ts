import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
// As `npm start` runs it: `node <flags> dist/main.js`, one process, so signals reach our handlers.
const startScript = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  }
).scripts.start;
const nodeArgs = startScript.replace(/^node\s+/, '').split(/\s+/);

let built = false;
/** What `prestart` does before each `npm start`: compiles src/ when it changed since the last build. */
function ensureBuilt(): void {
  if (built) return;
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'ignore' });
  built = true;
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
  exited: Promise<number | null>;
}

/** Runs the service as `npm start` does, on a free port, and waits until it listens. */
export function startServer(env: Record<string, string>): Promise<ServerProcess> {
  ensureBuilt();
  const child = spawn(process.execPath, nodeArgs, {
    cwd: root,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let listening = false;
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      // Matched until it listens only: a busy server's log grows by every request it serves.
      if (listening) return;
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (!m) return;
      listening = true;
      resolve({ child, baseUrl: m[1] as string, output: () => out, exited });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${out}`)));
  });
}

/** Runs the service expecting it to fail at start; resolves with its exit code and output. */
export function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  ensureBuilt();
  const child = spawn(process.execPath, nodeArgs, { cwd: root, env: { ...process.env, PORT: '0', ...env } });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}
