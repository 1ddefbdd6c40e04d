import { DOCS } from './github-shapes.ts';

export type Body = Record<string, unknown>;

export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

// GitHub's error bodies: `basic-error` and `validation-error`.
export const notFound = (): ApiResponse => ({
  status: 404,
  body: { message: 'Not Found', documentation_url: DOCS, status: '404' },
});

export const refused = (status: number, message: string): ApiResponse => ({
  status,
  body: { message, documentation_url: DOCS, status: String(status) },
});

export interface FieldError {
  resource: string;
  code: 'missing_field' | 'invalid' | 'already_exists' | 'custom';
  field?: string;
  message?: string;
}

export const validationFailed = (errors: FieldError[], message = 'Validation Failed'): ApiResponse => ({
  status: 422,
  body: { message, errors, documentation_url: DOCS, status: '422' },
});

export const problemsParsingJson = (): ApiResponse => refused(400, 'Problems parsing JSON');

/** No credentials on a write (GitHub's wording). */
export const requiresAuthentication = (): ApiResponse => refused(401, 'Requires authentication');

/** Credentials that match nobody, on any request. */
export const badCredentials = (): ApiResponse => refused(401, 'Bad credentials');

export const forbidden = (message: string): ApiResponse => refused(403, message);

/** GitHub's `per_page` (default 30, at most 100) and `page` (from 1) of a list. */
export function paging(q: URLSearchParams): { perPage: number; page: number; from: number } {
  const perPage = Math.min(Math.max(Number.parseInt(q.get('per_page') ?? '30', 10) || 30, 1), 100);
  const page = Math.max(Number.parseInt(q.get('page') ?? '1', 10) || 1, 1);
  return { perPage, page, from: (page - 1) * perPage };
}

/**
 * A request Node's HTTP parser refused before any handler ran (headers over its limit, a malformed
 * request line): answered in GitHub's error shape, like every other error, then the connection ends.
 */
export function clientErrorAnswer(err: { code?: string }): string {
  const overflow = err.code === 'HPE_HEADER_OVERFLOW';
  const status = overflow ? 431 : 400;
  const body = JSON.stringify(
    refused(status, overflow ? 'Request Header Fields Too Large' : 'Bad Request').body,
  );
  return (
    `HTTP/1.1 ${status} ${overflow ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
    `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
    `connection: close\r\n\r\n${body}`
  );
}
