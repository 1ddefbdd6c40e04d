import { describe, expect, it } from 'vitest';
import { KeyedQueue } from '../src/modules/wallets/wallets.queue.ts';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('KeyedQueue', () => {
  it('runs tasks of one key one at a time, in arrival order', async () => {
    const q = new KeyedQueue();
    const log: string[] = [];
    let running = 0;
    const task = (name: string) => async () => {
      running++;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      running--;
      return name;
    };
    const results = await Promise.all(['a', 'b', 'c'].map((n) => q.run('w', task(n))));
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('lets a failed task pass its error on without blocking the next', async () => {
    const q = new KeyedQueue();
    const failed = q.run('w', async () => {
      throw new Error('boom');
    });
    const next = q.run('w', async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });

  it('runs different keys side by side and forgets idle keys', async () => {
    const q = new KeyedQueue();
    let release: () => void = () => {};
    const blocked = q.run('a', () => new Promise<void>((r) => (release = r)));
    await expect(q.run('b', async () => 'b')).resolves.toBe('b');
    release();
    await blocked;
    await tick();
    expect(q.size).toBe(0);
  });
});
