import { describe, expect, it } from 'vitest';
import { type FoundSession, RECENT_SESSION_MS, RecentSessions } from '../src/web/recent-sessions.ts';
import { TestClock } from './helpers/clock.ts';

const session = (hash: string, expiresAt = new Date('2100-01-01')): FoundSession => ({
  session: { agentId: `agent-${hash}`, agentName: hash, csrfToken: 'c' },
  expiresAt,
});

/** A database stand-in for `listen`: the test fires its notifications and its (re)connections. */
function fakeListener() {
  const handlers: { notify: () => void; connected: () => void }[] = [];
  return {
    database: {
      listen: async (_channel: string, notify: () => void, connected?: () => void) => {
        handlers.push({ notify, connected: connected ?? (() => {}) });
        return async () => {};
      },
    },
    notify: () => {
      for (const h of handlers) h.notify();
    },
    connect: () => {
      for (const h of handlers) h.connected();
    },
  };
}

function setup(read: (hash: string) => Promise<FoundSession | null> = async (h) => session(h)) {
  const clock = new TestClock();
  const reads: string[] = [];
  const recent = new RecentSessions(clock, (hash) => {
    reads.push(hash);
    return read(hash);
  });
  return { clock, reads, recent };
}

describe('RecentSessions', () => {
  it('keeps nothing until its listener is connected, nor after close', async () => {
    const { reads, recent } = setup();
    await recent.find('a');
    await recent.find('a');
    expect(reads).toEqual(['a', 'a']);
    const l = fakeListener();
    await recent.listen(l.database);
    await recent.find('a');
    expect(reads).toHaveLength(3);
    l.connect();
    await recent.find('a');
    await recent.find('a');
    expect(reads).toHaveLength(4);
    await recent.close();
    await recent.find('a');
    expect(reads).toHaveLength(5);
  });

  it('reads a session once for concurrent pages, again after the bound, a notification or a reconnection', async () => {
    const { clock, reads, recent } = setup();
    const l = fakeListener();
    await recent.listen(l.database);
    l.connect();
    const [x, y] = await Promise.all([recent.find('a'), recent.find('a')]);
    expect(x).toBe(y);
    expect(reads).toEqual(['a']);
    clock.advance(RECENT_SESSION_MS - 1);
    expect(await recent.find('a')).toBe(x);
    clock.advance(1);
    expect(await recent.find('a')).not.toBe(x);
    expect(reads).toEqual(['a', 'a']);
    l.notify();
    await recent.find('a');
    l.connect();
    await recent.find('a');
    expect(reads).toEqual(['a', 'a', 'a', 'a']);
  });

  it('keeps neither unknown tokens nor failed reads', async () => {
    let fail = true;
    const { reads, recent } = setup(async (h) => {
      if (h === 'gone') return null;
      if (fail) throw new Error('connection lost');
      return session(h);
    });
    const l = fakeListener();
    await recent.listen(l.database);
    l.connect();
    expect(await recent.find('gone')).toBeNull();
    expect(await recent.find('gone')).toBeNull();
    await expect(recent.find('b')).rejects.toThrow('connection lost');
    fail = false;
    expect((await recent.find('b'))?.session.agentId).toBe('agent-b');
    expect(reads).toEqual(['gone', 'gone', 'b', 'b']);
  });

  it('keeps nothing when LISTEN is refused', async () => {
    const { reads, recent } = setup();
    const refused = { listen: async () => Promise.reject(new Error('LISTEN refused')) };
    await expect(recent.listen(refused)).rejects.toThrow('LISTEN refused');
    await recent.find('a');
    await recent.find('a');
    expect(reads).toEqual(['a', 'a']);
  });

  it('holds at most 10,000 sessions, pushing out the one read longest ago', async () => {
    const { reads, recent } = setup();
    const l = fakeListener();
    await recent.listen(l.database);
    l.connect();
    for (let i = 0; i <= 10_000; i++) await recent.find(`s${i}`);
    expect(reads).toHaveLength(10_001);
    await recent.find('s10000');
    await recent.find('s1');
    expect(reads).toHaveLength(10_001);
    await recent.find('s0');
    expect(reads.at(-1)).toBe('s0');
  });
});
