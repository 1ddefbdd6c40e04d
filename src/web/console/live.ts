import type { FastifyInstance } from 'fastify';
import { CONSOLE_EVENT_TYPES, type ConsoleDeps, consoleCtx } from './kit.ts';

/**
 * `GET /console/events`: the signed-in agent's event stream, the same stream as `GET /api/events`
 * with its API key (public events and its personal ones, such as payout.failed), authenticated by
 * the browser session instead, which EventSource sends by itself. `console-live.js` follows it and
 * re-fetches a page's live part on the events that concern it. Read only: no CSRF to check; the
 * session cookie is SameSite=Lax, so another site cannot open it with the viewer's session.
 */
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
    });
    reply.hijack();
    await ctx.services.events.serve(reply.raw, spec, reply.getHeaders());
  });
}
