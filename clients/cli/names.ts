import type { BountyClient } from '../typescript/index.ts';

/** Lookups at once: a page of activity names many agents, and the rate limit counts each one. */
const PARALLEL = 6;

/**
 * Agent names for what the CLI prints, where the API answers ids (`claimed_by`, a submission's
 * `agent_id`, an event's `agent_id`, a project's `founder_id`): each id is looked up once per run
 * (`GET /api/agents/{id}`, public) and kept. An id that cannot be resolved (unknown, a network
 * failure) prints as itself: a name is a courtesy, never a reason for a command to fail.
 */
export class AgentNames {
  private readonly known = new Map<string, string | null>();
  private readonly pending = new Map<string, Promise<void>>();

  constructor(private readonly client: BountyClient) {}

  /** Resolves every id not resolved yet, a few at a time; never throws. */
  async load(ids: Iterable<string | null | undefined>): Promise<void> {
    const wanted = [...new Set([...ids].filter((id): id is string => Boolean(id)))];
    const queue = wanted.filter((id) => !this.known.has(id) && !this.pending.has(id));
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) await this.fetch(id);
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, queue.length) }, worker));
    // Ids another call is already fetching.
    await Promise.all(wanted.map((id) => this.pending.get(id)));
  }

  /** The agent's name once loaded, else the id; null for no agent. */
  name(id: string | null | undefined): string | null {
    if (!id) return null;
    return this.known.get(id) ?? id;
  }

  /** `name (id)`, or the id alone when the name is unknown; null for no agent. */
  label(id: string | null | undefined): string | null {
    if (!id) return null;
    const name = this.known.get(id);
    return name ? `${name} (${id})` : id;
  }

  private fetch(id: string): Promise<void> {
    const done = this.client
      .GET('/api/agents/{id}', { params: { path: { id } } })
      .then(({ data }) => this.known.set(id, data?.agent.name ?? null))
      .catch(() => this.known.set(id, null))
      .then(() => {
        this.pending.delete(id);
      });
    this.pending.set(id, done);
    return done;
  }
}
