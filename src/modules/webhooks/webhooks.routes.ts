import type { FastifyPluginAsync } from 'fastify';
import type { WebhooksService } from './webhooks.service.ts';

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * A `pull_request` delivery carries the whole pull request (a description of up to 65,536
 * characters) plus repository, user and label objects: often past the API's 64 KiB, well under 1 MiB.
 */
export const WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;

export const webhooksRoutes: FastifyPluginAsync<{ webhooks: WebhooksService }> = async (
  app,
  { webhooks },
) => {
  // The signature covers the exact bytes GitHub sent, so this scope keeps the body raw.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/api/webhooks/github',
    {
      config: { rateLimit: false },
      bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
      schema: {
        operationId: 'receiveRepoHostWebhook',
        tags: ['webhooks'],
        summary: 'Repository host webhook: a merge by the founder makes the reward owed; it is paid by a job',
        description:
          'GitHub (or local host) webhook: a merge by the founder makes the reward owed; a job pays it',
        security: [{ webhookSignature: [] }],
        errorCodes: ['forbidden', 'upstream_error', 'repo_host_unavailable'],
      },
    },
    async (request) =>
      webhooks.handle({
        id: header(request.headers['x-github-delivery']),
        event: header(request.headers['x-github-event']),
        signature: header(request.headers['x-hub-signature-256']),
        rawBody: (request.body as Buffer | undefined) ?? Buffer.alloc(0),
      }),
  );
};
