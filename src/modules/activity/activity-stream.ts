/**
 * The activity module's read side of its feed for the live streams (the events module's SSE and
 * its event bus): positions in commit order, batched reads after a position, a reconnecting
 * stream's replay, and the NOTIFY channel. The queries stay in `activity.repo.ts`, private to this
 * module; this file is what other modules may use of them. Reads only: an event is written by
 * `ActivityService.record`, in the transaction of the change it records.
 */
export {
  ACTIVITY_CHANNEL,
  latestReady,
  positionOf,
  readAfter,
  replay,
  STREAM_START,
  type StreamFilter,
  type StreamPosition,
  type StreamRow,
} from './activity.repo.ts';
