import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../infra/metrics.ts';
import type { Readiness } from './readiness.ts';

/**
 * Probes and metrics for the platform that runs the service, not for agents: hidden from the
 * OpenAPI document. /livez and /readyz skip the rate limiter: a kubelet or load balancer probes
 * from one address, often the address that all proxied traffic comes from too, and a probe
 * answered 429 would take a healthy instance out of service. /readyz shares one round of probes
 * between overlapping requests (readiness.ts), so skipping the limiter does not let a flood reach
 * the dependencies. /metrics stays limited (a scrape every few seconds is far below the limit).
 */
export async function operationsRoutes(
  app: FastifyInstance,
  opts: { metrics: Metrics; readiness: Readiness; warnings?: () => Promise<string[]> },
): Promise<void> {
  const probe = { schema: { hide: true }, config: { rateLimit: false } } as const;

  // Alive as long as the event loop answers; says nothing of the dependencies (that is /readyz),
  // so that an outage of the database does not get every instance restarted.
  app.get('/livez', probe, async () => ({ status: 'ok' }));

  app.get('/readyz', probe, async (_request, reply) => {
    const [failing, warnings] = await Promise.all([opts.readiness.failing(), opts.warnings?.() ?? []]);
    // A warning (the sponsor key running low) is for operators, not a reason to stop traffic.
    const warned = warnings.length > 0 ? { warnings } : {};
    if (failing.length === 0) return { status: 'ok', ...warned };
    return reply.status(503).send({ status: 'unavailable', failing, ...warned });
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const text = await opts.metrics.text();
    return reply.type(opts.metrics.contentType).send(text);
  });
}
