import type { SignedTx } from '../../infra/chain/chain.ts';
import { capFees } from '../../infra/chain/tx-node.ts';
import type { Executor } from '../../infra/db/client.ts';
import { assertReservable } from './funds-reservation.ts';
import { INTENT_KIND } from './payout-legs.ts';
import type { PayoutRow } from './payouts.repo.ts';
import type { DriverDeps, LegKind } from './payouts.types.ts';
import type { InFlightLeg } from './reservation.repo.ts';

/** What one transaction of a kind takes from the founder. */
export const unitsOf = (p: PayoutRow, kind: LegKind): bigint =>
  kind === 'payout' ? p.rewardUnits : kind === 'fee' ? p.feeUnits : p.contributorUnits;

export interface SignedPayoutTx {
  intentId: string;
  signed: SignedTx;
}

/**
 * The payout key's pending count, asked for before the signing transaction begins, so the node
 * answers while it waits for its locks (`TransactionJournal.recordIn`'s `early`). A signing that
 * ends early leaves it unread, never an unhandled rejection.
 */
export function countEarly(deps: DriverDeps): Promise<number> {
  const count = deps.chain.nonceOf(deps.signer.address, 'pending');
  count.catch(() => {});
  return count;
}

/**
 * Inside a signing transaction that holds the founder wallet's funds lock (so `inFlight`, read
 * after it, is complete): the funds check of what these kinds move beside the wallet's other
 * payouts in flight, then each kind's call signed by the payout key through the transaction
 * engine's journal (the nonce under the payout key's counter lock, the signed bytes stored before
 * anything is sent). Kind `payout`: one router call that transfers reward minus fee to the
 * contributor and the fee to the treasury, both or neither; kinds `contributor` and `fee` (payouts
 * signed before the router): one transferFrom each.
 */
export async function reserveAndSign(
  deps: DriverDeps,
  tx: Executor,
  payout: PayoutRow,
  kinds: LegKind[],
  inFlight: InFlightLeg[],
  earlyCount: Promise<number>,
): Promise<SignedPayoutTx[]> {
  const { signer, chain, journal } = deps;
  const units = kinds.reduce((sum, k) => sum + unitsOf(payout, k), 0n);
  await assertReservable(deps, payout.tokenAddress, payout.fromAddress, inFlight, units);
  // Nothing is quoted for a founder who cannot pay. Approvals of many founders queue on the payout
  // key's counter lock only for the signing and the insert: its count was read before.
  const [quoted, early] = await Promise.all([chain.quoteFees(), earlyCount]);
  const fees = capFees(quoted, deps.maxFeePerGas);
  const out: SignedPayoutTx[] = [];
  for (const kind of kinds) {
    const from = { tokenAddress: payout.tokenAddress, from: payout.fromAddress };
    const call =
      kind === 'payout'
        ? signer.payCall({
            ...from,
            to: payout.contributorAddress,
            amountUnits: payout.contributorUnits,
            feeUnits: payout.feeUnits,
          })
        : signer.transferFromCall({
            ...from,
            to: kind === 'fee' ? payout.treasuryAddress : payout.contributorAddress,
            amountUnits: unitsOf(payout, kind),
          });
    const unsigned = { ...call, valueUnits: 0n, ...fees };
    const { intentId, signed } = await journal.recordIn(
      tx,
      {
        kind: INTENT_KIND[kind],
        agentId: null,
        payoutId: payout.id,
        projectId: null,
        holder: payout.fromAddress,
        requestKey: null,
      },
      signer.address,
      () => chain.nonceOf(signer.address, 'pending'),
      (nonce) => chain.signTx(signer.key, unsigned, nonce),
      unsigned,
      early,
    );
    out.push({ intentId, signed });
  }
  return out;
}
