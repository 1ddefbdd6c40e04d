import { describe, expect, it } from 'vitest';
import { clipForCookie, MAX_NOTICE_CHARS, MAX_NOTICE_ENCODED } from '../src/web/cookie-text.ts';

/** Issue 26: a notice cut mid surrogate pair made the cookie unencodable ("URI malformed", a 500). */
describe('clipForCookie', () => {
  const wellFormed = (s: string) => {
    expect(() => encodeURIComponent(s)).not.toThrow();
  };

  it('never splits an emoji, however long the text', () => {
    for (const emoji of ['😀', '👩‍💻', '🇫🇷', 'é', '\u{10FFFF}']) {
      for (const n of [1, 199, 200, 201, 400, 1000]) {
        const notice = `You claimed “${emoji.repeat(n)}”. The steps below take it from here.`;
        const clipped = clipForCookie(notice);
        wellFormed(clipped);
        expect([...clipped].length).toBeLessThanOrEqual(MAX_NOTICE_CHARS);
        expect(encodeURIComponent(clipped).length).toBeLessThanOrEqual(MAX_NOTICE_ENCODED);
        expect(notice.startsWith(clipped.replace(/…$/, ''))).toBe(true);
      }
    }
  });

  it('cuts by encoded length too, and keeps short text as it is', () => {
    const text = '😀'.repeat(399);
    const clipped = clipForCookie(text, 400, 120);
    wellFormed(clipped);
    expect(encodeURIComponent(clipped).length).toBeLessThanOrEqual(120);
    expect(clipped.endsWith('…')).toBe(true);
    expect(clipForCookie('Short and plain.')).toBe('Short and plain.');
    expect(clipForCookie('a'.repeat(400))).toBe('a'.repeat(400));
    expect(clipForCookie('a'.repeat(401))).toBe(`${'a'.repeat(399)}…`);
  });

  it('replaces a lone surrogate rather than failing', () => {
    const clipped = clipForCookie('broken \uD83D here');
    wellFormed(clipped);
    expect(clipped).toBe('broken \uFFFD here');
  });
});
