import { formatUnits } from 'viem';
import type {
  AuditChain,
  AuditDifference,
  AuditLedger,
  AuditLeg,
  AuditPayout,
  AuditSubmission,
  AuditTransfer,
  AuditTx,
} from './payouts-audit.types.ts';

/** What every check of the audit reads, indexed once, and where it reports. */
export interface AuditContext {
  ledger: AuditLedger;
  chain: AuditChain;
  differences: AuditDifference[];
  notes: string[];
  differ: (d: AuditDifference) => void;
  txByHash: Map<string, AuditTx>;
  transfersByTx: Map<string, AuditTransfer[]>;
  payoutById: Map<string, AuditPayout>;
  legsByPayout: Map<string, AuditLeg[]>;
  submissionById: Map<string, AuditSubmission>;
  payoutsBySubmission: Map<string, AuditPayout[]>;
  signers: Set<string>;
  legByAttempt: Map<string, AuditLeg>;
}

export const lc = (a: string | null | undefined) => (a ?? '').toLowerCase();
const short = (a: string) => `${a.slice(0, 10)}…`;
export const tokens = (units: bigint) => formatUnits(units, 18);

export function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

/** A nonce filler: 0 ETH from the signer to itself, no call. It moves nothing. */
export const isFiller = (tx: AuditTx) => lc(tx.sender) === lc(tx.to) && tx.value === 0n && tx.input === '0x';

export const describeTransfer = (t: { token: string; from: string; to: string; value: bigint }) =>
  `${tokens(t.value)} of ${short(t.token)} from ${t.from} to ${t.to}`;
