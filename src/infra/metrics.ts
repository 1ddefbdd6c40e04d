import type { FastifyBaseLogger } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Values read from the database when Prometheus scrapes, never on a request's path. */
export interface DatabaseReadings {
  payoutsPending(): Promise<number>;
  /** Seconds since the oldest leg still signed or sent was signed; 0 without one. */
  oldestPendingLegAgeSeconds(): Promise<number>;
  outboxPending(): Promise<number>;
}

// Chain calls take from a millisecond (anvil) to seconds (a public RPC under load).
const RPC_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The process's Prometheus metrics. Each app has its own Registry, not prom-client's global one,
 * so that several apps in one process (tests, benchmarks) neither collide nor mix their numbers.
 * Counters and histograms are this instance's; gauges read from the database are the deployment's.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [this.registry],
  });
  private readonly rpcDuration = new Histogram({
    name: 'chain_rpc_duration_seconds',
    help: 'JSON-RPC calls to the chain node by method (retries included).',
    labelNames: ['method'] as const,
    buckets: RPC_BUCKETS,
    registers: [this.registry],
  });
  private readonly rpcErrors = new Counter({
    name: 'chain_rpc_errors_total',
    help: 'JSON-RPC calls to the chain node that failed (error answer, timeout, unreachable).',
    labelNames: ['method'] as const,
    registers: [this.registry],
  });
  private readonly jobLastPass = new Gauge({
    name: 'job_last_pass_timestamp_seconds',
    help: 'When a background job (payout_reconciler, ...) last finished a pass without error.',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });
  private readonly jobDuration = new Gauge({
    name: 'job_last_pass_duration_seconds',
    help: 'How long the last successful pass of a background job took.',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });
  private readonly jobFailures = new Counter({
    name: 'job_failures_total',
    help: 'Passes of a background job that failed.',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });
  private readonly webhookFailures = new Counter({
    name: 'webhook_delivery_failures_total',
    help: 'Outbound webhook delivery attempts that failed (non-2xx answer, timeout, refused target).',
    registers: [this.registry],
  });
  private readonly streamsOpen = new Gauge({
    name: 'event_streams_open',
    help: 'Event streams (GET /api/events) open on this instance, the ones being prepared included.',
    registers: [this.registry],
  });
  private readonly streamsRefused = new Counter({
    name: 'event_streams_refused_total',
    help: 'Event streams refused with 429 too_many_streams (the client held EVENTS_MAX_STREAMS_PER_CLIENT).',
    registers: [this.registry],
  });
  private readonly mcpCalls = new Counter({
    name: 'mcp_calls_total',
    help:
      'JSON-RPC messages received on POST /mcp, each counted against the rate limit: served, or ' +
      'rate_limited (in a batch larger than the budget left, refused whole).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readingsAttached = false;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** `route` is the pattern (`/api/bounties/:id`), never the URL: one series per route, not per id. */
  observeHttp(method: string, route: string, statusCode: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status_code: String(statusCode) }, seconds);
  }

  /** The chain adapter's hook (evm-chain.ts); an arrow so that it can be handed over as is. */
  readonly observeRpc = (method: string, seconds: number, ok: boolean): void => {
    this.rpcDuration.observe({ method }, seconds);
    if (!ok) this.rpcErrors.inc({ method });
  };

  webhookDeliveryFailed(): void {
    this.webhookFailures.inc();
  }

  /** The event streams' slot table reports here (stream-slots.ts). */
  readonly eventStreams = {
    open: (total: number): void => this.streamsOpen.set(total),
    refused: (): void => this.streamsRefused.inc(),
  };

  /** `calls`: the messages of one POST /mcp (a batch's length, or 1). */
  mcpCallsCounted(outcome: 'served' | 'rate_limited', calls: number): void {
    this.mcpCalls.inc({ outcome }, calls);
  }

  /** Runs one pass of a background job and records when it ended and how long it took. */
  async timeJob<T>(job: string, pass: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      const result = await pass();
      this.jobDuration.set({ job }, (performance.now() - started) / 1000);
      this.jobLastPass.set({ job }, Date.now() / 1000);
      return result;
    } catch (err) {
      this.jobFailures.inc({ job });
      throw err;
    }
  }

  /**
   * Gauges computed when scraped (prom-client `collect`), so their queries run once per scrape.
   * A failed read drops the sample (an absent series alerts) and is logged; /readyz names the
   * database then.
   */
  readDatabase(readings: DatabaseReadings, log: FastifyBaseLogger): void {
    if (this.readingsAttached) throw new Error('Metrics already read a database; build one per app.');
    this.readingsAttached = true;
    const gauge = (name: string, help: string, read: () => Promise<number>) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          try {
            this.set(await read());
          } catch (err) {
            this.reset();
            log.warn({ err, metric: name }, 'metrics: database read failed');
          }
        },
      });
    gauge('payouts_pending', 'Payouts not yet confirmed or failed (the backlog).', () =>
      readings.payoutsPending(),
    );
    gauge(
      'payout_oldest_pending_leg_age_seconds',
      'Age of the oldest payout transfer signed or sent and not yet settled; 0 when none.',
      () => readings.oldestPendingLegAgeSeconds(),
    );
    gauge('webhook_outbox_pending', 'Outbound webhook deliveries waiting (the outbox depth).', () =>
      readings.outboxPending(),
    );
  }

  /** The sponsor key's ETH balance, read from the chain when scraped. */
  readSponsor(read: () => Promise<bigint>, log: FastifyBaseLogger): void {
    new Gauge({
      name: 'sponsor_balance_wei',
      help: 'ETH of the sponsor key, which pays the gas of in-app wallets without ETH (wei).',
      registers: [this.registry],
      async collect() {
        try {
          this.set(Number(await read()));
        } catch (err) {
          this.reset();
          log.warn({ err }, 'metrics: sponsor balance read failed');
        }
      },
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
