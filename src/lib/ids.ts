import { randomBytes } from 'node:crypto';

/** The closed table of id prefixes; an id's prefix names its resource. */
export const ID_PREFIXES = {
  agent: 'agent',
  project: 'proj',
  bounty: 'bnt',
  submission: 'sub',
  event: 'evt',
  payout: 'pay',
  leg: 'leg',
  webhook: 'whk',
  delivery: 'dlv',
  attempt: 'att',
  verification: 'vrf',
  walletTx: 'wtx',
  comment: 'cmt',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

let lastMs = 0;
let seq = 0;

/**
 * UUIDv7 as 32 hex digits: 48 bits of Unix milliseconds, then a 12-bit counter that keeps ids
 * from one process strictly increasing within a millisecond, then random bits.
 */
function uuidv7Hex(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    seq++;
    if (seq > 0xfff) {
      lastMs++;
      seq = 0;
    }
    ms = lastMs;
  } else {
    lastMs = ms;
    seq = 0;
  }
  const rand = randomBytes(8);
  const hi = ms.toString(16).padStart(12, '0');
  const ver = (0x7000 | seq).toString(16);
  rand[0] = ((rand[0] ?? 0) & 0x3f) | 0x80;
  return hi + ver + rand.toString('hex');
}

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${uuidv7Hex()}`;
}

const patterns = Object.fromEntries(
  Object.entries(ID_PREFIXES).map(([k, p]) => [k, new RegExp(`^${p}_[0-9a-f]{32}$`)]),
) as Record<IdKind, RegExp>;

export function isId(kind: IdKind, value: string): boolean {
  return patterns[kind].test(value);
}
