import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * Fastify's request log lines, one per request instead of two: the access line ("request
 * completed", or "request errored"), with the request (method, URL redacted, host, address), the
 * status and the time, is written when the request is answered; "incoming request" is written only
 * at debug level. Each line is serialized, redacted and written synchronously (a system call
 * each): a second line per request was a second share of that, for nothing the first cannot say
 * (bench/README.md, "The access log"). Error lines (`defaultErrorLog`, `streamError`, ...) are
 * Fastify's own.
 */
export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
