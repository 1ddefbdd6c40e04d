import type { WalletActions } from '../../infra/chain/chain.ts';
import type { FundsService } from '../funds/funds.service.ts';
import type { InFlightLeg } from './reservation.repo.ts';

export interface ReservationDeps {
  chain: Pick<WalletActions, 'receipt'>;
  funds: Pick<FundsService, 'assertCovers'>;
}

/**
 * The funds check of a payout about to be signed, under the wallet's funds lock: the founder's
 * min(balance, allowance) must cover this payout plus every other leg of the same wallet and token
 * still in flight. Receipts are read before the funds: a leg that mined is already out of the
 * balance read after it (counting it again would refuse a founder who can pay), and one that mines
 * between the two reads is counted twice, which only errs on the side of refusing.
 * Refuses with the funds error (400); nothing is signed then.
 */
export async function assertReservable(
  deps: ReservationDeps,
  tokenAddress: string,
  fromAddress: string,
  inFlight: InFlightLeg[],
  units: bigint,
): Promise<void> {
  const mined = await Promise.all(
    inFlight.map(async (l) => (await Promise.all(l.hashes.map((h) => deps.chain.receipt(h)))).some(Boolean)),
  );
  const reserved = inFlight.reduce((sum, l, i) => (mined[i] ? sum : sum + l.units), 0n);
  await deps.funds.assertCovers(tokenAddress, fromAddress, units, reserved);
}
