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

export class ActivityService {
  private readonly hooks: RecordHook[] = [];

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
   * A version of everything the feed records: the newest event's id. Pages cached for anonymous
   * visitors are kept only while it stays the same.
   */
  latestId(): Promise<string | null> {
    return repo.latestId(this.db);
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
