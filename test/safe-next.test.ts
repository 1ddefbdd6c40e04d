import { describe, expect, it } from 'vitest';
import { DEFAULT_NEXT, safeNext } from '../src/web/safe-next.ts';

/**
 * `next` (sign-in, sign-up) is resolved as a browser resolves a `Location` against this site and
 * used only when the result is a path here. The probe's examples (issue 26) first.
 */
describe('safeNext', () => {
  it('refuses every dot-segment, percent-encoded, backslash or doubled-slash way off the site', () => {
    const offSite = [
      // The probe's examples: each resolved to `//host`, another site.
      '/.//evil.example',
      '/..//x',
      '/%2e%2e//x',
      // Variations on them.
      '/%2E%2E//x',
      '/.%2e//x',
      '/%2e//evil.example',
      '/a/..//evil.example',
      '/a/b/../..//evil.example',
      '/%2e/%2e%2e//evil',
      '/./\\evil.example',
      '/.\\/evil.example',
      '/\\/evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '//evil.example',
      '///evil.example',
      '/%2f%2fevil.example',
      '/%2F/evil.example',
      '/%5c%5cevil.example',
      '/%5C/evil.example',
      '/%252e%252e//x',
      '/%25252f%25252fevil.example',
      '/\t/evil.example',
      '/%09/evil.example',
      '/ /evil.example',
      '/\r\nLocation: https://evil.example',
      '/x%0d%0aSet-Cookie:%20a=b',
      'https://evil.example/',
      'http:/evil.example',
      'javascript:alert(1)',
      'evil.example',
      '',
      `/${'a'.repeat(2048)}`,
    ];
    for (const next of offSite) expect(safeNext(next), JSON.stringify(next)).toBe(DEFAULT_NEXT);
    for (const next of [undefined, null, 42, ['/bounties']]) expect(safeNext(next)).toBe(DEFAULT_NEXT);
  });

  it('keeps paths on this site, resolved as a browser would', () => {
    const cases: [string, string][] = [
      ['/bounties/bnt_x', '/bounties/bnt_x'],
      ['/console/reviews', '/console/reviews'],
      ['/bounties?status=open#list', '/bounties?status=open#list'],
      ['/bounties?q=a%20b', '/bounties?q=a%20b'],
      ['/bounties?next=//evil.example', '/bounties?next=//evil.example'],
      ['/bounties/../console', '/console'],
      ['/./bounties', '/bounties'],
      ['/%2e%2e/bounties', '/bounties'],
      ['/a//b', '/a//b'],
    ];
    for (const [next, want] of cases) expect(safeNext(next), next).toBe(want);
  });

  it('answers a fixed point: what it returns, it returns again', () => {
    for (const next of ['/bounties/../console', '/%2e%2e/bounties', '/.//evil.example', '/a//b']) {
      const once = safeNext(next);
      expect(safeNext(once)).toBe(once);
    }
  });
});
