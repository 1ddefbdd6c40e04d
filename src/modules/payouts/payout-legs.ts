import type { Executor } from '../../infra/db/client.ts';
import { CANCEL_KIND, type IntentRow, type TxRow } from '../transactions/transactions.types.ts';
import type { DriverDeps, LegKind } from './payouts.types.ts';

/** The transaction engine's kind of each leg kind: one router call, or a legacy transferFrom. */
export const INTENT_KIND: Record<LegKind, string> = {
  payout: 'payout',
  contributor: 'payout_contributor',
  fee: 'payout_fee',
};
const LEG_KIND: Record<string, LegKind> = {
  payout: 'payout',
  payout_contributor: 'contributor',
  payout_fee: 'fee',
};

/**
 * One transaction of a payout as the payout rules read it, from the transaction engine's intent
 * and its attempts: `signed` (recorded, maybe sent), `sent`, `success`, `reverted` (it executed
 * and reverted, or was cancelled at its nonce because it would have), or `dropped` (another
 * transaction took its nonce for good: it moved nothing, and the payout may be signed anew).
 */
export interface PayoutLeg {
  id: string;
  payoutId: string;
  kind: LegKind;
  signer: string;
  nonce: number;
  status: 'signed' | 'sent' | 'success' | 'reverted' | 'dropped';
  txHash: string | null;
  blockNumber: bigint | null;
  /** Every signed attempt's hash (replacements share its nonce): any of them may have mined. */
  hashes: string[];
  createdAt: Date;
}

function statusOf(i: IntentRow, attempts: TxRow[]): PayoutLeg['status'] {
  if (i.status === 'confirmed') return 'success';
  if (i.status === 'pending') {
    return attempts.some((a) => a.broadcastAt !== null || a.status !== 'signed') ? 'sent' : 'signed';
  }
  const reverted = attempts.some(
    (a) =>
      (a.status === 'reverted' && a.kind !== CANCEL_KIND) || (a.kind === CANCEL_KIND && a.status === 'mined'),
  );
  return reverted ? 'reverted' : 'dropped';
}

export function legOf(i: IntentRow, attempts: TxRow[]): PayoutLeg {
  const status = statusOf(i, attempts);
  return {
    id: i.id,
    payoutId: i.payoutId as string,
    kind: LEG_KIND[i.kind] ?? 'payout',
    signer: i.signer,
    nonce: i.nonce,
    status,
    txHash: status === 'success' || status === 'reverted' ? i.txHash : null,
    blockNumber: status === 'success' || status === 'reverted' ? i.blockNumber : null,
    hashes: attempts.filter((a) => a.kind !== CANCEL_KIND).map((a) => a.hash),
    createdAt: i.createdAt,
  };
}

/** The legs of these payouts, each payout's in the order they were signed. */
export async function legsOfPayouts(
  deps: Pick<DriverDeps, 'journal'>,
  ex: Executor,
  payoutIds: string[],
): Promise<PayoutLeg[]> {
  const { intents, attempts } = await deps.journal.ofPayouts(ex, payoutIds);
  return intents.map((i) =>
    legOf(
      i,
      attempts.filter((a) => a.intentId === i.id),
    ),
  );
}

export const legsOf = (deps: Pick<DriverDeps, 'journal'>, ex: Executor, payoutId: string) =>
  legsOfPayouts(deps, ex, [payoutId]);

/** Signed or sent: it may still move the tokens. */
export const isOpen = (l: PayoutLeg) => l.status === 'signed' || l.status === 'sent';
/** It may still move (or has moved) the tokens: only a reverted or dropped leg may be signed anew. */
export const isLive = (l: PayoutLeg) => l.status !== 'reverted' && l.status !== 'dropped';
