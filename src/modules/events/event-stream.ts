import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { StreamFilter, StreamRow } from '../activity/activity-stream.ts';
import { comparePositions, type StreamPosition } from './stream-position.ts';

/** One event, serialized once per batch and shared by every stream it goes to. */
export interface Frame {
  pos: StreamPosition;
  type: string;
  projectId: string | null;
  recipients: string[] | null;
  text: string;
}

/** The `/api/activity` item shape, as one SSE message. */
export function toFrame(row: StreamRow): Frame {
  const json = JSON.stringify({
    id: row.id,
    type: row.type,
    agent_id: row.agentId,
    project_id: row.projectId,
    bounty_id: row.bountyId,
    data: row.data,
    created_at: row.createdAt.toISOString(),
  });
  return {
    pos: { txid: row.txid, id: row.id },
    type: row.type,
    projectId: row.projectId,
    recipients: row.recipients,
    // JSON.stringify escapes line breaks, so the data fits on the one line SSE needs.
    text: `id: ${row.id}\nevent: ${row.type}\ndata: ${json}\n\n`,
  };
}

const HEARTBEAT = ': keep-alive\n\n';

/**
 * One client's SSE response. It starts in replay (its service writes what the client missed and
 * the bus's live batches are ignored), then goes live. `cursor` is the last position it has
 * passed, so a live batch overlapping the replay sends nothing twice.
 */
export class EventStream {
  live = false;
  closed = false;
  private readonly types: Set<string> | null;
  /** Events committed before a "from now" stream opened but not yet final on the bus: skipped. */
  private committedBefore: Set<string> | null = null;

  constructor(
    private readonly res: ServerResponse,
    readonly filter: StreamFilter,
    public cursor: StreamPosition,
    /** Bytes a client may leave unread before it is dropped (it resumes with Last-Event-ID). */
    private readonly maxBufferBytes: number,
    private readonly onSlow: () => void,
  ) {
    this.types = filter.types ? new Set(filter.types) : null;
    res.once('close', () => {
      this.closed = true;
    });
    // A write racing a vanished client must not become an unhandled 'error' that ends the process.
    res.on('error', () => {});
  }

  matches(f: Frame): boolean {
    if (
      f.recipients !== null &&
      (this.filter.agentId === null || !f.recipients.includes(this.filter.agentId))
    )
      return false;
    if (this.types && !this.types.has(f.type)) return false;
    if (this.filter.projectId !== null && f.projectId !== this.filter.projectId) return false;
    return true;
  }

  /**
   * A stream "from now" starts at the bus's head, which stops short of events already committed
   * while a transaction running elsewhere (on PostgreSQL, in any database of the cluster) keeps
   * them from being final. Those happened before the stream opened: it never sends them.
   */
  skipCommitted(ids: string[]): void {
    this.committedBefore = ids.length > 0 ? new Set(ids) : null;
  }

  /** A live batch from the bus: one write of every matching frame past the cursor. */
  deliver(frames: Frame[]): void {
    if (!this.live || this.closed) return;
    let out = '';
    for (const f of frames) {
      if (comparePositions(f.pos, this.cursor) <= 0) continue;
      this.cursor = f.pos;
      if (this.committedBefore?.delete(f.pos.id)) continue;
      if (this.matches(f)) out += f.text;
    }
    if (out) this.write(out);
  }

  /** Replayed frames; waits for the client to read when its buffer is full instead of dropping it. */
  async replay(frames: Frame[]): Promise<void> {
    let out = '';
    // The bus may have made them final while this stream was opening: its catch-up reads them here.
    for (const f of frames) if (!this.committedBefore?.delete(f.pos.id)) out += f.text;
    if (frames.length > 0) this.cursor = (frames[frames.length - 1] as Frame).pos;
    if (this.closed || out === '') return;
    this.res.write(out);
    if (this.res.writableLength > this.maxBufferBytes && !this.closed) {
      await Promise.race([once(this.res, 'drain'), once(this.res, 'close')]);
    }
  }

  /**
   * A comment line, once the stream is live: before that its service has not written the response
   * head yet (a write would send Node's implicit head first, and the real one could no longer be
   * written), and during the replay the replayed events keep the connection busy.
   */
  heartbeat(): void {
    if (this.live && !this.closed) this.write(HEARTBEAT);
  }

  /** Ends the response cleanly (shutdown); the client reconnects elsewhere with Last-Event-ID. */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.res.end();
  }

  private write(text: string): void {
    this.res.write(text);
    // A client that stopped reading would otherwise grow this process's memory without bound.
    if (this.res.writableLength > this.maxBufferBytes) {
      this.closed = true;
      this.res.destroy();
      this.onSlow();
    }
  }
}
