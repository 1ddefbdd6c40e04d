import type { Database } from '../infra/db/client.ts';
import type { Clock } from '../lib/clock.ts';
import type { WebSession } from './web-core.ts';

/** Every instance LISTENs here; whatever ends a session NOTIFYs in the transaction that ends it. */
export const SESSION_CHANNEL = 'web_sessions';
/**
 * How long a public page may go on using a session read earlier. Only the bound for an instance
 * whose LISTEN connection is down: a session's end reaches every listening instance on commit.
 */
export const RECENT_SESSION_MS = 2_000;
const MAX_RECENT = 10_000;

export interface FoundSession {
  session: WebSession;
  expiresAt: Date;
}

/**
 * Sessions read recently, by token hash, for the public pages' GETs only (`config.recentSession`):
 * a signed-in board costs no round trip. One read per session at a time (the promise is kept), at
 * most RECENT_SESSION_MS old and never past the session's own expiry, all dropped when any session
 * ends anywhere (NOTIFY on SESSION_CHANNEL) or this instance (re)connects its listener. Until the
 * listener is up, and if it never comes up, nothing is kept. Forms and the console always read the
 * row.
 */
export class RecentSessions {
  private readonly kept = new Map<string, { found: Promise<FoundSession | null>; until: number }>();
  private listening = false;
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly read: (hash: string) => Promise<FoundSession | null>,
  ) {}

  /** Starts listening. If LISTEN is refused this rejects, and nothing is ever kept. */
  async listen(database: Pick<Database, 'listen'>): Promise<void> {
    this.unlisten = await database.listen(
      SESSION_CHANNEL,
      () => this.forget(),
      () => {
        this.forget();
        this.listening = true;
      },
    );
  }

  async close(): Promise<void> {
    this.listening = false;
    this.forget();
    await this.unlisten?.().catch(() => {});
  }

  /** Drops every kept session: the next page of each reads its row again. */
  forget(): void {
    this.kept.clear();
  }

  find(hash: string): Promise<FoundSession | null> {
    if (!this.listening) return this.read(hash);
    const now = this.clock.now().getTime();
    const hit = this.kept.get(hash);
    if (hit && hit.until > now) return hit.found;
    if (hit) this.kept.delete(hash);
    else if (this.kept.size >= MAX_RECENT) this.kept.delete(this.kept.keys().next().value as string);
    const entry = { found: this.read(hash), until: now + RECENT_SESSION_MS };
    this.kept.set(hash, entry);
    entry.found.then(
      (session) => {
        // Unknown tokens are not kept (a stream of made-up cookies would push real ones out).
        if (session === null) this.drop(hash, entry);
        else entry.until = Math.min(entry.until, session.expiresAt.getTime());
      },
      () => this.drop(hash, entry),
    );
    return entry.found;
  }

  private drop(hash: string, entry: object): void {
    if (this.kept.get(hash) === entry) this.kept.delete(hash);
  }
}
