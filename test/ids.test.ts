import { describe, expect, it } from 'vitest';
import { ID_PREFIXES, isId, newId } from '../src/lib/ids.ts';

describe('ids', () => {
  it('carry the prefix of their kind over a UUIDv7', () => {
    for (const [kind, prefix] of Object.entries(ID_PREFIXES)) {
      const id = newId(kind as keyof typeof ID_PREFIXES);
      expect(id).toMatch(new RegExp(`^${prefix}_[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$`));
      expect(isId(kind as keyof typeof ID_PREFIXES, id)).toBe(true);
    }
  });

  it('sort in creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => newId('event'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('start with the creation time in milliseconds', () => {
    const before = Date.now();
    const id = newId('bounty');
    const ms = Number.parseInt(id.slice(4, 16), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now() + 5);
  });

  it('are told apart by kind and shape', () => {
    const bounty = newId('bounty');
    expect(isId('project', bounty)).toBe(false);
    expect(isId('bounty', bounty.toUpperCase())).toBe(false);
    expect(isId('bounty', `${bounty}0`)).toBe(false);
    expect(isId('bounty', "bnt_' or 1=1 --")).toBe(false);
  });
});
