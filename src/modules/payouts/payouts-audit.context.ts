import { formatUnits } from 'viem';
import type {
  AuditBounty,
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
  bountyById: Map<string, AuditBounty>;
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

/** Legs whose transaction pays the contributor, and those that pay the fee: a `payout` leg does both. */
export const paysContributor = (kind: AuditLeg['kind']) => kind !== 'fee';
export const paysFee = (kind: AuditLeg['kind']) => kind !== 'contributor';

/** A leg that can no longer move anything: its transaction reverted, or another took its nonce. */
export const isDead = (leg: AuditLeg) => leg.status === 'reverted' || leg.status === 'dropped';

/** What a leg's transaction must move: the contributor's share, the fee, or both (in any order). */
export function legTransfers(kind: AuditLeg['kind'], payout: AuditPayout) {
  const at = { token: payout.tokenAddress, from: payout.fromAddress };
  const contributor = { ...at, to: payout.contributorAddress, value: payout.contributorUnits };
  const fee = { ...at, to: payout.treasuryAddress, value: payout.feeUnits };
  return kind === 'payout' ? [contributor, fee] : kind === 'contributor' ? [contributor] : [fee];
}

/** A nonce filler: 0 ETH from the signer to itself, no call. It moves nothing. */
export const isFiller = (tx: AuditTx) => lc(tx.sender) === lc(tx.to) && tx.value === 0n && tx.input === '0x';

export const describeTransfer = (t: { token: string; from: string; to: string; value: bigint }) =>
  `${tokens(t.value)} of ${short(t.token)} from ${t.from} to ${t.to}`;
