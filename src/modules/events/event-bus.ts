import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../infra/db/client.ts';
import * as activity from '../activity/activity-stream.ts';
import type { EventStream, Frame } from './event-stream.ts';
import { toFrame } from './event-stream.ts';
import type { StreamPosition } from './stream-position.ts';

const BATCH = 500;
// While an event waits behind a running transaction: retry soon, and no less often than this.
const FIRST_RETRY_MS = 20;
const MAX_RETRY_MS = 100;

export interface EventBusOptions {
  database: Database;
  log: FastifyBaseLogger;
  /** Safety poll: a lost notification delays an event by at most this. */
  pollMs: number;
  heartbeatMs: number;
}

/**
 * The one reader of an instance: it follows `activity_events` in commit order and fans each batch
 * out to every open stream, so N clients cost one query per batch, not one per client.
 *
 * It is woken by NOTIFY (sent at commit by any instance), by the safety poll, and, while a
 * committed event waits behind an older transaction still running, by a short backoff retry (that
 * older transaction may insert no event, so no notification would come when it ends).
 */
export class EventBus {
  /** The last position fanned out; everything up to it is final (no transaction can precede it). */
  head: StreamPosition = activity.STREAM_START;
  private readonly streams = new Set<EventStream>();
  private starting: Promise<void> | null = null;
  private started = false;
  private closed = false;
  private reading: Promise<void> | null = null;
  private rerun = false;
  private retryMs = FIRST_RETRY_MS;
  private timers: NodeJS.Timeout[] = [];
  private retryTimer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly opts: EventBusOptions) {}

  get size(): number {
    return this.streams.size;
  }

  /** Starts the reader on first use; a failure is thrown here and retried by the next caller. */
  ready(): Promise<void> {
    this.starting ??= this.start().catch((err: unknown) => {
      this.starting = null;
      throw err;
    });
    return this.starting;
  }

  /** Registers a stream (starting the reader on first use); false once the bus is closed. */
  async add(stream: EventStream): Promise<boolean> {
    await this.ready();
    if (this.closed) return false;
    this.streams.add(stream);
    return true;
  }

  remove(stream: EventStream): void {
    this.streams.delete(stream);
  }

  /** Reads what has become final since the head; concurrent wake-ups coalesce into one more pass. */
  wake(): void {
    if (this.closed || !this.started) return;
    if (this.reading) {
      this.rerun = true;
      return;
    }
    this.reading = this.readAll().finally(() => {
      this.reading = null;
    });
  }

  /** Ends every stream and stops reading; app.close() must not wait on open responses. */
  async close(): Promise<void> {
    this.closed = true;
    for (const s of this.streams) s.end();
    this.streams.clear();
    await this.starting?.catch(() => {});
    for (const t of this.timers) clearInterval(t);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.reading;
    await this.unlisten?.().catch(() => {});
  }

  private async start(): Promise<void> {
    const { database, log, pollMs, heartbeatMs } = this.opts;
    // Listen before reading the head: an event committed in between is then both after the head
    // and notified. Without a listener the safety poll still delivers, only later.
    try {
      this.unlisten ??= await database.listen(
        activity.ACTIVITY_CHANNEL,
        () => this.wake(),
        () => this.wake(),
      );
    } catch (err) {
      log.warn({ err }, 'event bus: LISTEN failed; falling back to polling');
    }
    this.head = await activity.latestReady(database.db);
    this.started = true;
    const poll = setInterval(() => this.wake(), pollMs);
    // One timer for every stream's heartbeat: a comment line keeps proxies from timing out.
    const beat = setInterval(() => {
      for (const s of this.streams) s.heartbeat();
    }, heartbeatMs);
    poll.unref();
    beat.unref();
    this.timers.push(poll, beat);
  }

  private async readAll(): Promise<void> {
    let blocked = false;
    try {
      do {
        this.rerun = false;
        blocked = await this.readBatches();
      } while (this.rerun && !this.closed);
    } catch (err) {
      if (!this.closed) this.opts.log.error({ err }, 'event bus: read failed; retrying');
      blocked = true;
    }
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (!blocked || this.closed) {
      this.retryMs = FIRST_RETRY_MS;
      return;
    }
    this.retryTimer = setTimeout(() => this.wake(), this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS, this.opts.pollMs);
  }

  /** True when a committed event still waits behind a running transaction. */
  private async readBatches(): Promise<boolean> {
    for (;;) {
      const rows = await activity.readAfter(this.opts.database.db, this.head, BATCH);
      if (this.closed) return false;
      const frames: Frame[] = [];
      for (const row of rows) {
        if (!row.ready) break;
        frames.push(toFrame(row));
      }
      const last = frames[frames.length - 1];
      if (last) {
        this.head = last.pos;
        for (const s of this.streams) s.deliver(frames);
      }
      if (frames.length < rows.length) return true;
      if (rows.length < BATCH) return false;
    }
  }
}
