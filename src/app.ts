import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginCallback } from 'fastify';
import type { Redis } from 'ioredis';
import { lazySerializers, lazyValidator } from './app-schemas.ts';
import { buildServices, type ServiceDeps, type Services } from './compose.ts';
import type { Config } from './infra/config.ts';
import { AccessLog } from './infra/http/access-log.ts';
import { registerAuth } from './infra/http/auth.ts';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './infra/http/error-handler.ts';
import { registerIdempotency } from './infra/http/idempotency.ts';
import { OPENAPI_TAGS, openApiComponents, registerOpenApiMeta } from './infra/http/openapi-meta.ts';
import { registerRateLimit } from './infra/http/rate-limit.ts';
import { registerRequestGuards } from './infra/http/request-guards.ts';
import { genReqId, REQUEST_ID_LOG_LABEL, registerRequestId } from './infra/http/request-id.ts';
import { validatorCompiler } from './infra/http/validation.ts';
import { Metrics } from './infra/metrics.ts';
import { unavailableRepoHost } from './infra/repo-host/repo-host.ts';
import { MCP_MAX_BATCH, mcpRoutes } from './mcp/mcp.routes.ts';
import { activityRoutes } from './modules/activity/activity.routes.ts';
import { agentDocsRoutes } from './modules/agent-docs/agent-docs.routes.ts';
import { agentWebhooksRoutes } from './modules/agent-webhooks/agent-webhooks.routes.ts';
import { agentsRoutes } from './modules/agents/agents.routes.ts';
import { bountiesRoutes } from './modules/bounties/bounties.routes.ts';
import { bountyRepositoryRoutes } from './modules/bounties/bounty-repository.routes.ts';
import { commentsRoutes } from './modules/comments/comments.routes.ts';
import { configRoutes } from './modules/config/config.routes.ts';
import { BODY_LIMIT_BYTES, publicConfig } from './modules/config/config.service.ts';
import { eventsRoutes } from './modules/events/events.routes.ts';
import { registerOperations } from './modules/operations/operations.ts';
import { projectsRoutes } from './modules/projects/projects.routes.ts';
import { reviewsRoutes } from './modules/reviews/reviews.routes.ts';
import { statsRoutes } from './modules/stats/stats.routes.ts';
import { walletsRoutes } from './modules/wallets/wallets.routes.ts';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.ts';
import { consolePages } from './web/console/console.plugin.ts';
import { docsUiOptions } from './web/public/docs-ui.ts';
import { publicPages } from './web/public/public-pages.ts';
import { type LocalHostSignIn, repoHostSignIn } from './web/repo-host-sign-in.ts';
import { webSessionPlugin } from './web/session.ts';
import { webCore } from './web/web-core.ts';

