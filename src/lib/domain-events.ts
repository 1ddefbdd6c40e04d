/**
 * What happened, told in process to whoever keeps a view of it up to date: the service that made a
 * change publishes the fact once its transaction has committed, and never needs to know who
 * listens. The listeners are wired in `compose.ts` (holdings and payability read the chain again
 * after money moved). Unlike the activity feed (`activity.record`, written in the transaction, read
 * by clients), these are not stored: a lost one costs only a later refresh, which the chain
 * watcher does anyway from the token's logs.
 */
export type DomainEvent =
  /** An approval's payout confirmed and its approval finished: the founder's tokens went to the contributor. */
  | {
      type: 'payout.confirmed';
      projectId: string;
      /** The project as the approval read it: spares its listeners reading it again. */
      project: { projectId: string; tokenAddress: string; founderId: string; founderAddress: string | null };
      /** The wallets the payout moved tokens to. */
      holders: string[];
    }
  /**
   * A wallet action ended (confirmed, failed or still pending): its gas was perhaps paid, ETH or
   * a project's tokens perhaps moved. `projectId`: the project whose token it traded or moved.
   */
  | { type: 'wallet.acted'; wallet: string; projectId: string | null; holders: string[] }
  /** A bounty was posted: its project's committed rewards grew. */
  | { type: 'bounty.posted'; projectId: string; bountyId: string }
  /** A project's token and curve went live. */
  | { type: 'project.activated'; projectId: string };

export type DomainEventType = DomainEvent['type'];
type Of<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;
type Listener<T extends DomainEventType> = (event: Of<T>) => Promise<void>;

/** Where listeners are told; a listener's failure is logged, never the publisher's. */
export class DomainEvents {
  private readonly listeners = new Map<DomainEventType, ((event: DomainEvent) => Promise<void>)[]>();

  constructor(private readonly log: { warn(obj: object, msg: string): void }) {}

  on<T extends DomainEventType>(type: T, listener: Listener<T>): void {
    const list = this.listeners.get(type) ?? [];
    // Called only with events of its type (publish looks them up by type).
    list.push(listener as unknown as (event: DomainEvent) => Promise<void>);
    this.listeners.set(type, list);
  }

  /** Tells every listener of the event's type, in the order they were wired, and waits for them. */
  async publish(event: DomainEvent): Promise<void> {
    for (const listener of this.listeners.get(event.type) ?? []) {
      try {
        await listener(event);
      } catch (err) {
        this.log.warn(
          { err, event: event.type },
          'a domain event listener failed; the chain watcher catches up',
        );
      }
    }
  }
}

/** For services built without listeners (tests, tools): publishing tells nobody. */
export const noDomainEvents = (): Pick<DomainEvents, 'publish'> => ({ publish: async () => {} });
