import { describe, expect, it } from 'vitest';
import { ifNoneMatch } from '../src/infra/http/http-cache.ts';
import { isoTimestamp } from '../src/modules/bounties/bounty-list.columns.ts';

describe('isoTimestamp: PostgreSQL timestamptz text to the API form', () => {
  it('takes the common UTC case apart without a Date', () => {
    expect(isoTimestamp('2026-11-22 12:00:00.123+00')).toBe('2026-11-22T12:00:00.123Z');
  });

  it('agrees with Date for every other form PostgreSQL prints', () => {
    const cases: [string, string][] = [
      ['2026-11-22 12:00:00+00', '2026-11-22T12:00:00.000Z'],
      ['2026-11-22 12:00:00.1+00', '2026-11-22T12:00:00.100Z'],
      ['2026-11-22 12:00:00.12+00', '2026-11-22T12:00:00.120Z'],
      ['2026-11-22 14:00:00.5+02', '2026-11-22T12:00:00.500Z'],
      ['2026-11-22 06:30:00.123-05:30', '2026-11-22T12:00:00.123Z'],
    ];
    for (const [text, iso] of cases) expect(isoTimestamp(text), text).toBe(iso);
  });
});

describe('ifNoneMatch: weak comparison of entity tags', () => {
  const etag = 'W/"abc"';
  it('matches the tag, weak or strong, alone, in a list, or *', () => {
    for (const header of ['W/"abc"', '"abc"', 'W/"x", W/"abc"', '"x","abc"', '*', ' * '])
      expect(ifNoneMatch(header, etag), header).toBe(true);
  });
  it('does not match another tag, a missing header or a prefix', () => {
    for (const header of [undefined, '', 'W/"ab"', '"abcd"', 'abc', 'W/"x"'])
      expect(ifNoneMatch(header, etag), String(header)).toBe(false);
  });
});
