import type { Clock } from './clock.ts';

interface Entry<Body> {
  at: number;
  version: string | null;
  status: number;
  body: Body;
}

/**
 * Answers that are the same for every caller (public pages for visitors who are not signed in,
 * the bounty list), by URL: an entry serves only while the activity feed's newest event is the one
 * it was built under (every change to a bounty, a claim, a review or a payable flag records one)
 * and for at most `ttlMs` (ages like "3 h ago" and the curve's quote move with time). The version
 * is read before the answer's data, so a cached answer is never older than its version says.
 */
export class VersionedCache<Body = string> {
  private readonly entries = new Map<string, Entry<Body>>();

  constructor(private readonly deps: { clock: Clock; ttlMs?: number; maxEntries?: number }) {}

  get(key: string, version: string | null): Entry<Body> | null {
    const hit = this.entries.get(key);
    if (!hit) return null;
    const fresh = this.deps.clock.now().getTime() - hit.at < (this.deps.ttlMs ?? 5_000);
    if (fresh && hit.version === version) return hit;
    this.entries.delete(key);
    return null;
  }

  set(key: string, version: string | null, status: number, body: Body): void {
    this.entries.set(key, { at: this.deps.clock.now().getTime(), version, status, body });
    // Bounded: the oldest entry goes first (query strings are the visitor's to vary).
    if (this.entries.size > (this.deps.maxEntries ?? 500)) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }
}