/** The services' parts (`ServiceDeps`: database, chain, clock, config, repoHost, vault) and the app's own. */
export interface AppDeps extends ServiceDeps {
  /** A pino logger; without one the app logs nothing (tests). */
  logger?: FastifyBaseLogger;
  /** Shared rate-limit counters for several instances; in-memory counters without it. */
  redis?: Redis;
  /** Background jobs (claim expiry); tests drive them by hand instead. */
  runJobs?: boolean;
  /**
   * Prometheus metrics; main.ts makes them first so that the chain adapter reports its RPC calls
   * to the same registry. A fresh set without one.
   */
  metrics?: Metrics;
  /** The @fastify/otel plugin when tracing is on (telemetry.ts); registered before anything else. */
  tracing?: FastifyPluginCallback;
  /** The built-in repository host (main.ts): its pages sign in through the marketplace's session. */
  localRepoHost?: LocalHostSignIn;
  /** Compile every route's schemas while building (a test that checks them all), not at first use. */
  eagerSchemas?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export async function buildApp(deps: AppDeps) {
  const { config } = deps;
  const metrics = deps.metrics ?? new Metrics();
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    genReqId,
    logController: new AccessLog({ requestIdLogLabel: REQUEST_ID_LOG_LABEL }),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    frameworkErrors,
    clientErrorHandler,
    routerOptions: { ignoreTrailingSlash: true },
    schemaController: { compilersFactory: { buildSerializer: lazySerializers(deps.eagerSchemas) } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // First, so that the request span encloses every hook and handler.
  if (deps.tracing) await app.register(deps.tracing);
  // Before the limiter and the auth hook, so that their refusals carry the id too.
  registerRequestId(app as unknown as FastifyInstance);
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the URL (one series per route); anything unrouted shares one.
    metrics.observeHttp(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.setValidatorCompiler(deps.eagerSchemas ? validatorCompiler : lazyValidator);
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
  // Before any route: it checks each route's own OpenAPI metadata and adds its error responses.
  const routeCatalog = registerOpenApiMeta(app);
  registerIdempotency(app, {
    db: deps.database.db,
    clock: deps.clock,
    // Approve, the slowest handler, holds the approval lease at most this long.
    lockSeconds: Math.max(60, config.payouts.approvalLeaseSeconds + 30),
    ...(deps.runJobs ? { purgeEverySeconds: 3600 } : {}),
  });
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
      // Relative: the document is served by the API it describes, wherever that is reached.
      servers: [{ url: '/' }],
      tags: OPENAPI_TAGS,
      components: openApiComponents(),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', ...docsUiOptions });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));

  const services = buildServices({ ...deps, metrics }, app.log);
  app.decorate('services', services);
  registerAuth(app, (key) => services.agents.authenticate(key));

  await app.register(agentsRoutes, { agents: services.agents, config });
  await app.register(projectsRoutes, { projects: services.projects, activation: services.activation });
  await app.register(bountiesRoutes, {
    bounties: services.bounties,
    listVersion: () => services.activity.latestId(),
    listReuseMs: config.bountyListCacheMs,
  });
  await app.register(bountyRepositoryRoutes, { repository: services.bountyRepository });
  await app.register(commentsRoutes, { comments: services.comments });
  await app.register(reviewsRoutes, { submissions: services.submissions, approvals: services.approvals });
  await app.register(activityRoutes, { activity: services.activity });
  await app.register(eventsRoutes, { events: services.events });
  // Before the server closes: open streams would otherwise keep close() waiting forever.
  app.addHook('preClose', () => services.events.close());
  await app.register(walletsRoutes, {
    wallets: services.wallets,
    devChain: deps.chain.info?.devChain ?? false,
  });
  await app.register(webhooksRoutes, { webhooks: services.webhooks });
  await app.register(agentWebhooksRoutes, { webhooks: services.agentWebhooks });
  await app.register(statsRoutes, { stats: services.stats });
  // Agents' MCP tools call the same services as the routes above.
  await app.register(mcpRoutes, {
    services,
    repoHost: deps.repoHost ?? unavailableRepoHost,
    config,
    devChain: deps.chain.info?.devChain ?? false,
    metrics,
  });
  await app.register(configRoutes, {
    publicConfig: () =>
      publicConfig(config, deps.chain, deps.repoHost ? deps.repoHost.info : null, services.wallets.enabled),
  });
  // llms.txt and skill.md list the catalog's routes when first asked, so routes registered later count too.
  await app.register(agentDocsRoutes, {
    catalog: routeCatalog,
    claimTtlHours: config.claimTtlHours,
    reclaimCooldownHours: config.reclaimCooldownHours,
    newAgentMaxClaims: config.newAgentMaxClaims,
    feeBps: config.platformFeeBps,
    rateLimit: config.rateLimit,
    bodyLimitBytes: BODY_LIMIT_BYTES,
    eventStreamsPerClient: config.events.maxStreamsPerClient,
    mcpMaxBatch: MCP_MAX_BATCH,
  });

  // The web: shared page machinery (templates, assets, CSP) once, then each side's pages.
  await app.register(webCore);
  // Before any page: its onRequest hook puts the signed-in agent on request.webSession.
  await app.register(webSessionPlugin, {
    database: deps.database,
    clock: deps.clock,
    onKeyRotated: (listener) => services.agents.onKeyRotated(listener),
  });
  await app.register(publicPages, {
    services,
    chain: deps.chain,
    clock: deps.clock,
    explorerUrl: deps.chain.info?.explorerUrl ?? config.chain.explorerUrl ?? null,
    rateLimit: config.rateLimit,
  });

  if (deps.localRepoHost)
    await app.register(repoHostSignIn, { host: deps.localRepoHost, agents: services.agents });

  // Sign-in's console: every form calls the services the JSON routes call.
  await app.register(consolePages, {
    services,
    repoHost: deps.repoHost ?? unavailableRepoHost,
    db: deps.database.db,
    config,
    devChain: deps.chain.info?.devChain ?? false,
    explorerUrl: deps.chain.info?.explorerUrl ?? config.chain.explorerUrl ?? null,
    clock: deps.clock,
  });

  // Probes and metrics: /livez, /readyz, /metrics.
  await registerOperations(app as unknown as FastifyInstance, {
    metrics,
    db: deps.database.db,
    clock: deps.clock,
    chain: deps.chain,
    repoHost: deps.repoHost ?? unavailableRepoHost,
    sponsorLowBalanceWei: config.sponsor.lowBalanceWei,
  });

  // Refuses to start beside payout transactions of another key still in flight (a key change, a
  // second instance with its own key): replacing them from here could let both transfers land.
  if (deps.chain.info) await services.payouts.assertNoForeignLegsInFlight();
  // Payout transactions moved from the old payout ledger (migration 0017) get their call back
  // from their signed bytes, before the engine follows them.
  await services.txEngine.backfillCalls();
  // A watcher that held the lease (as a job or polled by hand) gives it up, so another instance
  // takes over at once.
  app.addHook('onClose', () => services.chainWatcher.release());
  // A pass a merge webhook started may still be paying: close after it.
  app.addHook('onClose', () => services.owedPayouts.idle());
  if (deps.runJobs) startJobs(app as unknown as FastifyInstance, services, config, metrics);
  return app;
}

// Due webhook deliveries are picked up within this long (an indexed query on pending rows).
const WEBHOOK_POLL_SECONDS = 1;

/**
 * Background work of every instance: reopening lapsed claims and driving unfinished payouts.
 * Each job runs one pass at a time; closing the app waits for a running pass to end.
 */
function startJobs(app: FastifyInstance, services: Services, config: Config, metrics: Metrics) {
  const every = (name: string, seconds: number, pass: () => Promise<unknown>) => {
    let running: Promise<unknown> | null = null;
    const job = name.replaceAll(' ', '_');
    const tick = () => {
      if (running) return;
      running = metrics
        .timeJob(job, pass)
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
  // Owed rewards (the founder merged) are paid as soon as the founder's funds cover them.
  every('owed payouts', config.payouts.reconcileIntervalSeconds, () => services.owedPayouts.run());
  // Leased: only one instance of the deployment reads the token logs; the others stand by.
  every('chain watcher', config.chain.watchIntervalSeconds, () => services.chainWatcher.poll());
  every('webhook delivery', WEBHOOK_POLL_SECONDS, () => services.webhookDelivery.runOnce());
  // The transaction engine follows every transaction the service signs (payouts, wallets, the
  // sponsor) to the end: receipts, reorgs, lost bytes, fee bumps, lost nonces and gaps.
  every('transactions', config.payouts.reconcileIntervalSeconds, () => services.txEngine.run());
}
