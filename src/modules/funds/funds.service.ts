import type { Chain, TokenFunds } from '../../infra/chain/chain.ts';
import { unitsToTokens } from '../../infra/chain/chain.ts';
import { AppError } from '../../lib/errors.ts';

/**
 * The one place of the funds rule. A founder can pay what both the token balance and the
 * allowance granted to the platform's payout router cover: spendable = min(balance, allowance).
 * Committed is the rewards of the project's open, claimed and in-review bounties; available is
 * spendable minus committed. Bounty creation, approval-status and payouts all ask here.
 */
export interface FundsFigures {
  balanceUnits: bigint;
  allowanceUnits: bigint;
  spendableUnits: bigint;
  committedUnits: bigint;
  availableUnits: bigint;
}

export const spendableOf = (f: TokenFunds): bigint =>
  // biome-ignore lint/complexity/useMathMinMax: Math.min does not take bigints.
  f.balanceUnits < f.allowanceUnits ? f.balanceUnits : f.allowanceUnits;

export class FundsService {
  constructor(private readonly deps: { chain: Pick<Chain, 'readFunds'> }) {}

  /** The founder's funds on the token against what the project has committed, in base units. */
  async figures(tokenAddress: string, founderAddress: string, committedUnits: bigint): Promise<FundsFigures> {
    const funds = await this.deps.chain.readFunds(tokenAddress, founderAddress);
    const spendableUnits = spendableOf(funds);
    return { ...funds, spendableUnits, committedUnits, availableUnits: spendableUnits - committedUnits };
  }

  /** Bounty creation: what is committed plus the new reward must fit in what the founder can pay. */
  async assertCanCommit(
    tokenAddress: string,
    founderAddress: string,
    committedUnits: bigint,
    addingUnits: bigint,
  ): Promise<void> {
    const f = await this.figures(tokenAddress, founderAddress, committedUnits);
    if (f.availableUnits < addingUnits) {
      throw new AppError(
        'insufficient_funds',
        `Balance ${unitsToTokens(f.balanceUnits)} and allowance ${unitsToTokens(f.allowanceUnits)} ` +
          `cover ${unitsToTokens(f.spendableUnits)} tokens, but open bounties commit ${unitsToTokens(committedUnits)} ` +
          `and this one adds ${unitsToTokens(addingUnits)}.`,
      );
    }
  }

  /**
   * Whether the founder could pay `units` at the end of a block (balance and allowance read from
   * the chain there): a payout transaction that reverted in a block where it could not was
   * refused for the founder's funds, not for a reason that would make it revert again.
   */
  async coveredAt(
    tokenAddress: string,
    founderAddress: string,
    units: bigint,
    blockNumber: bigint,
  ): Promise<boolean> {
    return spendableOf(await this.deps.chain.readFunds(tokenAddress, founderAddress, blockNumber)) >= units;
  }

  /**
   * A payout: what is about to be sent must fit in what the founder can pay, beside `inFlightUnits`
   * the same wallet is already sending on the token (the payout reservation), before anything is
   * signed.
   */
  async assertCovers(
    tokenAddress: string,
    founderAddress: string,
    units: bigint,
    inFlightUnits = 0n,
  ): Promise<void> {
    const funds = await this.deps.chain.readFunds(tokenAddress, founderAddress);
    const spendable = spendableOf(funds);
    if (spendable >= inFlightUnits + units) return;
    throw new AppError(
      'insufficient_funds',
      `The founder's balance (${unitsToTokens(funds.balanceUnits)}) and allowance ` +
        `(${unitsToTokens(funds.allowanceUnits)}) cover ${unitsToTokens(spendable)} tokens` +
        (inFlightUnits > 0n
          ? `, ${unitsToTokens(inFlightUnits)} of them already on their way in other payouts,`
          : ',') +
        ` below the ${unitsToTokens(units)} tokens to pay; nothing was sent.`,
    );
  }
}
