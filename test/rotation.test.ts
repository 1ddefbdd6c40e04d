import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rotation } from '../src/lib/rotation.ts';

interface Row {
  id: number;
  key: number;
}

/** `rows` (in key order) read like a keyset query: those with a key after `after`, at most `limit`. */
const reader = (rows: Row[]) => async (after: number | null, limit: number) =>
  rows.filter((r) => after === null || r.key > after).slice(0, limit);

/** Rows in key order, ids unique, keys repeating (a signer's requests) or not. */
const rowsArb = fc
  .array(fc.integer({ min: 0, max: 30 }), { maxLength: 40 })
  .map((keys) => [...keys].sort((a, b) => a - b).map((key, id) => ({ id, key })));

describe('Rotation', () => {
  it('pages of distinct rows, and every key read within any run of ceil(n / limit) turns', async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, fc.integer({ min: 1, max: 12 }), async (rows, limit) => {
        const rotation = new Rotation<number>();
        const read = reader(rows);
        const keys = new Set(rows.map((r) => r.key));
        const pages: Row[][] = [];
        for (let t = 0; t < 3 * Math.ceil(rows.length / limit) + 2; t++) {
          const page = await rotation.next(
            limit,
            read,
            (r) => r.key,
            (r) => r.id,
          );
          expect(page.length).toBe(Math.min(limit, rows.length));
          expect(new Set(page.map((r) => r.id)).size).toBe(page.length);
          pages.push(page);
        }
        // A key's rows past a page's end wait a round; its first row is read within this many turns.
        const span = Math.max(1, Math.ceil(rows.length / limit)) + 1;
        for (let from = 0; from + span <= pages.length; from++) {
          const seen = new Set(pages.slice(from, from + span).flatMap((p) => p.map((r) => r.key)));
          expect(seen).toEqual(keys);
        }
      }),
    );
  });

  it('goes on after the last page even when the rows change in between', async () => {
    const rows = (keys: number[]) => keys.map((key) => ({ id: key, key }));
    const rotation = new Rotation<number>();
    const turn = (keys: number[]) => rotation.next(2, reader(rows(keys)), (r) => r.key);
    expect((await turn([1, 2, 3, 4, 5])).map((r) => r.key)).toEqual([1, 2]);
    // 3 settled, 0 appeared: the next page is after 2, whatever came before it.
    expect((await turn([0, 1, 2, 4, 5])).map((r) => r.key)).toEqual([4, 5]);
    // Nothing after 5: from the first, in the same turn.
    expect((await turn([0, 1, 2, 4, 5])).map((r) => r.key)).toEqual([0, 1]);
    // One row after 1, then the page filled up from the first.
    expect((await turn([0, 1, 2])).map((r) => r.key)).toEqual([2, 0]);
  });
});
