import { randomBytes } from 'node:crypto';
import type { Db } from '../../infra/db/client.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './agent-webhooks.repo.ts';
import type { VerificationJson } from './agent-webhooks.schemas.ts';
import type { HostBudget } from './host-budget.ts';
import { hostOf, sendSigned, type TargetDeps } from './signed-send.ts';

// Shorter than a delivery's 10 s: the agent's request waits on it.
export const VERIFICATION_TIMEOUT_MS = 5_000;

/**
 * The challenge a webhook's URL answers before it is sent any event, on registration and after
 * each URL change: a POST `{"type": "webhook.verification", "challenge"}` signed like a delivery,
 * through the same URL guard, counted in the host's budget like a delivery (so registering and
 * deleting webhooks cannot flood a host either). Answering 200 with the challenge in the body
 * shows that whoever runs the URL asked for the traffic.
 */
export class WebhookVerifier {
  constructor(private readonly deps: TargetDeps & { db: Db; budget: HostBudget }) {}

  async verify(hook: { id: string; url: string; secret: string }): Promise<VerificationJson> {
    const { db, clock, budget } = this.deps;
    const host = hostOf(hook.url);
    const retryAt = await budget.take(host);
    if (retryAt) {
      return {
        verified: false,
        status_code: null,
        error:
          `${host} has had its ${budget.perMinute} webhook requests this minute; ` +
          `verify again after ${retryAt.toISOString()}.`,
      };
    }
    const challenge = randomBytes(24).toString('base64url');
    const body = JSON.stringify({ type: 'webhook.verification', challenge });
    const result = await sendSigned(
      this.deps,
      hook,
      { id: newId('verification'), body },
      VERIFICATION_TIMEOUT_MS,
    );
    const failed = (error: string): VerificationJson => ({
      verified: false,
      status_code: result.statusCode,
      error,
    });
    if (result.statusCode === null) return failed(result.error ?? 'no answer');
    if (result.statusCode !== 200) {
      return failed(result.error ?? `answered ${result.statusCode}; the challenge needs 200`);
    }
    if (!result.body?.includes(challenge)) return failed('answered 200 without the challenge in its body');
    if (!(await repo.markVerified(db, hook.id, hook.url, clock.now()))) {
      return failed('the webhook’s URL was changed, or the webhook deleted, while it was being verified');
    }
    return { verified: true, status_code: 200, error: null };
  }
}
