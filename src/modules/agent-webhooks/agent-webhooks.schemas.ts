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

const Url = Type.String({
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  description:
    'http(s) URL without credentials; private and loopback targets are refused (400). It must answer ' +
    'the verification challenge before it is sent any event.',
});

export const CreateWebhookBody = Type.Object(
  { url: Url, types: Type.Optional(Nullable(Types)) },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  { url: Type.Optional(Url), types: Type.Optional(Nullable(Types)) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const WEBHOOK_STATUSES = ['pending_verification', 'active', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

export const Webhook = Type.Object({
  id: Type.String(),
  url: Type.String(),
  types: Nullable(Type.Array(Type.String())),
  status: Type.Enum(WEBHOOK_STATUSES, {
    description:
      'pending_verification until the URL answered the challenge (nothing is sent to it meanwhile), ' +
      'then active; disabled once deliveries kept failing for over 24 h.',
  }),
  enabled: Type.Boolean({ description: 'false once deliveries kept failing for over 24 h.' }),
  disabled_at: Nullable(Timestamp),
  verified_at: Nullable(Timestamp),
  created_at: Timestamp,
});
export type WebhookJson = Static<typeof Webhook>;

export const Verification = Type.Object(
  {
    verified: Type.Boolean({ description: 'The URL answered 200 with the challenge in its body.' }),
    status_code: Nullable(Type.Integer({ description: 'The URL’s answer; null when there was none.' })),
    error: Nullable(Type.String({ description: 'Why it did not verify.' })),
  },
  {
    description:
      'The challenge just sent: POST {"type": "webhook.verification", "challenge"}, signed like a ' +
      'delivery; the URL must answer 200 with the challenge in its body.',
  },
);
export type VerificationJson = Static<typeof Verification>;

const Secret = Type.String({
  pattern: '^whsec_',
  description: 'whsec_ + base64 key; shown only here. Verify deliveries with it (Standard Webhooks).',
});

export const CreatedWebhook = Type.Object({ webhook: Webhook, secret: Secret, verification: Verification });
export const VerifiedWebhook = Type.Object({ webhook: Webhook, verification: Verification });
export const UpdatedWebhook = Type.Object({
  webhook: Webhook,
  // null when the URL did not change (nothing was sent).
  verification: Nullable(Verification),
});
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
