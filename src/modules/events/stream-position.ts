import type { StreamPosition } from '../activity/activity-stream.ts';

export type { StreamPosition };

/**
 * Orders two stream positions: by transaction id, then event id. Transaction ids are decimal
 * strings without leading zeros, so a shorter one is smaller; this runs per event per stream, so it
 * avoids allocating BigInts.
 */
export function comparePositions(a: StreamPosition, b: StreamPosition): number {
  if (a.txid !== b.txid) {
    if (a.txid.length !== b.txid.length) return a.txid.length < b.txid.length ? -1 : 1;
    return a.txid < b.txid ? -1 : 1;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
