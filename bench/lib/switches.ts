import { readFileSync } from 'node:fs';

/** A thread's context switches: the times it slept (voluntary) and the times it was preempted. */
export interface Switches {
  sleeps: number;
  preempted: number;
}

/** The switch counts of a Linux `/proc/<pid>/task/<tid>/status` text; null without them. */
export function parseSwitches(status: string): Switches | null {
  const count = (key: string) => new RegExp(`^${key}:\\s*(\\d+)$`, 'm').exec(status)?.[1];
  const sleeps = count('voluntary_ctxt_switches');
  const preempted = count('nonvoluntary_ctxt_switches');
  return sleeps === undefined || preempted === undefined
    ? null
    : { sleeps: Number(sleeps), preempted: Number(preempted) };
}

/** The calling thread's (the main thread's: the service, or the bare SQL client) switches; null off Linux. */
export function threadSwitches(): Switches | null {
  try {
    return parseSwitches(readFileSync('/proc/thread-self/status', 'utf8'));
  } catch {
    return null;
  }
}
