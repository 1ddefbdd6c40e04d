/** How long a notice or flash message may be, in characters (code points). */
export const MAX_NOTICE_CHARS = 400;
/** And in bytes once percent-encoded for its cookie: well under a browser's 4 KB per cookie. */
export const MAX_NOTICE_ENCODED = 2400;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` cut to fit a cookie without splitting a character: at most `maxChars` code points (an
 * emoji is one, never half a surrogate pair, which percent-encoding cannot encode: "URI
 * malformed") and at most `maxEncoded` bytes once percent-encoded, cut at a code point as well.
 * A lone surrogate already in the text becomes U+FFFD. Cut text ends with `…`.
 */
export function clipForCookie(
  text: string,
  maxChars = MAX_NOTICE_CHARS,
  maxEncoded = MAX_NOTICE_ENCODED,
): string {
  const chars = [...text.replace(LONE_SURROGATE, '\uFFFD')];
  const fits = (n: number) => {
    const cut = n < chars.length ? `${chars.slice(0, n).join('')}…` : chars.join('');
    return (n < chars.length ? n + 1 : n) <= maxChars && encodeURIComponent(cut).length <= maxEncoded;
  };
  if (fits(chars.length)) return chars.join('');
  if (maxChars < 1) return '';
  // The longest prefix (plus the ellipsis) that fits, by bisection over code points.
  let lo = 0;
  let hi = Math.min(chars.length, maxChars);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return `${chars.slice(0, lo).join('')}…`;
}
