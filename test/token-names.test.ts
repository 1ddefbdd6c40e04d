import { describe, expect, it } from 'vitest';
import { safeText } from '../src/infra/chain/evm-errors.ts';
import { fitUtf8, TOKEN_TEXT_MAX_BYTES } from '../src/infra/chain/token-text.ts';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

describe('fitUtf8', () => {
  it('leaves text that fits untouched, trailing spaces included', () => {
    for (const text of ['Widget', 'x'.repeat(31), '界'.repeat(10), 'ends with a space ']) {
      expect(fitUtf8(text)).toBe(text);
    }
  });

  it.each([
    ['ASCII', 'Fast JSON parser for embedded systems', 'Fast JSON parser for embedded s'],
    ['ASCII cut at a space', 'Fast JSON parser for embedded  systems', 'Fast JSON parser for embedded'],
    // 3 bytes each: ten fit in 31, the eleventh would not.
    ['CJK', '快速嵌入式系统解析器'.repeat(10), '快速嵌入式系统解析器'],
    // 2 bytes each, right to left.
    ['Arabic', 'محلل JSON سريع للأنظمة المدمجة', 'محلل JSON سريع للأن'],
    // The family is one grapheme of 25 bytes (four people joined by ZWJs): it goes whole.
    ['emoji', '🚀 Rocket launch 👨‍👩‍👧‍👦 family', '🚀 Rocket launch'],
    // A flag is two regional indicators (8 bytes); half a flag would be another letter.
    ['flags', '🇯🇵🇫🇷🇩🇪🇧🇷🇮🇳 and more', '🇯🇵🇫🇷🇩🇪'],
    // One grapheme longer than the limit: cut between code points rather than come back empty.
    ['one huge grapheme', `Z${'\u0301'.repeat(40)}algo`, `Z${'\u0301'.repeat(15)}`],
  ])('cuts %s on a grapheme boundary within the limit', (_, text, expected) => {
    const fitted = fitUtf8(text);
    expect(fitted).toBe(expected);
    expect(bytes(fitted)).toBeLessThanOrEqual(TOKEN_TEXT_MAX_BYTES);
    expect(text.startsWith(fitted)).toBe(true);
    expect(Buffer.from(fitted, 'utf8').toString('utf8')).toBe(fitted);
  });

  it('never exceeds the limit for any text of 2-100 characters', () => {
    const alphabet = ['a', ' ', 'é', 'e\u0301', '界', '🚀', '👩‍💻', '🇯🇵', 'ש', '\u0000', '\ud800'];
    for (let seed = 1; seed <= 500; seed++) {
      let x = seed;
      const next = () => {
        x = (x * 1103515245 + 12345) % 2 ** 31;
        return x;
      };
      const text = Array.from({ length: 2 + (next() % 99) }, () => alphabet[next() % alphabet.length]).join(
        '',
      );
      const fitted = fitUtf8(text);
      expect(new TextEncoder().encode(fitted).length).toBeLessThanOrEqual(TOKEN_TEXT_MAX_BYTES);
      expect(text.startsWith(fitted)).toBe(true);
      expect(fitted.length).toBeGreaterThan(0);
    }
  });
});

describe('safeText', () => {
  it('drops NUL and other control characters a node prints from revert data', () => {
    const anvil = `custom error 0x305a27a9: ${'\u0000'.repeat(31)} ${'\u0000'.repeat(31)}%Fast JSON\u0007\u001b[0m\u0085 \u202eevil`;
    const clean = safeText(anvil);
    expect(clean).toBe('custom error 0x305a27a9: %Fast JSON [0m evil');
    expect(clean).not.toMatch(/[\p{Cc}\u202a-\u202e]/u);
  });

  it('keeps letters of any script and bounds the length', () => {
    expect(safeText('  暗号 👩‍💻\n\tשלום  ')).toBe('暗号 👩‍💻 שלום');
    const long = safeText('x'.repeat(1000));
    expect(Array.from(long).length).toBe(301);
    expect(long.endsWith('…')).toBe(true);
  });
});
