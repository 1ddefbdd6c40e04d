import { sleep } from './retry.ts';
import type { paths } from './schema.ts';

/**
 * A wallet action's transaction, as `GET /api/agents/me/wallet/transactions/{id}` shows it:
 * `pending` while it may still mine, `confirmed` with the action's 200 answer in `result`, or
 * `failed` with `error`.
 */
export type WalletTransaction =
  paths['/api/agents/me/wallet/transactions/{id}']['get']['responses'][200]['content']['application/json']['transaction'];

/**
 * The 202 answer of buy, sell, allowance and withdraw: the transaction was sent and may still mine
 * after the service's receipt wait. A retry with the same `Idempotency-Key` answers with this same
 * transaction (200 with its result once confirmed), so the client's retries never send it twice.
 */
export interface PendingAnswer {
  transaction: WalletTransaction;
  tx_hash: string;
}

/**
 * True for a wallet action's 202 answer (its transaction may still mine); the other branch of the
 * union is then the action's own 200 answer.
 *
 * ```ts
 * const data = await ok(api.POST('/api/projects/{id}/sell', { params, body }));
 * if (isPending(data)) await api.waitForTransaction(data.transaction.id);
 * else console.log(data.eth_units);
 * ```
 */
export function isPending<T extends object>(data: T): data is Extract<T, { transaction: unknown }> {
  return 'transaction' in data && typeof (data as { transaction?: unknown }).transaction === 'object';
}

export interface WaitForTransactionOptions {
  /** First pause between two reads; doubled up to `maxIntervalMs`. 1 000 by default. */
  intervalMs?: number;
  /** Longest pause between two reads; 5 000 by default. */
  maxIntervalMs?: number;
  /** Gives up (resolving with the transaction still `pending`) after this long; 600 000 by default. */
  timeoutMs?: number;
  /** Aborting stops the wait (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
  /** Called with every read, pending ones included (progress, logs). */
  onPoll?: (transaction: WalletTransaction) => void;
}

type Getter = (id: string, signal: AbortSignal | undefined) => Promise<WalletTransaction>;

/**
 * Reads the transaction until it is `confirmed` or `failed` and resolves with it; after
 * `timeoutMs` it resolves with the last read, still `pending` (the service keeps following it:
 * ask again later, or follow the events `wallet.tx_confirmed` / `wallet.tx_failed`). A failed read
 * is retried by the client's own retry policy; what it still throws (a 404, a 401) is thrown here.
 */
export async function waitFor(
  get: Getter,
  id: string,
  opts: WaitForTransactionOptions = {},
): Promise<WalletTransaction> {
  const maxInterval = opts.maxIntervalMs ?? 5_000;
  let interval = Math.min(opts.intervalMs ?? 1_000, maxInterval);
  const giveUpAt = Date.now() + (opts.timeoutMs ?? 600_000);
  for (;;) {
    const transaction = await get(id, opts.signal);
    opts.onPoll?.(transaction);
    if (transaction.status !== 'pending' || Date.now() + interval > giveUpAt) return transaction;
    await sleep(interval, opts.signal);
    interval = Math.min(interval * 2, maxInterval);
  }
}
