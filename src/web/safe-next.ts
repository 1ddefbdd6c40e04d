/** Where a signed-in browser goes when `next` names no path on this site. */
export const DEFAULT_NEXT = '/console';

const SITE = 'http://this-site.invalid';
const MAX_DECODES = 4;

/** True for a code unit a browser drops from a URL or that breaks a header: controls, whitespace, DEL. */
const unsafeChar = (text: string) => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) return true;
  }
  return false;
};

/**
 * The path, search and hash `raw` resolves to as a browser resolves it against this site (dot
 * segments removed, `%2e` read as a dot, `\` read as `/`), or null when the result is not a path
 * on this site: another origin, or a path starting `//` (which a browser reads as another host).
 */
function resolveOnSite(raw: string): string | null {
  if (!raw.startsWith('/') && !raw.startsWith('\\')) return null;
  let url: URL;
  try {
    url = new URL(raw, SITE);
  } catch {
    return null;
  }
  if (url.origin !== SITE) return null;
  const path = url.pathname;
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null;
  return `${path}${url.search}${url.hash}`;
}

/**
 * Where a signed-in browser may be sent back to: a path on this site or the console, never another
 * origin. `next` is resolved the way a browser resolves a `Location` (dot segments such as
 * `/.//evil` or `/%2e%2e//evil`, backslashes, doubled slashes); it is used only when the result is
 * a path on this site, and stays one however often a proxy or browser percent-decodes it again
 * (`/%2f%2fevil` decodes to `//evil`: refused). A control character or whitespace anywhere
 * (browsers drop tabs and newlines, so `/\t/evil` would be `//evil`) means the default page.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || next.length > 2048 || unsafeChar(next)) return DEFAULT_NEXT;
  const resolved = resolveOnSite(next);
  if (resolved === null) return DEFAULT_NEXT;
  // The answer is a fixed point: resolving it again gives itself, and each percent-decoding of its
  // path still resolves to a path on this site.
  if (resolveOnSite(resolved) !== resolved) return DEFAULT_NEXT;
  const end = resolved.search(/[?#]/);
  let decoded = end === -1 ? resolved : resolved.slice(0, end);
  for (let i = 0; i < MAX_DECODES; i++) {
    let once: string;
    try {
      once = decodeURIComponent(decoded);
    } catch {
      return DEFAULT_NEXT;
    }
    if (once === decoded) break;
    if (unsafeChar(once) || resolveOnSite(once) === null) return DEFAULT_NEXT;
    decoded = once;
  }
  return resolved;
}
