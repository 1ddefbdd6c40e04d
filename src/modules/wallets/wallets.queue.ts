/**
 * Runs tasks one at a time per key, in arrival order; a failed task does not block the next.
 * Wallet actions use it per wallet because the chain adapter takes each nonce from the node, so two
 * concurrent transactions of one wallet would race for the same nonce. It serializes within one
 * process only.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => {},
      () => {},
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task queued or running. */
  get size(): number {
    return this.tails.size;
  }
}
