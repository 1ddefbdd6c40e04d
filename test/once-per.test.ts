import { expect, it } from 'vitest';
import { OncePer } from '../src/lib/once-per.ts';

it('says a key once per period, again after it, at once after forget, and stays bounded', () => {
  const once = new OncePer(60_000, 2);
  expect(once.due('a', 0)).toBe(true);
  expect(once.due('a', 59_999)).toBe(false);
  expect(once.due('b', 1)).toBe(true);
  expect(once.due('a', 60_000)).toBe(true);
  once.forget('b');
  expect(once.due('b', 2)).toBe(true);
  // A third key past the bound forgets the others: each is said once more, never never.
  expect(once.due('c', 3)).toBe(true);
  expect(once.due('a', 4)).toBe(true);
});
