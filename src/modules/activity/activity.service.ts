import type { Db, Executor } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './activity.repo.ts';
import type {
  ActivityEventJson,
  ActivityQuery,
  PersonalEventType,
  PublicEventType,
} from './activity.schemas.ts';

interface EventFields {
  agentId?: string | null;
  projectId?: string | null;
  bountyId?: string | null;
  data?: Record<string, unknown>;
}
/** A public event, or a personal one with the agents it is for (at least one). */
export type NewEvent =
  | (EventFields & { type: PublicEventType })
  | (EventFields & { type: PersonalEventType; recipients: string[] });

/** A recorded event as the work that commits with it sees it. */
export interface RecordedEvent {
  id: string;
  type: string;
  recipients: string[] | null;
}
/** Work that must commit or roll back with every event (the webhook outbox); runs in its transaction. */
export type RecordHook = (tx: Executor, event: RecordedEvent) => Promise<void>;

/** How long a read of the newest event id serves the pages' caches (real time, not the app clock). */
const LATEST_ID_REUSE_MS = 100;

export class ActivityService {
  private readonly hooks: RecordHook[] = [];
  /** The newest event id as last read, when, and the record count it was read under. */
  private latest: { id: Promise<string | null>; at: number; generation: number } | null = null;
  /** Events this instance recorded: a read started before one is not reused after it. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Adds work done inside the transaction of every event recorded from now on. */
  onRecord(hook: RecordHook): void {
    this.hooks.push(hook);
  }

  /** Records an event; callers pass their transaction so the event commits with the change it describes. */
  async record(tx: Executor, event: NewEvent): Promise<void> {
    const id = newId('event');
    const recipients = 'recipients' in event ? [...new Set(event.recipients)] : null;
    this.generation++;
    await repo.insert(tx, {
      id,
      type: event.type,
      agentId: event.agentId ?? null,
      projectId: event.projectId ?? null,
      bountyId: event.bountyId ?? null,
      data: event.data ?? {},
      recipients,
      createdAt: this.clock.now(),
    });
    for (const hook of this.hooks) await hook(tx, { id, type: event.type, recipients });
  }

  /**
   * A version of everything the feed records: the newest event's id. Rendered pages are kept only
   * while it stays the same. One read serves the requests of the next 100 ms (a busy board asks on
   * every request), never past an event this instance records; another instance's is seen within
   * those 100 ms, and a page's live stream replays whatever it missed (latestFinalId).
   */
  latestId(): Promise<string | null> {
    const now = performance.now();
    const last = this.latest;
    if (last && last.generation === this.generation && now - last.at < LATEST_ID_REUSE_MS) return last.id;
    const id = repo.latestId(this.db);
    this.latest = { id, at: now, generation: this.generation };
    id.catch(() => {
      if (this.latest?.id === id) this.latest = null;
    });
    return id;
  }

  /**
   * The newest event no running transaction can precede: a page rendered after reading it hands it
   * to its stream (`last_event_id`), which replays everything after it, so a change made between the
   * render and the stream's connection still arrives. Null before any event.
   */
  async latestFinalId(): Promise<string | null> {
    const at = await repo.latestReady(this.db);
    return at.id || null;
  }

  async list(q: ActivityQuery): Promise<ActivityEventJson[]> {
    const rows = await repo.list(this.db, {
      limit: q.limit,
      before: q.before,
      type: q.type,
      projectId: q.project_id,
      agentId: q.agent_id,
    });
    return rows.map((r) => ({
      id: r.id,
      type: r.type as PublicEventType,
      agent_id: r.agentId,
      project_id: r.projectId,
      bounty_id: r.bountyId,
      data: r.data,
      created_at: r.createdAt.toISOString(),
    }));
  }
}
