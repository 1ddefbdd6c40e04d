import { describe, expect, it } from 'vitest';
import { parseSwitches, threadSwitches } from '../bench/lib/switches.ts';

// The list bench's per-request context switches (bench/lib/switches.ts, read by cpuMeter in load.ts).
describe("a thread's context switches", () => {
  it('reads both counts from a status text, and neither from a text without them', () => {
    const status =
      'Name:\tnode\nState:\tR (running)\nvoluntary_ctxt_switches:\t1234\nnonvoluntary_ctxt_switches:\t56\n';
    expect(parseSwitches(status)).toEqual({ sleeps: 1234, preempted: 56 });
    expect(parseSwitches('Name:\tnode\nnonvoluntary_ctxt_switches:\t56\n')).toBeNull();
    expect(parseSwitches('voluntary_ctxt_switches:\tmany\nnonvoluntary_ctxt_switches:\t56\n')).toBeNull();
  });

  it.runIf(process.platform === 'linux')('counts the main thread sleeping while it waits', async () => {
    const before = threadSwitches();
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    const after = threadSwitches();
    expect(before).not.toBeNull();
    expect((after?.sleeps ?? 0) - (before?.sleeps ?? 0)).toBeGreaterThanOrEqual(3);
  });
});
