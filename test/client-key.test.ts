import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/infra/config.ts';
import { memoryBudgets } from '../src/infra/http/budget-store.ts';
import { clientKey } from '../src/infra/http/client-key.ts';

describe('clientKey: whose budget an address spends', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('10.0.0.1')).not.toBe(clientKey('10.0.0.2'));
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address, however it is written', () => {
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(clientKey('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('keys an IPv6 address by its /64, whatever the interface bits and however it is written', () => {
    const key = clientKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    for (const same of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0db8:0001:0002:0000:0000:0000:0002',
      '2001:DB8:1:2:a:b:c:d',
      '2001:db8:1:2::10.0.0.1',
      '2001:db8:1:2::1%eth0',
    ])
      expect(clientKey(same), same).toBe(key);
  });

  it('tells apart addresses in different /64s, even next to each other', () => {
    const keys = ['2001:db8:1:2::1', '2001:db8:1:3::1', '2001:db8:0:2::1', '2001:db9:1:2::1', '::1'].map(
      clientKey,
    );
    expect(new Set(keys).size).toBe(keys.length);
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });

  it('never lets an IPv4 address and an IPv6 /64 share a key', () => {
    expect(clientKey('0.0.0.1')).not.toBe(clientKey('::1'));
    expect(clientKey('::ffff:0.0.0.1')).toBe(clientKey('0.0.0.1'));
  });
});

describe('memoryBudgets', () => {
  it('grants exactly what is left to concurrent takes, each answer its own', async () => {
    const store = memoryBudgets();
    const answers = await Promise.all(Array.from({ length: 31 }, () => store.take('k', 1, 30, 60_000)));
    expect(answers.filter((a) => a.ok)).toHaveLength(30);
    expect(answers.at(-1)).toMatchObject({ ok: false, remaining: 0 });
    expect(answers.map((a) => a.remaining).slice(0, 3)).toEqual([29, 28, 27]);
  });

  it('takes all or nothing, and a new window starts once the old one ends', async () => {
    let now = 1_000_000;
    const store = memoryBudgets({ now: () => now });
    expect(await store.take('k', 3, 5, 60_000)).toEqual({ ok: true, remaining: 2, retryAfterSeconds: 60 });
    now += 30_000;
    expect(await store.take('k', 3, 5, 60_000)).toEqual({ ok: false, remaining: 2, retryAfterSeconds: 30 });
    expect(await store.take('k', 2, 5, 60_000)).toMatchObject({ ok: true, remaining: 0 });
    expect((await store.take('other', 1, 5, 60_000)).ok).toBe(true);
    now += 30_000;
    expect(await store.take('k', 5, 5, 60_000)).toMatchObject({ ok: true, remaining: 0 });
  });

  it('holds at most maxKeys windows, dropping ended ones first', async () => {
    let now = 0;
    const store = memoryBudgets({ now: () => now, maxKeys: 10 });
    await store.take('live', 1, 1, 1_000_000);
    for (let i = 0; i < 9; i++) await store.take(`short${i}`, 1, 1, 10);
    now = 100;
    for (let i = 0; i < 5; i++) await store.take(`new${i}`, 1, 1, 1_000_000);
    // The ended windows made room: the live one is still spent.
    expect((await store.take('live', 1, 1, 1_000_000)).ok).toBe(false);
  });
});

describe('the ceiling across keys (config)', () => {
  it('defaults to four keys’ worth and can be set on its own', () => {
    expect(loadConfig({}).rateLimit.keysPerIpPerMinute).toBe(2400);
    expect(loadConfig({ RATE_LIMIT_PER_KEY_PER_MINUTE: '50' }).rateLimit.keysPerIpPerMinute).toBe(200);
    expect(loadConfig({ RATE_LIMIT_KEYS_PER_IP_PER_MINUTE: '70' }).rateLimit.keysPerIpPerMinute).toBe(70);
    expect(() => loadConfig({ RATE_LIMIT_KEYS_PER_IP_PER_MINUTE: '0' })).toThrow(
      /RATE_LIMIT_KEYS_PER_IP_PER_MINUTE/,
    );
  });
});
