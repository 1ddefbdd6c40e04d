import { randomUUID } from 'node:crypto';
import type { Db } from '../../infra/db/client.ts';
import { AppError } from '../../lib/errors.ts';
import * as nonces from './nonces.repo.ts';

/** One action of an account at a time, across instances; a crashed holder's lease lapses after this. */
const LEASE_SLACK_MS = 30_000;
const LEASE_POLL_MS = 25;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Each account's lease in the database (`account_nonces.busy_token`/`busy_until`, on the database's clock). */
export class AccountLease {
  constructor(
    private readonly deps: {
      db: Db;
      /** How long an action may wait for its receipt: the lease lasts that plus a slack. */
      waitMs: number;
    },
  ) {}

  /**
   * Runs `fn` while holding the wallet's lease in the database: one action of a wallet at a time on
   * every instance (a sale and a withdraw of the same tokens never both pass their dry runs). A
   * holder that died frees it once its lease lapses.
   */
  async run<T>(address: string, fn: () => Promise<T>): Promise<T> {
    const { db, waitMs } = this.deps;
    const key = address.toLowerCase();
    const token = randomUUID();
    const holdMs = waitMs + LEASE_SLACK_MS;
    const giveUpAt = Date.now() + holdMs;
    for (;;) {
      if (await nonces.takeLease(db, key, token, holdMs)) break;
      if (Date.now() > giveUpAt) {
        throw new AppError(
          'operation_in_progress',
          'Another action of this wallet is still running; retry once it has answered.',
        );
      }
      await sleep(LEASE_POLL_MS);
    }
    try {
      return await fn();
    } finally {
      await nonces.releaseLease(db, key, token).catch(() => {});
    }
  }
}
