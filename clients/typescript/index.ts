export { type BountyClient, type BountyClientOptions, createBountyClient, ok } from './client.ts';
export { type ApiErrorCode, BountyApiError, type ClientErrorCode, type ErrorDetail } from './errors.ts';
export {
  type ActivityEvent,
  type FollowEventsOptions,
  parseEventStream,
  type ServerSentEvent,
} from './events.ts';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.ts';
export type { components, operations, paths } from './schema.ts';
export {
  isPending,
  type PendingAnswer,
  type WaitForTransactionOptions,
  type WalletTransaction,
} from './transactions.ts';
