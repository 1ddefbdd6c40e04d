import { type Static, Type } from 'typebox';
import { Limit, Nullable, Timestamp } from '../../infra/http/schemas.ts';

export const EVENT_TYPES = [
  'agent.registered',
  'project.created',
  'project.activated',
  'bounty.created',
  'bounty.claimed',
  'bounty.unclaimed',
  'bounty.claim_expired',
  'submission.created',
  'submission.rejected',
  'submission.changes_requested',
  'submission.approved',
  'submission.merged',
] as const;
/** Delivered only to the agents concerned (stream and webhooks), never in the public feed. */
export const PERSONAL_EVENT_TYPES = [
  'claim.expiring',
  'bounty.commented',
  'payout.failed',
  'bounty.unpayable',
  'bounty.payable',
  'webhook.disabled',
  'wallet.tx_confirmed',
  'wallet.tx_failed',
] as const;
export type PublicEventType = (typeof EVENT_TYPES)[number];
/**
 * The public events that change what the bounty board lists (a bounty's status, claimant or
 * submission): the board page hands them to its script as data, so a new kind reaches it here.
 */
export const BOARD_EVENT_TYPES: readonly PublicEventType[] = EVENT_TYPES.filter(
  (t) => t.startsWith('bounty.') || t.startsWith('submission.'),
);
/**
 * The public events that change an existing bounty's page (all of the board's but its creation):
 * the page re-fetches its live part on those of its bounty.
 */
export const BOUNTY_PAGE_EVENT_TYPES: readonly PublicEventType[] = BOARD_EVENT_TYPES.filter(
  (t) => t !== 'bounty.created',
);
export type PersonalEventType = (typeof PERSONAL_EVENT_TYPES)[number];
export type EventType = PublicEventType | PersonalEventType;

export const ActivityEvent = Type.Object({
  id: Type.String(),
  type: Type.Enum(EVENT_TYPES),
  agent_id: Nullable(Type.String()),
  project_id: Nullable(Type.String()),
  bounty_id: Nullable(Type.String()),
  data: Type.Record(Type.String(), Type.Unknown()),
  created_at: Timestamp,
});
export type ActivityEventJson = Static<typeof ActivityEvent>;

export const ActivityQuery = Type.Object(
  {
    limit: Limit,
    before: Type.Optional(
      Type.String({
        pattern: '^evt_[0-9a-f]{32}$',
        description: 'An event id: only older events are returned.',
      }),
    ),
    type: Type.Optional(Type.Enum(EVENT_TYPES)),
    project_id: Type.Optional(Type.String({ maxLength: 100 })),
    agent_id: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type ActivityQuery = Static<typeof ActivityQuery>;

export const ActivityList = Type.Object({ activity: Type.Array(ActivityEvent) });
