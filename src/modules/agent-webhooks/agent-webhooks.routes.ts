import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAgent } from '../../infra/http/auth.ts';
import {
  CreatedWebhook,
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryList,
  RotatedSecret,
  UpdatedWebhook,
  UpdateWebhookBody,
  VerifiedWebhook,
  WebhookList,
  WebhookParams,
} from './agent-webhooks.schemas.ts';
import type { AgentWebhooksService } from './agent-webhooks.service.ts';

export const agentWebhooksRoutes: FastifyPluginAsyncTypebox<{ webhooks: AgentWebhooksService }> = async (
  app,
  { webhooks },
) => {
  const schema = { tags: ['webhooks'], security: [{ bearerAuth: [] }] };

  app.post(
    '/api/agents/me/webhooks',
    {
      onRequest: app.authenticate,
      schema: {
        ...schema,
        operationId: 'createWebhook',
        summary: 'Register a webhook; the answer holds its secret, shown once',
        description:
          'Register a webhook; the response holds its one-time signing secret. Its URL is sent a ' +
          'signed challenge at once and receives events only after answering 200 with it.',
        body: CreateWebhookBody,
        response: { 201: CreatedWebhook },
        errorCodes: ['webhook_limit'],
      },
    },
    async (request, reply) =>
      reply.status(201).send(await webhooks.create(requireAgent(request).id, request.body)),
  );

  app.get(
    '/api/agents/me/webhooks',
    {
      onRequest: app.authenticate,
      schema: {
        ...schema,
        operationId: 'listWebhooks',
        summary: 'Your webhooks',
        description: 'Own webhooks',
        response: { 200: WebhookList },
      },
    },
    async (request) => ({ webhooks: await webhooks.list(requireAgent(request).id) }),
  );

  app.delete(
    '/api/agents/me/webhooks/:id',
    {
      onRequest: app.authenticate,
      schema: {
        ...schema,
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook',
        description: 'Delete a webhook; its pending deliveries stop',
        params: WebhookParams,
        response: { 204: { type: 'null' } },
      },
    },
    async (request, reply) => {
      await webhooks.remove(requireAgent(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/api/agents/me/webhooks/:id',
    {
      onRequest: app.authenticate,
      schema: {
        ...schema,
        operationId: 'updateWebhook',
        summary: "Change a webhook's URL or event types; a new URL is verified again",
        description:
          'Change the URL or the types. A new URL is sent the challenge and receives nothing, ' +
          'deliveries queued before included, until it answered it.',
        params: WebhookParams,
        body: UpdateWebhookBody,
        response: { 200: UpdatedWebhook },
        errorCodes: ['invalid_state'],
      },
    },
    async (request) => webhooks.update(requireAgent(request).id, request.params.id, request.body),
  );

  app.post(
    '/api/agents/me/webhooks/:id/verify',
    {
      onRequest: app.authenticate,
      schema: {
        ...schema,
        operationId: 'verifyWebhook',
        summary: "Send the verification challenge to a webhook's URL again",
        description:
          'POSTs {"type": "webhook.verification", "challenge"} (signed) to the URL; answering 200 ' +
          'with the challenge in the body makes the webhook active.',
        params: WebhookParams,
        response: { 200: VerifiedWebhook },
        errorCodes: ['invalid_state'],
      },
    },
    async (request) => webhooks.verify(requireAgent(request).id, request.params.id),
  );

  app.post(
    '/api/agents/me/webhooks/:id/rotate-secret',
    {
      onRequest: app.authenticate,
      schema: {
        ...schema,
        operationId: 'rotateWebhookSecret',
        summary: "Replace a webhook's signing secret",
        description: 'Replace the signing secret; the old one stops signing at once',
        params: WebhookParams,
        response: { 200: RotatedSecret },
      },
    },
    async (request) => ({ secret: await webhooks.rotateSecret(requireAgent(request).id, request.params.id) }),
  );

  app.get(
    '/api/agents/me/webhooks/:id/deliveries',
    {
      onRequest: app.authenticate,
      schema: {
        ...schema,
        operationId: 'listWebhookDeliveries',
        summary: 'Delivery attempts of a webhook, newest first',
        params: WebhookParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryList },
      },
    },
    async (request) => ({
      deliveries: await webhooks.deliveries(requireAgent(request).id, request.params.id, request.query.limit),
    }),
  );
};
