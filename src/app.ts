import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { buildServices, type Services } from './compose.ts';
import type { Chain } from './infra/chain/chain.ts';
import type { WalletVault } from './infra/chain/wallet-vault.ts';
import type { Config } from './infra/config.ts';
import type { Database } from './infra/db/client.ts';
import { registerAuth } from './infra/http/auth.ts';
import { frameworkErrors, registerErrorHandling } from './infra/http/error-handler.ts';
import { registerRateLimit } from './infra/http/rate-limit.ts';
import { registerRequestGuards } from './infra/http/request-guards.ts';
import { validatorCompiler } from './infra/http/validation.ts';
import type { RepoHost } from './infra/repo-host/repo-host.ts';
import type { Clock } from './lib/clock.ts';
import { activityRoutes } from './modules/activity/activity.routes.ts';
import { agentsRoutes } from './modules/agents/agents.routes.ts';
import { bountiesRoutes } from './modules/bounties/bounties.routes.ts';
import { configRoutes } from './modules/config/config.routes.ts';
import { BODY_LIMIT_BYTES, publicConfig } from './modules/config/config.service.ts';
import { projectsRoutes } from './modules/projects/projects.routes.ts';
import { reviewsRoutes } from './modules/reviews/reviews.routes.ts';
import { statsRoutes } from './modules/stats/stats.routes.ts';
import { walletsRoutes } from './modules/wallets/wallets.routes.ts';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.ts';

export interface AppDeps {
  database: Database;
  chain: Chain;
  clock: Clock;
  config: Config;
  /** Where project repositories live; without one, activation and submit answer 503. */
  repoHost?: RepoHost;
  /** A pino logger; without one the app logs nothing (tests). */
  logger?: FastifyBaseLogger;
  /** Seals custodial wallet keys; null when no master key is configured (no in-app wallets). */
  vault?: WalletVault | null;
  /** Shared rate-limit counters for several instances; in-memory counters without it. */
  redis?: Redis;
  /** Background jobs (claim expiry); tests drive them by hand instead. */
  runJobs?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export async function buildApp(deps: AppDeps) {
  const { config } = deps;
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    frameworkErrors,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Bodyless POSTs (claim, approve) may still say application/json; an empty body means "no body"
  // (any other body on a route without a body schema is refused: request-guards.ts).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // Fastify parses text/plain by default; the contract accepts JSON only, anything else is 415.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    parseJson(request, body as string, done);
  });
  registerErrorHandling(app);
  registerRequestGuards(app);
  await registerRateLimit(app, config.rateLimit, deps.redis);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Bounty Marketplace API',
        version: '1.0.0',
        description:
          'Agents earn project tokens for completing bounties. Errors: {"error": {"code", "message"}}.',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));

  const services = buildServices(deps, app.log);
  app.decorate('services', services);
  registerAuth(app, (key) => services.agents.authenticate(key));

  await app.register(agentsRoutes, { agents: services.agents, config });
  await app.register(projectsRoutes, { projects: services.projects, activation: services.activation });
  await app.register(bountiesRoutes, { bounties: services.bounties });
  await app.register(reviewsRoutes, { submissions: services.submissions, approvals: services.approvals });
  await app.register(activityRoutes, { activity: services.activity });
  await app.register(walletsRoutes, {
    wallets: services.wallets,
    devChain: deps.chain.info?.devChain ?? false,
  });
  await app.register(webhooksRoutes, { webhooks: services.webhooks });
  await app.register(statsRoutes, { stats: services.stats });
  await app.register(configRoutes, {
    publicConfig: () =>
      publicConfig(config, deps.chain, deps.repoHost ? deps.repoHost.info : null, services.wallets.enabled),
  });

  // Refuses to start beside payout legs of another key still in flight (a key change, a second
  // instance with its own key): replacing them from here could let both transfers land.
  if (deps.chain.info) await services.payouts.assertNoForeignLegsInFlight();
  if (deps.runJobs) startJobs(app as unknown as FastifyInstance, services, config);
  return app;
}

/**
 * Background work of every instance: reopening lapsed claims and driving unfinished payouts.
 * Each job runs one pass at a time; closing the app waits for a running pass to end.
 */
function startJobs(app: FastifyInstance, services: Services, config: Config) {
  const every = (name: string, seconds: number, pass: () => Promise<unknown>) => {
    let running: Promise<unknown> | null = null;
    const tick = () => {
      if (running) return;
      running = pass()
        .catch((err: unknown) => app.log.error({ err }, `${name} failed`))
        .finally(() => {
          running = null;
        });
    };
    const timer = setInterval(tick, seconds * 1000);
    timer.unref();
    tick();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
  };
  every('claim expiry sweep', config.claimSweepIntervalSeconds, () => services.bounties.expireClaims());
  every('payout reconciler', config.payouts.reconcileIntervalSeconds, () => services.approvals.reconcile());
}
