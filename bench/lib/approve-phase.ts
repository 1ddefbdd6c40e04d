/**
 * The measured phases of bench/approve.ts: operations run by a number of workers, each timed, with
 * the profile (chain calls, SQL) and this process's CPU time of that phase alone.
 */
import { performance } from 'node:perf_hooks';
import type { Stats } from './approve-profile.ts';

export interface Phase {
  /** Each operation's latency, ms, sorted. */
  ms: number[];
  seconds: number;
  /** This process's CPU time (service, clients, bench), ms. */
  cpuMs: number;
  stats: Stats;
}

/**
 * `n` operations by `concurrency` workers, each taking the next index when its last one is done;
 * the stats (chain calls, SQL) are those of this phase alone.
 */
export async function phase(
  stats: Stats,
  n: number,
  concurrency: number,
  op: (i: number) => Promise<void>,
): Promise<Phase> {
  stats.clear();
  const ms: number[] = [];
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      const s = performance.now();
      await op(i);
      ms.push(performance.now() - s);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const copy: Stats = new Map([...stats].map(([k, v]) => [k, { ...v }]));
  return { ms: ms.sort((a, b) => a - b), seconds, cpuMs: (cpu.user + cpu.system) / 1000, stats: copy };
}

/** The `p` quantile (0..1) of sorted latencies; 0 when there are none. */
export const pct = (sorted: number[], p: number) =>
  sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
