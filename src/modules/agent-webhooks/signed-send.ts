import { Webhook } from 'standardwebhooks';
import type { Clock } from '../../lib/clock.ts';
import type { Sender, SendResult } from './http-sender.ts';
import { parseWebhookUrl, type Resolver, resolveTarget } from './url-guard.ts';

/** How this module reaches a receiver: the URL guard's settings and the transport. */
export interface TargetDeps {
  clock: Clock;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: private and loopback targets are allowed (development). */
  allowPrivate: boolean;
  resolve: Resolver;
  /** `postJson`; tests stand in for it where no receiver should be contacted. */
  send: Sender;
}

/**
 * POSTs a signed message to a webhook's URL, the one way every request to a receiver goes
 * (deliveries and verification challenges alike). The guard checks the target again, since the
 * name may resolve elsewhere than at registration, and the socket goes only to the addresses it
 * checked. Standard Webhooks headers sign `{id}.{timestamp}.{body}`. Never throws: a refused
 * target or a failed connection is a result with `statusCode: null`.
 */
export async function sendSigned(
  deps: TargetDeps,
  target: { url: string; secret: string },
  message: { id: string; body: string },
  timeoutMs: number,
): Promise<SendResult> {
  try {
    const url = parseWebhookUrl(target.url);
    const addresses = await resolveTarget(url, deps);
    const sentAt = deps.clock.now();
    const signature = new Webhook(target.secret).sign(message.id, sentAt, message.body);
    return await deps.send({
      url,
      addresses,
      body: message.body,
      timeoutMs,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'bounty-marketplace-webhooks/1',
        'webhook-id': message.id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signature,
      },
    });
  } catch (err) {
    return { statusCode: null, error: (err as Error).message };
  }
}

/** The destination host a request counts against (see HostBudget); ports share their host's. */
export function hostOf(rawUrl: string): string {
  try {
    return new URL(rawUrl).hostname;
  } catch {
    return rawUrl;
  }
}
