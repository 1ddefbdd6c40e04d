/**
 * The most UTF-8 bytes a project token's name may have. OpenZeppelin 5.7's EIP712 (behind the
 * token's ERC-2612 `permit`) keeps its domain name as a ShortString and reverts with
 * `StringTooLong` from 32 bytes on. The name is shortened rather than the domain name alone, so
 * that `name()` stays the permit domain name, as wallets assume when they sign a permit.
 */
export const TOKEN_TEXT_MAX_BYTES = 31;

const utf8 = new TextEncoder();
const byteLength = (s: string) => utf8.encode(s).length;

/**
 * `text` cut to at most `maxBytes` UTF-8 bytes, on a grapheme boundary (an emoji with its
 * modifiers, a letter with its combining marks stays whole or goes whole), without trailing spaces.
 * Text that fits is returned unchanged. A first grapheme longer than the limit on its own (a
 * letter under dozens of combining marks) is cut between code points instead, so nothing valid
 * ever comes back empty.
 */
export function fitUtf8(text: string, maxBytes = TOKEN_TEXT_MAX_BYTES): string {
  if (byteLength(text) <= maxBytes) return text;
  const kept = takeWithin(graphemes(text), maxBytes).trimEnd();
  if (kept) return kept;
  return takeWithin(Array.from(text), maxBytes).trimEnd() || takeWithin(Array.from(text), maxBytes);
}

const graphemes = (text: string): string[] =>
  Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (s) => s.segment);

function takeWithin(parts: string[], maxBytes: number): string {
  let out = '';
  let used = 0;
  for (const part of parts) {
    // Counted as viem encodes it: a lone surrogate becomes U+FFFD (3 bytes).
    const size = byteLength(part);
    if (used + size > maxBytes) break;
    out += part;
    used += size;
  }
  return out;
}
