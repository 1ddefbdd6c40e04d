import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rotation } from '../src/lib/rotation.ts';

/** `keys` (sorted, distinct) read like a keyset query: those after `after`, at most `limit`. */
const reader = (keys: number[]) => async (after: number | null, limit: number) =>
  keys.filter((k) => after === null || k > after).slice(0, limit);

describe('Rotation', () => {
  it('reads every key within a round of pages, then starts again from the first', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 12 }),
        async (unsorted, limit) => {
          const keys = [...unsorted].sort((a, b) => a - b);
          const rotation = new Rotation<number>();
          const read = reader(keys);
          const turns = Math.max(1, Math.ceil(keys.length / limit));
          const seen: number[] = [];
          for (let t = 0; t < turns; t++) {
            const page = await rotation.next(limit, read, (k) => k);
            expect(page.length).toBe(Math.min(limit, keys.length - seen.length));
            seen.push(...page);
          }
          expect(seen).toEqual(keys);
          // The next turn is the first page again.
          expect(await rotation.next(limit, read, (k) => k)).toEqual(keys.slice(0, limit));
        },
      ),
    );
  });

  it('goes on after the last page even when the rows change in between', async () => {
    const keys = [1, 2, 3, 4, 5];
    const rotation = new Rotation<number>();
    expect(await rotation.next(2, reader(keys), (k) => k)).toEqual([1, 2]);
    // 3 settled, 0 appeared: the next page is after 2, whatever came before it.
    const changed = [0, 1, 2, 4, 5];
    expect(await rotation.next(2, reader(changed), (k) => k)).toEqual([4, 5]);
    // Nothing after 5: from the first again, in the same turn.
    expect(await rotation.next(2, reader(changed), (k) => k)).toEqual([0, 1]);
  });
});
