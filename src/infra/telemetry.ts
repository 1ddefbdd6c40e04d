import type { FastifyPluginCallback } from 'fastify';

export interface Tracing {
  /** @fastify/otel's plugin: one span per request, with its hooks and handler. */
  plugin: FastifyPluginCallback;
  /** Flushes the spans still buffered, then stops exporting. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; spans go to `{endpoint}/v1/traces`. */
  endpoint: string;
  serviceName?: string;
  /** How long finished spans wait to be sent in a batch (tests shorten it). */
  scheduledDelayMs?: number;
}

/**
 * Starts OpenTelemetry tracing (a Node tracer provider, OTLP over HTTP) and returns the Fastify
 * plugin to register. Called by main.ts only when OTEL_EXPORTER_OTLP_ENDPOINT is set; the SDK is
 * imported here, lazily, so that without it none of it is loaded. Traces only: metrics are
 * Prometheus's (/metrics) and logs go to stdout, so neither the SDK's metrics and logs nor its
 * other exporters are installed (`@opentelemetry/sdk-node` brought every one of them, 170 MB).
 * `register()` makes the provider the process's, with the async-hooks context manager and the W3C
 * trace-context and baggage propagators, as NodeSDK did.
 */
export async function startTracing(opts: TracingOptions): Promise<Tracing> {
  const [
    { NodeTracerProvider, BatchSpanProcessor },
    resources,
    { registerInstrumentations },
    { OTLPTraceExporter },
    { FastifyOtelInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@fastify/otel'),
  ]);
  const exporter = new OTLPTraceExporter({ url: `${opts.endpoint.replace(/\/+$/, '')}/v1/traces` });
  // As NodeSDK built it: the SDK's own attributes, the host's and process's, OTEL_RESOURCE_ATTRIBUTES,
  // then the service's name over them. The sampler comes from OTEL_TRACES_SAMPLER (the provider's default).
  const resource = resources
    .defaultResource()
    .merge(
      resources.detectResources({
        detectors: [resources.envDetector, resources.processDetector, resources.hostDetector],
      }),
    )
    .merge(resources.resourceFromAttributes({ 'service.name': opts.serviceName ?? 'bounty-marketplace' }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [
      new BatchSpanProcessor(exporter, { scheduledDelayMillis: opts.scheduledDelayMs ?? 5_000 }),
    ],
  });
  provider.register();
  const instrumentation = new FastifyOtelInstrumentation({
    // Probes and scrapes every few seconds would bury the requests worth reading.
    ignorePaths: ({ url }) => url === '/livez' || url === '/readyz' || url === '/metrics',
  });
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [instrumentation],
  });
  return {
    plugin: instrumentation.plugin(),
    shutdown: async () => {
      unregister();
      await provider.shutdown();
    },
  };
}
