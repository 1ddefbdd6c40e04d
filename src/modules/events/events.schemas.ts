import { type Static, Type } from 'typebox';
import { EVENT_TYPES, PERSONAL_EVENT_TYPES } from '../activity/activity.schemas.ts';

/** Every type a stream can be filtered on: the public feed's and the personal ones. */
export const STREAM_EVENT_TYPES: readonly string[] = [...EVENT_TYPES, ...PERSONAL_EVENT_TYPES];

const EventId = Type.String({ pattern: '^evt_[0-9a-f]{32}$' });

export const EventsQuery = Type.Object(
  {
    types: Type.Optional(
      Type.String({
        maxLength: 1000,
        description: `Comma-separated event types (any of: ${STREAM_EVENT_TYPES.join(', ')}); all when absent.`,
      }),
    ),
    project_id: Type.Optional(Type.String({ maxLength: 100 })),
    last_event_id: Type.Optional({
      ...EventId,
      description: 'Resume after this event (for clients that cannot send the Last-Event-ID header).',
    }),
  },
  { additionalProperties: false },
);
export type EventsQuery = Static<typeof EventsQuery>;

export const EventsHeaders = Type.Object({
  'last-event-id': Type.Optional({
    ...EventId,
    description: 'Resume after this event: every matching event after it is replayed, then live ones.',
  }),
});
