import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode } from '../../lib/errors.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';
import { toDetails } from './validation.ts';

const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [
    'payload_too_large',
    'The request body is larger than this endpoint accepts (64 KiB; 1 MiB for webhooks).',
  ],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Send the request body as application/json.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [
    'validation_error',
    'The Content-Length header does not match the body.',
  ],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['validation_error', 'The request body is empty; send a JSON object.'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['validation_error', 'The request body is not valid JSON.'],
};

function toAppError(err: FastifyError): AppError {
  if (err instanceof AppError) return err;
  if (err.validation) {
    const part = err.validationContext ?? 'body';
    return new AppError(
      'validation_error',
      `The request ${part} is invalid.`,
      toDetails(err.validation, part),
    );
  }
  const known = err.code ? FASTIFY_CODES[err.code] : undefined;
  if (known) return new AppError(known[0], known[1]);
  if (err instanceof SyntaxError || err.statusCode === 400) {
    return new AppError('validation_error', 'The request body is not valid JSON.');
  }
  if (err.statusCode === 429)
    return new AppError('rate_limited', 'Too many requests; retry after the time in Retry-After.');
  if (err.statusCode === 413)
    return new AppError(
      'payload_too_large',
      'The request body is larger than this endpoint accepts (64 KiB; 1 MiB for webhooks).',
    );
  if (err.statusCode === 415)
    return new AppError('unsupported_media_type', 'Send the request body as application/json.');
  return new AppError('internal_error', 'Something went wrong on our side; it has been logged.');
}

/** One handler renders every error in the contract's envelope; 5xx details go to the log only. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const appErr = toAppError(err);
    if (appErr.status >= 500) request.log.error({ err }, 'request failed');
    if (appErr.code === 'unauthorized') reply.header('WWW-Authenticate', 'Bearer');
    const error = {
      code: appErr.code,
      message: appErr.message,
      ...(appErr.details ? { details: appErr.details } : {}),
      // The X-Request-Id, for a caller quoting it to support.
      request_id: request.id,
    };
    return reply.status(appErr.status).send({ error });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({
      error: {
        code: 'not_found',
        message: `No route ${request.method} ${request.url.split('?')[0]}.`,
        request_id: request.id,
      },
    });
  });
}

/**
 * Errors the router raises before any route matches (a path segment over the length limit, a
 * URL that does not decode) get the same envelope; such a path names no resource, so 404.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const badPath = err.code === 'FST_ERR_MAX_PARAM_LENGTH' || err.code === 'FST_ERR_BAD_URL';
  if (!badPath) request.log.error({ err }, 'request failed');
  const error = badPath
    ? { code: 'not_found', message: 'No resource exists at that path.' }
    : { code: 'internal_error', message: 'Something went wrong on our side; it has been logged.' };
  // No hook runs for these, so the id header is set here (request-id.ts sets it for the rest).
  reply.header(REQUEST_ID_HEADER, request.id);
  reply.status(badPath ? 404 : 500).send({ error: { ...error, request_id: request.id } });
}

/**
 * A request Node's HTTP parser refused before Fastify saw it (a request line and headers over its
 * 16 KiB limit, a malformed request): answered in the envelope like every other error, with a
 * request id of its own, then the connection ends.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const overflow = err.code === 'HPE_HEADER_OVERFLOW';
  const e = overflow
    ? new AppError('headers_too_large', 'The request line and headers are over 16 KiB; send less.')
    : new AppError('validation_error', 'The request could not be read as HTTP.');
  const body = JSON.stringify({ error: { code: e.code, message: e.message, request_id: randomUUID() } });
  const reason = overflow ? 'Request Header Fields Too Large' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${e.status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
