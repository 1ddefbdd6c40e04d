import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAgent } from '../../infra/http/auth.ts';
import { errors } from '../../infra/http/schemas.ts';
import {
  CreatedWebhook,
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryList,
  RotatedSecret,
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
        summary: 'Register a webhook; the response holds its one-time signing secret',
        body: CreateWebhookBody,
        response: { 201: CreatedWebhook, ...errors(400, 401, 409, 413, 415, 429) },
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
        summary: 'Own webhooks',
        response: { 200: WebhookList, ...errors(401, 429) },
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
        summary: 'Delete a webhook; its pending deliveries stop',
        params: WebhookParams,
        response: { 204: { type: 'null' }, ...errors(401, 404, 429) },
      },
    },
    async (request, reply) => {
      await webhooks.remove(requireAgent(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/agents/me/webhooks/:id/rotate-secret',
    {
      onRequest: app.authenticate,
      schema: {
        ...schema,
        summary: 'Replace the signing secret; the old one stops signing at once',
        params: WebhookParams,
        response: { 200: RotatedSecret, ...errors(401, 404, 429) },
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
        summary: 'Delivery attempts of a webhook, newest first',
        params: WebhookParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryList, ...errors(400, 401, 404, 429) },
      },
    },
    async (request) => ({
      deliveries: await webhooks.deliveries(requireAgent(request).id, request.params.id, request.query.limit),
    }),
  );
};
