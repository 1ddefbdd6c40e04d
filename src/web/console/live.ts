import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONSOLE_EVENT_TYPES, type ConsoleDeps, consoleCtx } from './kit.ts';

/**
 * `GET /console/events`: the signed-in agent's event stream, the same stream as `GET /api/events`
 * with its API key (public events and its personal ones, such as payout.failed), authenticated by
 * the browser session instead, which EventSource sends by itself. `console-live.js` follows it and
 * re-fetches a page's live part on the events that concern it; it resumes after the page's render
 * point (`last_event_id`) or, on a reconnection, `Last-Event-ID`. Read only: no CSRF to check; the
 * session cookie is SameSite=Lax, so another site cannot open it with the viewer's session.
 */
const EVENT_ID = /^evt_[0-9a-f]{32}$/;

/** `Last-Event-ID` (a reconnection), else `?last_event_id=` (a page's first connection); an id only. */
function lastEventIdOf(request: FastifyRequest): { lastEventId?: string } {
  const header = request.headers['last-event-id'];
  const query = (request.query as { last_event_id?: unknown } | undefined)?.last_event_id;
  const id = typeof header === 'string' && header ? header : typeof query === 'string' ? query : '';
  return EVENT_ID.test(id) ? { lastEventId: id } : {};
}

export function registerLiveStream(app: FastifyInstance, deps: ConsoleDeps): void {
  app.get('/console/events', { schema: { hide: true } }, async (request, reply) => {
    const ctx = await consoleCtx(deps, request);
    if (!ctx) return reply.status(401).header('cache-control', 'no-store').send('');
    // A page reloads what it shows on connecting: no replay is needed after a reconnection.
    // Refusals (too many streams) are the API's JSON errors, from the app's error handler.
    const spec = await ctx.services.events.prepare({
      agentId: ctx.session.agentId,
      // The same slots as the agent's API streams: one agent, one budget of open streams.
      client: `agent:${ctx.session.agentId}`,
      types: CONSOLE_EVENT_TYPES.join(','),
      // The page's own render point (data-live-since), then the browser's reconnection point.
      ...lastEventIdOf(request),
    });
    reply.hijack();
    await ctx.services.events.serve(reply.raw, spec, reply.getHeaders());
  });
}
