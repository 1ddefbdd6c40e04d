import type { Db } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import * as repo from './host-budget.repo.ts';

const WINDOW_MS = 60_000;

/**
 * WEBHOOK_DELIVERIES_PER_HOST_PER_MINUTE: requests to one destination host per minute, across
 * every agent and instance. Webhooks are free to make, so without it many accounts could point
 * theirs at one stranger's URL and multiply each event (and each retry) into a flood. Counted in
 * the database (fixed one-minute windows), so every instance draws from the same budget.
 */
export class HostBudget {
  constructor(private readonly deps: { db: Db; clock: Clock; perMinute: number }) {}

  get perMinute(): number {
    return this.deps.perMinute;
  }

  private windowStart(): number {
    const now = this.deps.clock.now().getTime();
    return now - (now % WINDOW_MS);
  }

  /** Takes one request to `host` from this minute's budget: null when granted, else when the next window opens. */
  async take(host: string): Promise<Date | null> {
    const start = this.windowStart();
    const granted = await repo.takeHostSlot(this.deps.db, new Date(start), host, this.deps.perMinute);
    return granted ? null : new Date(start + WINDOW_MS);
  }

  /**
   * Forgets windows before the previous one. One window is kept past its end so that an instance
   * whose clock runs a little ahead does not reset a budget the others still count in.
   */
  prune(): Promise<void> {
    return repo.pruneHostBudget(this.deps.db, new Date(this.windowStart() - WINDOW_MS));
  }
}
