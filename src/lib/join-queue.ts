/**
 * Per key, one run at a time in this process, and a request made while a run waits to start joins
 * it (its input merged into that run's): the waiting run starts after the one in progress, so it
 * sees every change its joiners were told of, and a burst of requests costs two runs, not one each.
 */
export class JoinQueue<T, R> {
  private readonly waiting = new Map<string, { input: T; result: Promise<R> }>();
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(
    private readonly work: (key: string, input: T) => Promise<R>,
    /** Merges a joiner's input into the waiting run's (mutating `into`). */
    private readonly merge: (into: T, more: T) => void,
  ) {}

  run(key: string, input: T): Promise<R> {
    const waiting = this.waiting.get(key);
    if (waiting) {
      this.merge(waiting.input, input);
      return waiting.result;
    }
    const previous = this.tails.get(key) ?? Promise.resolve();
    const entry: { input: T; result: Promise<R> } = { input, result: Promise.resolve() as Promise<R> };
    entry.result = previous.then(() => {
      this.waiting.delete(key);
      return this.work(key, entry.input);
    });
    this.waiting.set(key, entry);
    const tail = entry.result.catch(() => {});
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return entry.result;
  }
}
