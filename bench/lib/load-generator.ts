import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Measurement } from './load.ts';

/**
 * Drives `url` with autocannon in a child process (`autocannon-child.mjs`): it shares no event loop
 * with the service, and this process's CPU time (`cpuMeter`) is the service's alone.
 */
export function runAutocannon(
  url: string,
  connections: number,
  duration: number,
  headers: Record<string, string> = {},
): Promise<Measurement> {
  const opts = { url, connections, duration, timeout: 30, headers };
  const child = fork(
    fileURLToPath(new URL('./autocannon-child.mjs', import.meta.url)),
    [JSON.stringify(opts)],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`autocannon exited ${code} without a result`)));
    child.once('message', (m: { error?: string; result?: AutocannonResult }) => {
      if (m.error || !m.result) return reject(new Error(m.error ?? 'autocannon: no result'));
      const r = m.result;
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

interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  latency: { p50: number; p99: number };
}
