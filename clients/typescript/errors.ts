import type { paths } from './schema.ts';

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type JsonBodies<R> = {
  [S in keyof R]: R[S] extends { content: { 'application/json': infer B } } ? B : never;
}[keyof R];
type OperationBodies<Item> = {
  [M in Method & keyof Item]: Item[M] extends { responses: infer R } ? JsonBodies<R> : never;
}[Method & keyof Item];
type AnyResponseBody = { [P in keyof paths]: OperationBodies<paths[P]> }[keyof paths];
type CodeOf<B> = B extends { error: { code: infer C } } ? C : never;

/** Every error `code` the OpenAPI document declares for any operation. */
export type ApiErrorCode = CodeOf<AnyResponseBody>;

/** A response that is not the API's error envelope (a proxy's HTML page, an empty body). */
export type ClientErrorCode = ApiErrorCode | 'unexpected_response';

export interface ErrorDetail {
  field: string;
  message: string;
}

/** An error answer of the marketplace API, as a value a caller can switch on. */
export class BountyApiError extends Error {
  override readonly name = 'BountyApiError';
  constructor(
    readonly status: number,
    readonly code: ClientErrorCode,
    message: string,
    readonly details: ErrorDetail[] | undefined,
    /** Quote it when reporting a problem: it finds the request in the service's logs. */
    readonly requestId: string | null,
    /** Seconds the service asked the caller to wait (429, some 503s), when it said so. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }

  /** Reads the error envelope; the response body is consumed. */
  static async fromResponse(response: Response): Promise<BountyApiError> {
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const envelope = readEnvelope(body);
    const requestId = readRequestId(body) ?? response.headers.get('x-request-id');
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    if (!envelope) {
      const snippet = text.slice(0, 200).trim();
      return new BountyApiError(
        response.status,
        'unexpected_response',
        `HTTP ${response.status}${snippet ? `: ${snippet}` : ' with no error body'}`,
        undefined,
        requestId,
        retryAfter,
      );
    }
    return new BountyApiError(
      response.status,
      envelope.code as ApiErrorCode,
      envelope.message,
      envelope.details,
      requestId,
      retryAfter,
    );
  }
}

function readEnvelope(body: unknown): { code: string; message: string; details?: ErrorDetail[] } | null {
  if (!body || typeof body !== 'object') return null;
  const error = (body as { error?: unknown }).error;
  if (!error || typeof error !== 'object') return null;
  const { code, message, details } = error as Record<string, unknown>;
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  return Array.isArray(details) ? { code, message, details: details as ErrorDetail[] } : { code, message };
}

function readRequestId(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const top = (body as { request_id?: unknown }).request_id;
  if (typeof top === 'string') return top;
  const inner = (body as { error?: { request_id?: unknown } }).error?.request_id;
  return typeof inner === 'string' ? inner : null;
}

/** `Retry-After` as seconds: either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
