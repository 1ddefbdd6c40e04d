import type { Chain, PayoutResult } from '../../infra/chain/chain.ts';
import { tokensToUnits, unitsToTokens } from '../../infra/chain/chain.ts';
import { AppError } from '../../lib/errors.ts';

export interface PayoutsDeps {
  chain: Chain;
  platformFeeBps: number;
  payoutsEnabled: boolean;
}

export interface RewardSplit {
  rewardUnits: bigint;
  feeUnits: bigint;
  contributorUnits: bigint;
}

export interface PayRequest {
  submissionId: string;
  tokenAddress: string;
  founderAddress: string;
  contributorAddress: string;
  split: RewardSplit;
}

/** The money side of an approval: the fee split, the funds check and the two transfers. */
export class PayoutsService {
  constructor(private readonly deps: PayoutsDeps) {}

  /** fee = floor(reward * bps / 10000) in base units; the contributor gets the rest. */
  split(rewardAmount: number): RewardSplit {
    const rewardUnits = tokensToUnits(rewardAmount);
    const feeUnits = (rewardUnits * BigInt(this.deps.platformFeeBps)) / 10_000n;
    return { rewardUnits, feeUnits, contributorUnits: rewardUnits - feeUnits };
  }

  assertEnabled(): void {
    if (!this.deps.payoutsEnabled) {
      throw new AppError('payouts_disabled', 'Payouts are disabled by the operator; try again later.');
    }
  }

  /** Balance and allowance must each cover the whole reward before anything is sent. */
  async assertFunds(tokenAddress: string, founderAddress: string, rewardUnits: bigint): Promise<void> {
    const funds = await this.deps.chain.readFunds(tokenAddress, founderAddress);
    if (funds.balanceUnits < rewardUnits || funds.allowanceUnits < rewardUnits) {
      throw new AppError(
        'insufficient_funds',
        `The founder's balance (${unitsToTokens(funds.balanceUnits)}) or allowance ` +
          `(${unitsToTokens(funds.allowanceUnits)}) is below the reward of ${unitsToTokens(rewardUnits)} tokens.`,
      );
    }
  }

  pay(req: PayRequest): Promise<PayoutResult> {
    return this.deps.chain.payout({
      submissionId: req.submissionId,
      tokenAddress: req.tokenAddress,
      fromAddress: req.founderAddress,
      toAddress: req.contributorAddress,
      contributorUnits: req.split.contributorUnits,
      feeUnits: req.split.feeUnits,
    });
  }
}
