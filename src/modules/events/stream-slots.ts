/** Told how many streams are open and of each refusal (the metrics). */
export interface StreamSlotsObserver {
  open(total: number): void;
  refused(): void;
}

const UNOBSERVED: StreamSlotsObserver = { open: () => {}, refused: () => {} };

/**
 * The event streams each client holds on this instance: a slot is taken before a stream is
 * prepared and given back when its response closes. In memory and per instance, on purpose: a
 * stream is one long request, so nothing is written anywhere per request, and behind N instances
 * a client may hold up to N times the limit.
 */
export class StreamSlots {
  private readonly held = new Map<string, number>();
  private total = 0;

  constructor(
    readonly maxPerClient: number,
    private readonly observer: StreamSlotsObserver = UNOBSERVED,
  ) {}

  /** A slot for `client`, as the function that gives it back (once, however often called); null when all are taken. */
  take(client: string): (() => void) | null {
    const n = this.held.get(client) ?? 0;
    if (n >= this.maxPerClient) {
      this.observer.refused();
      return null;
    }
    this.held.set(client, n + 1);
    this.observer.open(++this.total);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.held.get(client) ?? 1) - 1;
      if (left > 0) this.held.set(client, left);
      else this.held.delete(client);
      this.observer.open(--this.total);
    };
  }

  /** Streams `client` holds (all clients' without one). */
  count(client?: string): number {
    return client === undefined ? this.total : (this.held.get(client) ?? 0);
  }
}
