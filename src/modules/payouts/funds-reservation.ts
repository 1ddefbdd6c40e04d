import type { PayoutSigner, TokenFunds } from '../../infra/chain/chain.ts';
import { unitsToTokens } from '../../infra/chain/chain.ts';
import { AppError } from '../../lib/errors.ts';
import { spendableOf } from '../funds/funds.service.ts';
import type { InFlightLeg } from './reservation.repo.ts';

export interface ReservationDeps {
  signer: Pick<PayoutSigner, 'mined'>;
  readFunds: (tokenAddress: string, ownerAddress: string) => Promise<TokenFunds>;
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
    inFlight.map(async (l) => (await Promise.all(l.hashes.map((h) => deps.signer.mined(h)))).some(Boolean)),
  );
  const reserved = inFlight.reduce((sum, l, i) => (mined[i] ? sum : sum + l.units), 0n);
  const funds = await deps.readFunds(tokenAddress, fromAddress);
  const spendable = spendableOf(funds);
  if (spendable >= reserved + units) return;
  throw new AppError(
    'insufficient_funds',
    `The founder's balance (${unitsToTokens(funds.balanceUnits)}) and allowance ` +
      `(${unitsToTokens(funds.allowanceUnits)}) cover ${unitsToTokens(spendable)} tokens` +
      (reserved > 0n ? `, ${unitsToTokens(reserved)} of them already on their way in other payouts,` : ',') +
      ` below the ${unitsToTokens(units)} tokens to pay; nothing was sent.`,
  );
}
