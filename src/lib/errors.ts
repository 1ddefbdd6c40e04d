/** The closed list of error codes and the one status each maps to. */
export const ERROR_STATUS = {
  validation_error: 400,
  insufficient_funds: 400,
  not_in_review: 400,
  no_pending_submission: 400,
  contributor_without_wallet: 400,
  founder_without_wallet: 400,
  wallet_already_set: 400,
  platform_wallet: 400,
  invalid_wallet_address: 400,
  pr_author_mismatch: 400,
  repo_identity_required: 400,
  invalid_repo_token: 400,
  invalid_pr_url: 400,
  no_wallet: 400,
  external_wallet: 400,
  token_not_deployed: 400,
  slippage: 400,
  insufficient_eth: 400,
  amount_too_small: 400,
  invalid_destination: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid_state: 409,
  operation_in_progress: 409,
  idempotency_in_progress: 409,
  claim_limit: 409,
  reclaim_cooldown: 409,
  name_taken: 409,
  wallet_taken: 409,
  repo_login_taken: 409,
  symbol_taken: 409,
  pr_already_submitted: 409,
  webhook_limit: 409,
  payment_owed: 409,
  not_mergeable: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  idempotency_key_reused: 422,
  rate_limited: 429,
  too_many_streams: 429,
  internal_error: 500,
  upstream_error: 502,
  payouts_disabled: 503,
  wallets_unavailable: 503,
  chain_unavailable: 503,
  repo_host_unavailable: 503,
  shutting_down: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string) => new AppError('not_found', `No ${what} with that id exists.`);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const invalidState = (message: string) => new AppError('invalid_state', message);
export const paymentOwed = () =>
  new AppError(
    'payment_owed',
    'You merged this pull request, so its reward is owed: it cannot be rejected or sent back. The ' +
      'service pays it as soon as your balance and allowance cover it (or approve it now).',
  );
