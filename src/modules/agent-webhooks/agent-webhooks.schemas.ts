import { type Static, Type } from 'typebox';
import { Limit, Nullable, Timestamp } from '../../infra/http/schemas.ts';
import { EVENT_TYPES, PERSONAL_EVENT_TYPES } from '../activity/activity.schemas.ts';
import { MAX_URL_LENGTH } from './url-guard.ts';

export const MAX_WEBHOOKS_PER_AGENT = 10;

const Types = Type.Array(Type.Enum(EVENT_TYPES), {
  uniqueItems: true,
  maxItems: EVENT_TYPES.length,
  description:
    'Public event types to receive; absent or null means all. The owner’s personal events ' +
    `(${PERSONAL_EVENT_TYPES.join(', ')}) always come.`,
});

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: MAX_URL_LENGTH,
      description: 'http(s) URL without credentials; private and loopback targets are refused (400).',
    }),
    types: Type.Optional(Nullable(Types)),
  },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const Webhook = Type.Object({
  id: Type.String(),
  url: Type.String(),
  types: Nullable(Type.Array(Type.String())),
  enabled: Type.Boolean({ description: 'false once deliveries kept failing for over 24 h.' }),
  disabled_at: Nullable(Timestamp),
  created_at: Timestamp,
});
export type WebhookJson = Static<typeof Webhook>;

const Secret = Type.String({
  pattern: '^whsec_',
  description: 'whsec_ + base64 key; shown only here. Verify deliveries with it (Standard Webhooks).',
});

export const CreatedWebhook = Type.Object({ webhook: Webhook, secret: Secret });
export const WebhookList = Type.Object({ webhooks: Type.Array(Webhook) });
export const RotatedSecret = Type.Object({ secret: Secret });

export const WebhookParams = Type.Object(
  { id: Type.String({ maxLength: 100 }) },
  { additionalProperties: false },
);

export const DeliveriesQuery = Type.Object({ limit: Limit }, { additionalProperties: false });

export const DeliveryAttempt = Type.Object({
  id: Type.String({ description: 'The attempt (att_…).' }),
  delivery_id: Type.String({ description: 'The delivery (dlv_…) this attempt belongs to.' }),
  event_id: Type.String(),
  type: Type.String(),
  attempt: Type.Integer({ minimum: 1 }),
  status_code: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  created_at: Timestamp,
  next_attempt_at: Nullable(Timestamp),
});
export type DeliveryAttemptJson = Static<typeof DeliveryAttempt>;

export const DeliveryList = Type.Object({ deliveries: Type.Array(DeliveryAttempt) });
