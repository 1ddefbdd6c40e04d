import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX, generateApiKey, hashApiKey, isWellFormedApiKey } from '../src/lib/api-key.ts';

describe('api keys', () => {
  it('carry the prefix, at least 32 random bytes of body and a valid checksum', () => {
    const key = generateApiKey();
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
    // 43 base62 characters hold 256 bits.
    expect(key.length).toBe(API_KEY_PREFIX.length + 43 + 6);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('are different every time', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
  });

  it('reject any single-character change through the checksum', () => {
    const key = generateApiKey();
    fc.assert(
      fc.property(
        fc.integer({ min: API_KEY_PREFIX.length, max: key.length - 1 }),
        fc.integer({ min: 1, max: 61 }),
        (pos, shift) => {
          const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
          const c = alphabet[(alphabet.indexOf(key[pos] as string) + shift) % 62] as string;
          const mutated = key.slice(0, pos) + c + key.slice(pos + 1);
          expect(isWellFormedApiKey(mutated)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reject other shapes', () => {
    expect(isWellFormedApiKey('')).toBe(false);
    expect(isWellFormedApiKey('bmk_short')).toBe(false);
    expect(isWellFormedApiKey(generateApiKey().replace(API_KEY_PREFIX, 'xyz_'))).toBe(false);
    expect(isWellFormedApiKey(`${generateApiKey().slice(0, -1)}!`)).toBe(false);
  });

  it('are stored as a SHA-256 hex digest, never as themselves', () => {
    const key = generateApiKey();
    const hash = hashApiKey(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(key.slice(API_KEY_PREFIX.length, 20));
    expect(hashApiKey(key)).toBe(hash);
  });
});
