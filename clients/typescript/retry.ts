import { parseRetryAfter } from './errors.ts';

export interface RetryPolicy {
  /** Further attempts after the first one (0 turns retrying off). */
  retries: number;
  /** First backoff; doubled on every retry, with jitter. */
  baseDelayMs: number;
  /** No backoff and no honoured `Retry-After` is longer than this. */
  maxDelayMs: number;
  /** Sends a random `Idempotency-Key` on every POST that has none. */
  idempotencyKeys: boolean;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 3,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  idempotencyKeys: true,
};

/**
 * 503 codes that describe how the service is configured: asking again changes nothing, so they
 * are not retried (a 503 of a restarting instance or a proxy is).
 */
const PERMANENT_503 = new Set([
  'payouts_disabled',
  'wallets_unavailable',
  'chain_unavailable',
  'repo_host_unavailable',
]);

/** Exponential backoff with "equal jitter": half fixed, half random, so clients spread out. */
export function backoffMs(attempt: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function errorCode(response: Response): Promise<string | null> {
  try {
    const body = (await response.clone().json()) as { error?: { code?: unknown } };
    return typeof body.error?.code === 'string' ? body.error.code : null;
  } catch {
    return null;
  }
}

/**
 * Whether to ask again. A POST without an idempotency key is repeated only after answers that
 * say nothing was done (429, 503); with a key the service answers a repeat from its record, so
 * a lost answer or a 502 is safe to retry too.
 */
async function retryable(response: Response, replaySafe: boolean): Promise<boolean> {
  const { status } = response;
  if (status === 429) return true;
  if (status === 503) return !PERMANENT_503.has((await errorCode(response)) ?? '');
  if (!replaySafe) return false;
  if (status === 502) return true;
  // The first attempt is still running on the service (its answer was lost on the way back).
  return status === 409 && (await errorCode(response)) === 'idempotency_in_progress';
}

/**
 * Wraps a fetch with the client's retry rules: bounded attempts, exponential backoff with jitter,
 * `Retry-After` honoured, the same `Idempotency-Key` on every attempt of one POST.
 */
export function retryingFetch(
  inner: (input: Request) => Promise<Response>,
  policy: RetryPolicy,
): (input: Request) => Promise<Response> {
  return async (original) => {
    let request = original;
    if (request.method === 'POST' && policy.idempotencyKeys && !request.headers.has('idempotency-key')) {
      const headers = new Headers(request.headers);
      headers.set('idempotency-key', crypto.randomUUID());
      request = new Request(request, { headers });
    }
    const replaySafe = request.method !== 'POST' || request.headers.has('idempotency-key');
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= policy.retries;
      let response: Response;
      try {
        // A clone per attempt: a body can be read only once.
        response = await inner(last ? request : request.clone());
      } catch (err) {
        if (last || request.signal.aborted || !replaySafe) throw err;
        await sleep(backoffMs(attempt, policy), request.signal);
        continue;
      }
      if (response.ok || last || !(await retryable(response, replaySafe))) return response;
      const asked = parseRetryAfter(response.headers.get('retry-after'));
      const wait = asked === null ? backoffMs(attempt, policy) : asked * 1000;
      // Waiting longer than the caller allows would only hide the answer: give it back instead.
      if (wait > policy.maxDelayMs) return response;
      await response.body?.cancel().catch(() => {});
      await sleep(wait, request.signal);
    }
  };
}
