import type { FastifyInstance } from 'fastify';
import { EVENT_TYPES } from '../../modules/activity/activity.schemas.ts';
import {
  CreateWebhookBody,
  UpdateWebhookBody,
  type VerificationJson,
} from '../../modules/agent-webhooks/agent-webhooks.schemas.ts';
import { type ConsoleCtx, type ConsoleDeps, parseForm, registerAction, registerPage } from './kit.ts';

const RECENT_DELIVERIES = 5;

/** The agent's key and wallet, and its webhooks with their latest delivery attempts. */
export async function loadAccount(ctx: ConsoleCtx) {
  const { services, session } = ctx;
  const [agent, wallet, webhooks] = await Promise.all([
    services.agents.getPublic(session.agentId),
    services.wallets.show(ctx.owner, true).catch(() => null),
    services.agentWebhooks.list(session.agentId),
  ]);
  const withDeliveries = await Promise.all(
    webhooks.map(async (w) => ({
      webhook: w,
      deliveries: await services.agentWebhooks.deliveries(session.agentId, w.id, RECENT_DELIVERIES),
    })),
  );
  return { agent, wallet, webhooks: withDeliveries, eventTypes: EVENT_TYPES };
}

const asList = (v: unknown): string[] => (Array.isArray(v) ? v : typeof v === 'string' && v ? [v] : []);

/** What a verification did, for the flash: the events start, or why they do not. */
const verified = (url: string, v: VerificationJson) =>
  v.verified
    ? `${url} answered the challenge: it receives events from now on.`
    : `${url} did not answer the challenge (${v.error}); it receives nothing until it does. Fix the receiver, then verify again.`;

export function registerAccountPages(app: FastifyInstance, deps: ConsoleDeps): void {
  registerPage(app, deps, 'account', loadAccount);
  const base = { page: 'account' as const, load: loadAccount };

  // The new key and secrets are shown once, in the answer to the POST itself (no-store), never
  // put in a redirect, a cookie or the session.
  registerAction(app, deps, {
    ...base,
    path: '/console/rotate-key',
    form: () => 'rotate-key',
    run: async (ctx) => {
      // The old key may have leaked: browsers it signed in elsewhere are signed out; this one stays.
      const apiKey = await ctx.services.agents.rotateKey(ctx.session.agentId, ctx.sessionToken ?? undefined);
      return { page: 'account', shown: { apiKey } };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/webhooks',
    form: () => 'webhook-add',
    run: async (ctx, _p, body) => {
      const types = asList(body.types);
      const input = parseForm(CreateWebhookBody, {
        url: typeof body.url === 'string' ? body.url.trim() : body.url,
        ...(types.length ? { types } : {}),
      });
      const { webhook, secret, verification } = await ctx.services.agentWebhooks.create(
        ctx.session.agentId,
        input,
      );
      return {
        page: 'account',
        shown: {
          webhookSecret: secret,
          webhookUrl: webhook.url,
          verification: verified(webhook.url, verification),
        },
      };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/webhooks/:id/verify',
    form: (p: { id: string }) => `webhook-verify-${p.id}`,
    run: async (ctx, { id }) => {
      const { webhook, verification } = await ctx.services.agentWebhooks.verify(ctx.session.agentId, id);
      return { flash: verified(webhook.url, verification) };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/webhooks/:id/url',
    form: (p: { id: string }) => `webhook-url-${p.id}`,
    run: async (ctx, { id }, body) => {
      const input = parseForm(UpdateWebhookBody, {
        url: typeof body.url === 'string' ? body.url.trim() : body.url,
      });
      const { webhook, verification } = await ctx.services.agentWebhooks.update(
        ctx.session.agentId,
        id,
        input,
      );
      return { flash: verification ? verified(webhook.url, verification) : 'The URL is unchanged.' };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/webhooks/:id/delete',
    form: (p: { id: string }) => `webhook-delete-${p.id}`,
    run: async (ctx, { id }) => {
      await ctx.services.agentWebhooks.remove(ctx.session.agentId, id);
      return { flash: 'Webhook deleted; its pending deliveries stop.' };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/webhooks/:id/rotate-secret',
    form: (p: { id: string }) => `webhook-rotate-${p.id}`,
    run: async (ctx, { id }) => {
      const secret = await ctx.services.agentWebhooks.rotateSecret(ctx.session.agentId, id);
      return { page: 'account', shown: { webhookSecret: secret } };
    },
  });
}
