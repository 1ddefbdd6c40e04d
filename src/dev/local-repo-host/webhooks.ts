import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { signWebhook } from '../../infra/repo-host/webhook-signature.ts';

export interface WebhookTarget {
  url: string | null;
  secret: string;
}

const ATTEMPT_TIMEOUT_MS = 10_000;

/**
 * Delivers webhooks as GitHub does: a JSON POST signed with `X-Hub-Signature-256`, in the
 * background. A failed delivery is retried a couple of times, then logged and dropped (GitHub
 * does not redeliver by itself either).
 */
export class WebhookSender {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(
    private target: WebhookTarget,
    private readonly log?: FastifyBaseLogger,
    private readonly retryDelaysMs: number[] = [500, 2_000],
  ) {}

  setUrl(url: string | null): void {
    this.target = { ...this.target, url };
  }

  /** Sends in the background; `payload` is built lazily, and only when a URL is set. */
  send(event: string, payload: () => Promise<unknown>): void {
    const url = this.target.url;
    if (!url) return;
    const delivery = payload()
      .then((p) => this.deliver(url, event, JSON.stringify(p)))
      .catch((err: unknown) => this.log?.error({ err, event }, 'webhook payload could not be built'))
      .finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
  }

  /** Ends retries and waits for deliveries under way. */
  async close(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.inFlight]);
  }

  private async deliver(url: string, event: string, body: string): Promise<void> {
    const id = randomUUID();
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/local-repo-host',
      'x-github-event': event,
      'x-github-delivery': id,
      'x-github-hook-id': '1',
      'x-hub-signature-256': signWebhook(this.target.secret, body),
    };
    const attempts = this.retryDelaysMs.length + 1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      let problem: string;
      try {
        const signal = AbortSignal.any([this.stopping.signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]);
        const res = await fetch(url, { method: 'POST', headers, body, signal });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) return;
        problem = `HTTP ${res.status}`;
      } catch (err) {
        problem = err instanceof Error ? err.message : String(err);
      }
      if (this.stopping.signal.aborted) return;
      const last = attempt === attempts;
      this.log?.[last ? 'error' : 'warn'](
        { url, event, delivery: id, attempt, problem },
        last ? 'webhook delivery failed; giving up' : 'webhook delivery failed; retrying',
      );
      if (last) return;
      await sleep(this.retryDelaysMs[attempt - 1], undefined, { signal: this.stopping.signal }).catch(
        () => {},
      );
      if (this.stopping.signal.aborted) return;
    }
  }
}
