import { AppError, type ErrorCode } from '../../lib/errors.ts';
import type { IntentRow } from '../transactions/transactions.types.ts';

/**
 * What a wallet action answers, and how its transaction reads: the same shapes whether the request
 * waited for its receipt, answered 202, or is a retry with the first request's Idempotency-Key.
 */

/** A wallet action's answer: 200 with its result, or 202 while its transaction may still mine. */
export type ActionAnswer<T> =
  | { status: 200; body: T }
  | { status: 202; body: { transaction: TransactionJson; tx_hash: string } };

/** A request's transaction, as `GET /api/agents/me/wallet/transactions/{id}` shows it. */
export interface TransactionJson {
  id: string;
  kind: string;
  status: 'pending' | 'confirmed' | 'failed';
  tx_hash: string | null;
  project_id: string | null;
  sponsored: boolean;
  result: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
  created_at: string;
  updated_at: string;
}

export function transactionJson(i: IntentRow): TransactionJson {
  return {
    id: i.id,
    kind: i.kind,
    status: i.status,
    tx_hash: i.txHash,
    project_id: i.projectId,
    sponsored: i.kind.startsWith('sponsored_'),
    result: i.status === 'confirmed' ? (i.result ?? null) : null,
    error:
      i.status === 'failed'
        ? { code: i.errorCode ?? 'upstream_error', message: i.errorMessage ?? 'The transaction failed.' }
        : null,
    created_at: i.createdAt.toISOString(),
    updated_at: i.updatedAt.toISOString(),
  };
}

/** How the caller's request is known to the engine: its agent and its Idempotency-Key's hash. */
export interface RequestRef {
  requestKey: string | null;
}

export const NO_REF: RequestRef = { requestKey: null };

/** What a request's transaction answers now: 200 with its result, 202 while pending, or its error. */
export function answerOf<T>(intent: IntentRow): ActionAnswer<T> {
  if (intent.status === 'confirmed') return { status: 200, body: intent.result as T };
  if (intent.status === 'failed') {
    throw new AppError(
      (intent.errorCode ?? 'upstream_error') as ErrorCode,
      intent.errorMessage ?? 'The transaction failed.',
    );
  }
  const transaction = transactionJson(intent);
  return { status: 202, body: { transaction, tx_hash: intent.txHash ?? '' } };
}
