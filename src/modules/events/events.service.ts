import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../infra/db/client.ts';
import { AppError } from '../../lib/errors.ts';
// The stream is the push side of the activity feed: it reads the feed's table (never writes it;
// events are written by ActivityService.record in the transaction of each change).
import * as activity from '../activity/activity-stream.ts';
import type { EventBus } from './event-bus.ts';
import { EventStream, toFrame } from './event-stream.ts';
import { STREAM_EVENT_TYPES } from './events.schemas.ts';
import { comparePositions, type StreamPosition } from './stream-position.ts';
import type { StreamSlots } from './stream-slots.ts';

const REPLAY_BATCH = 500;

export interface EventsDeps {
  db: Db;
  bus: EventBus;
  log: FastifyBaseLogger;
  maxBufferBytes: number;
  /** The streams each client holds open on this instance (EVENTS_MAX_STREAMS_PER_CLIENT). */
  slots: StreamSlots;
}

export interface StreamRequest {
  agentId: string | null;
  /** Whose slot the stream takes: its API key's agent, else its client IP (`callerKey`). */
  client: string;
  types?: string;
  projectId?: string;
  lastEventId?: string;
}

/** A validated stream request: its filter and, when resuming, where it left off. */
export interface StreamSpec {
  filter: activity.StreamFilter;
  resumeFrom: StreamPosition | null;
  /** Gives the client's stream slot back; `serve` calls it when the response closes. */
  release: () => void;
}

export class EventsService {
  constructor(private readonly deps: EventsDeps) {}

  /**
   * Checks a request before anything is sent, so that its errors are ordinary JSON answers, and
   * takes one of the client's stream slots (before the stream's own database work).
   */
  async prepare(req: StreamRequest): Promise<StreamSpec> {
    const filter: activity.StreamFilter = {
      agentId: req.agentId,
      types: req.types === undefined ? null : parseTypes(req.types),
      projectId: req.projectId ?? null,
    };
    const release = this.deps.slots.take(req.client);
    if (!release) {
      throw new AppError(
        'too_many_streams',
        `${this.deps.slots.maxPerClient} event streams are open with this API key (or from this address ` +
          'without a key), the most allowed at once; close one before opening another.',
      );
    }
    try {
      return { ...(await this.resumePoint(req)), filter, release };
    } catch (err) {
      release();
      throw err;
    }
  }

  private async resumePoint(req: StreamRequest): Promise<{ resumeFrom: StreamPosition | null }> {
    // Started before the response is taken over, so that a database failure is an ordinary error.
    await this.deps.bus.ready();
    if (!req.lastEventId) return { resumeFrom: null };
    const resumeFrom = await activity.positionOf(this.deps.db, req.lastEventId);
    // Events are never deleted, so an unknown id is a client's mistake; replaying "from now"
    // instead would hide that it has missed events.
    if (!resumeFrom) {
      throw new AppError('validation_error', 'Last-Event-ID names no event; reconnect without it.', [
        { field: 'last-event-id', message: 'is not the id of an event' },
      ]);
    }
    return { resumeFrom };
  }

  /**
   * Serves one stream until the client leaves or the app closes: the response head, then every
   * matching event after `resumeFrom` up to the bus's head, then live batches from the bus.
   */
  async serve(
    res: ServerResponse,
    spec: StreamSpec,
    headers: Record<string, string | number | string[] | undefined>,
  ): Promise<void> {
    const { bus, log, maxBufferBytes } = this.deps;
    // However the response ends (the client leaves, a slow client is dropped, shutdown), its slot
    // is given back. A client that left while the request was prepared has closed it already, and
    // 'close' is not emitted again: nothing to serve then.
    res.once('close', spec.release);
    if (res.destroyed) return spec.release();
    const stream = new EventStream(res, spec.filter, spec.resumeFrom ?? bus.head, maxBufferBytes, () =>
      log.info({ agentId: spec.filter.agentId }, 'event stream dropped: client too slow'),
    );
    res.once('close', () => bus.remove(stream));
    // Registered, and the cursor fixed, before the client sees the stream open: an event it causes
    // after that moment commits after the bus's head, so it is replayed or delivered live.
    const open = await bus.add(stream).catch((err: unknown) => {
      log.error({ err }, 'event bus failed to start');
      return false;
    });
    if (!spec.resumeFrom) {
      stream.cursor = bus.head;
      // Committed now but not yet final on the bus: before this stream opened, so never sent.
      const committed = await activity
        .readAfter(this.deps.db, stream.cursor, REPLAY_BATCH)
        .catch((err: unknown) => {
          log.warn({ err }, 'event stream: could not read the events committed before it opened');
          return [];
        });
      stream.skipCommitted(committed.map((r) => r.id));
    }
    // Shut down, or the client left, meanwhile: the bus ended the stream, nothing more to write.
    if (stream.closed) return bus.remove(stream);
    // The bus only writes to a stream once it is live (heartbeats included): this head is the
    // first thing the client receives.
    res.writeHead(200, {
      ...(headers as OutgoingHttpHeaders),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no', // nginx would otherwise buffer the stream
      // Never reused for another request: a stream ended at shutdown then closes its socket
      // instead of holding the server open as an idle keep-alive connection.
      connection: 'close',
    });
    // Clients can reconnect in 1 s; flushing the head tells them at once that the stream is open.
    res.write('retry: 1000\n\n');
    if (!open) return stream.end(); // shutting down: the client reconnects elsewhere
    if (stream.closed) return bus.remove(stream); // the client left while the bus started
    try {
      await this.catchUp(stream);
    } catch (err) {
      log.error({ err }, 'event stream replay failed');
      bus.remove(stream);
      res.destroy();
    }
  }

  /** Stops every stream; called before the HTTP server closes. */
  close(): Promise<void> {
    return this.deps.bus.close();
  }

  /**
   * Replays until the cursor reaches the bus's head, then goes live in the same tick, so every
   * later batch of the bus reaches this stream and none before it is sent twice.
   */
  private async catchUp(stream: EventStream): Promise<void> {
    const { bus, db } = this.deps;
    while (!stream.closed && comparePositions(stream.cursor, bus.head) < 0) {
      const upTo = bus.head;
      const rows = await activity.replay(db, stream.cursor, upTo, stream.filter, REPLAY_BATCH);
      await stream.replay(rows.map(toFrame));
      if (rows.length < REPLAY_BATCH) stream.cursor = upTo;
    }
    stream.live = true;
  }
}

function parseTypes(raw: string): string[] {
  const types = raw
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const unknown = types.filter((t) => !STREAM_EVENT_TYPES.includes(t));
  if (types.length === 0 || unknown.length > 0) {
    const what = types.length === 0 ? 'names no event type' : `has unknown types: ${unknown.join(', ')}`;
    throw new AppError('validation_error', `types ${what}.`, [
      { field: 'types', message: `must be a comma-separated list of: ${STREAM_EVENT_TYPES.join(', ')}` },
    ]);
  }
  return [...new Set(types)];
}
