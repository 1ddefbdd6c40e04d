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
 * Starts OpenTelemetry tracing (NodeSDK, OTLP over HTTP) and returns the Fastify plugin to
 * register. Called by main.ts only when OTEL_EXPORTER_OTLP_ENDPOINT is set; the SDK is imported
 * here, lazily, so that without it none of it is loaded. Traces only: metrics are Prometheus's
 * (/metrics) and logs go to stdout, so the SDK's own metrics and logs exporters stay off.
 */
export async function startTracing(opts: TracingOptions): Promise<Tracing> {
  const [{ NodeSDK, tracing }, { OTLPTraceExporter }, { FastifyOtelInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@fastify/otel'),
  ]);
  const exporter = new OTLPTraceExporter({ url: `${opts.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const instrumentation = new FastifyOtelInstrumentation({
    // Probes and scrapes every few seconds would bury the requests worth reading.
    ignorePaths: ({ url }) => url === '/livez' || url === '/readyz' || url === '/metrics',
  });
  const sdk = new NodeSDK({
    serviceName: opts.serviceName ?? 'bounty-marketplace',
    spanProcessors: [
      new tracing.BatchSpanProcessor(exporter, { scheduledDelayMillis: opts.scheduledDelayMs ?? 5_000 }),
    ],
    instrumentations: [instrumentation],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return { plugin: instrumentation.plugin(), shutdown: () => sdk.shutdown() };
}
