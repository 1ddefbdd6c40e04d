import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../../infra/http/auth.ts';
import { callerKey } from '../../infra/http/rate-limit.ts';
import { EventsHeaders, EventsQuery } from './events.schemas.ts';
import type { EventsService } from './events.service.ts';

export const eventsRoutes: FastifyPluginAsyncTypebox<{ events: EventsService }> = async (app, { events }) => {
  // The key is optional here, but a key that is sent must be valid (401 as everywhere else).
  const optionalAuth = async (request: FastifyRequest) => {
    if (!request.agent && bearerToken(request)) await app.authenticate(request);
  };

  app.get(
    '/api/events',
    {
      onRequest: optionalAuth,
      schema: {
        tags: ['events'],
        operationId: 'streamEvents',
        summary: 'Live events (SSE); with a key, your personal events too',
        description:
          'Each message: `id: <event id>`, `event: <type>`, `data: <the event as in /api/activity>`. ' +
          'Reconnect with Last-Event-ID (or last_event_id) to replay exactly what you missed; an ' +
          'unknown id is 400. A comment line arrives at least every 15 s. One API key (or one client ' +
          'IP without a key) may hold a limited number of streams at once (20 by default, per ' +
          'instance); the next is 429 `too_many_streams`.',
        security: [{}, { bearerAuth: [] }],
        querystring: EventsQuery,
        headers: EventsHeaders,
        produces: ['text/event-stream'],
        response: {
          200: { description: 'An endless text/event-stream.', type: 'string' },
        },
        errorCodes: ['too_many_streams'],
      },
    },
    async (request, reply) => {
      const spec = await events.prepare({
        agentId: request.agent?.id ?? null,
        client: callerKey(request),
        types: request.query.types,
        projectId: request.query.project_id,
        // EventSource sends the header on every reconnect while the URL keeps its first query.
        lastEventId: request.headers['last-event-id'] ?? request.query.last_event_id,
      });
      reply.hijack();
      await events.serve(reply.raw, spec, reply.getHeaders());
    },
  );
};
