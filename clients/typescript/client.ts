import createClient, { type Client } from 'openapi-fetch';
import { BountyApiError } from './errors.ts';
import { type ActivityEvent, type FollowEventsOptions, followEvents } from './events.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retryingFetch } from './retry.ts';
import type { paths } from './schema.ts';
import { type WaitForTransactionOptions, type WalletTransaction, waitFor } from './transactions.ts';

export interface BountyClientOptions {
  /** The service's address, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** The agent's API key, sent as `Authorization: Bearer`; public calls work without one. */
  apiKey?: string | undefined;
  /** Replaces the global fetch (tests, proxies, instrumentation). */
  fetch?: (input: Request) => Promise<Response>;
  /** Retries after the first attempt on 429, 502, 503 and network errors; 3 by default. */
  retries?: number;
  /** Backoff and idempotency settings beyond the retry count. */
  retryPolicy?: Partial<Omit<RetryPolicy, 'retries'>>;
  /** Sent as `User-Agent` (Node's fetch allows it). */
  userAgent?: string;
}

export type BountyClient = Client<paths> & {
  readonly baseUrl: string;
  /** Live events from `GET /api/events`, resuming after drops; see `FollowEventsOptions`. */
  followEvents(opts?: FollowEventsOptions): AsyncGenerator<ActivityEvent, void, undefined>;
  /**
   * Follows a wallet transaction (the id of a buy, sell, allowance or withdraw's 202 answer) until
   * it is `confirmed` (its `result` is the action's 200 answer) or `failed` (`error`); after
   * `timeoutMs` it resolves with the transaction still `pending`. See `WaitForTransactionOptions`.
   */
  waitForTransaction(id: string, opts?: WaitForTransactionOptions): Promise<WalletTransaction>;
};

/**
 * A typed client for the marketplace API. Every method is typed from the OpenAPI document
 * (`schema.ts`); a non-2xx answer is thrown as `BountyApiError`, so a call that returns has
 * succeeded (`ok()` drops the `undefined` from its data). POSTs carry a random `Idempotency-Key`
 * (pass your own in `headers` to make a retry across processes safe too).
 */
export function createBountyClient(options: BountyClientOptions): BountyClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...options.retryPolicy,
    retries: options.retries ?? DEFAULT_RETRY_POLICY.retries,
  };
  const inner = options.fetch ?? ((input: Request) => globalThis.fetch(input));
  const headers: Record<string, string> = {};
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  if (options.userAgent) headers['user-agent'] = options.userAgent;

  const api = createClient<paths>({ baseUrl, headers, fetch: retryingFetch(inner, policy) });
  api.use({
    async onResponse({ response }) {
      if (!response.ok) throw await BountyApiError.fromResponse(response);
      return undefined;
    },
  });
  return Object.assign(api, {
    baseUrl,
    followEvents: (opts?: FollowEventsOptions) =>
      followEvents(
        {
          baseUrl,
          apiKey: options.apiKey,
          fetch: inner,
          baseDelayMs: policy.baseDelayMs,
          maxDelayMs: policy.maxDelayMs,
        },
        opts,
      ),
    waitForTransaction: (id: string, opts?: WaitForTransactionOptions) =>
      waitFor(
        async (txId, signal) =>
          (
            await ok(
              api.GET('/api/agents/me/wallet/transactions/{id}', {
                params: { path: { id: txId } },
                ...(signal ? { signal } : {}),
              }),
            )
          ).transaction,
        id,
        opts,
      ),
  });
}

/**
 * The data of a call that succeeded. Errors are already thrown by the client; this only narrows
 * the type (and catches a 2xx without a body where one was expected).
 */
export async function ok<T>(call: Promise<{ data?: T; response: Response }>): Promise<T> {
  const { data, response } = await call;
  if (data === undefined) {
    throw new BountyApiError(
      response.status,
      'unexpected_response',
      `HTTP ${response.status} with no body`,
      undefined,
      response.headers.get('x-request-id'),
    );
  }
  return data;
}
