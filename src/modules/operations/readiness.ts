import type { FastifyBaseLogger } from 'fastify';

/** A cheap call to one dependency; it answers when the promise resolves in time. */
export type Probe = () => Promise<unknown>;

// Short: a probe that waits longer than its caller's own timeout (a kubelet's is 1 s by default,
// often raised to a few) reports nothing useful, and a dependency this slow is not serving.
export const PROBE_TIMEOUT_MS = 2_000;

/**
 * Whether this instance can serve: each dependency is asked once per check, all at once, each
 * with a timeout. Checks that overlap share one round of probes, so a flood of /readyz (it is not
 * rate limited, see operations.routes.ts) costs the database, the chain and the repository host
 * at most one call each at a time.
 */
export class Readiness {
  private inFlight: Promise<string[]> | null = null;
  private closing = false;

  constructor(
    private readonly probes: Record<string, Probe>,
    private readonly log: FastifyBaseLogger,
    private readonly timeoutMs = PROBE_TIMEOUT_MS,
  ) {}

  /** From now on the instance reports itself unavailable, so balancers stop sending it traffic. */
  markClosing(): void {
    this.closing = true;
  }

  /** The names of what does not answer (`shutting_down` once closing began); empty when ready. */
  async failing(): Promise<string[]> {
    if (this.closing) return ['shutting_down'];
    this.inFlight ??= this.probeAll().finally(() => {
      this.inFlight = null;
    });
    const failing = await this.inFlight;
    // Closing may have begun while the probes ran.
    return this.closing ? [...failing, 'shutting_down'] : failing;
  }

  private async probeAll(): Promise<string[]> {
    const names = Object.keys(this.probes);
    const results = await Promise.all(names.map((name) => this.answers(name, this.probes[name] as Probe)));
    return names.filter((_, i) => !results[i]);
  }

  private async answers(name: string, probe: Probe): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => {
        this.log.warn({ dependency: name, timeoutMs: this.timeoutMs }, 'readiness probe timed out');
        resolve(false);
      }, this.timeoutMs);
    });
    try {
      return await Promise.race([
        probe().then(
          () => true,
          (err: unknown) => {
            this.log.warn({ err, dependency: name }, 'readiness probe failed');
            return false;
          },
        ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
