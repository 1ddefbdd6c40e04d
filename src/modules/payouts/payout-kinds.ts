import type { KindPolicies, KindPolicy } from '../transactions/transactions.types.ts';
import { INTENT_KIND } from './payout-legs.ts';
import { LEG_KINDS, type LegKind } from './payouts.types.ts';

/**
 * The payout key's kinds for the transaction engine: a revert counts only
 * PAYOUT_REVERT_CONFIRMATIONS deep (`revertDepth`); a transaction whose nonce another took is
 * dropped, for the payout to be signed anew by the payouts module after the funds reservation
 * (never re-signed by the engine on its own); a payout key short of ETH waits to be topped up; a
 * confirmed payout paid again after a reorg tells the submission its new hash (`repaid`).
 */
export function payoutKinds(
  revertDepth: number,
  repaid: (payoutId: string, kind: LegKind, txHash: string) => Promise<void>,
): KindPolicies {
  const policy = (kind: LegKind): KindPolicy => ({
    revertDepth,
    nonceTaken: 'fail',
    unpayable: 'wait',
    afterConfirmed: async (intent) => {
      if (intent.payoutId && intent.txHash) await repaid(intent.payoutId, kind, intent.txHash);
    },
  });
  return Object.fromEntries(LEG_KINDS.map((k) => [INTENT_KIND[k], policy(k)]));
}
