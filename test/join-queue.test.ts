import { describe, expect, it } from 'vitest';
import { JoinQueue } from '../src/lib/join-queue.ts';

const tick = () => new Promise((r) => setImmediate(r));

describe('JoinQueue', () => {
  it('runs one at a time per key, and a burst joins the run waiting to start', async () => {
    const runs: string[][] = [];
    const gates: Array<() => void> = [];
    const q = new JoinQueue<Set<string>, number>(
      async (_key, input) => {
        runs.push([...input]);
        await new Promise<void>((r) => gates.push(r));
        return runs.length;
      },
      (into, more) => {
        for (const x of more) into.add(x);
      },
    );
    const first = q.run('p', new Set(['a']));
    await tick();
    // The first run is in progress: these three wait as one.
    const joined = [q.run('p', new Set(['b'])), q.run('p', new Set(['c'])), q.run('p', new Set(['b', 'd']))];
    await tick();
    expect(runs).toEqual([['a']]);
    gates.shift()?.();
    expect(await first).toBe(1);
    await tick();
    expect(runs).toEqual([['a'], ['b', 'c', 'd']]);
    gates.shift()?.();
    expect(await Promise.all(joined)).toEqual([2, 2, 2]);
  });

  it('keys run side by side, and a failed run fails only its callers', async () => {
    const q = new JoinQueue<string[], string>(
      async (key, input) => {
        if (key === 'bad') throw new Error('read failed');
        return `${key}:${input.join(',')}`;
      },
      (into, more) => {
        into.push(...more);
      },
    );
    const bad = q.run('bad', ['x']);
    const good = q.run('good', ['y']);
    await expect(bad).rejects.toThrow('read failed');
    expect(await good).toBe('good:y');
    // The key's queue goes on after a failure.
    const bad2 = q.run('bad', ['z']);
    await expect(bad2).rejects.toThrow('read failed');
    expect(await q.run('good', ['w'])).toBe('good:w');
  });
});
