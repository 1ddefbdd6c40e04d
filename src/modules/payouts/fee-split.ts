/** A reward in token base units, as an approval pays it: the contributor's part and the fee. */
export interface RewardSplit {
  rewardUnits: bigint;
  feeUnits: bigint;
  contributorUnits: bigint;
}

/**
 * The one fee split of the service: fee = floor(reward * bps / 10000) base units to the treasury,
 * the rest to the contributor. Payouts pay it (`PayoutsService.split`); the review queue's
 * `payout` and a bounty's `reward_eth_units` quote it, so what is shown is what is paid.
 */
export function splitReward(rewardUnits: bigint, feeBps: number): RewardSplit {
  const feeUnits = (rewardUnits * BigInt(feeBps)) / 10_000n;
  return { rewardUnits, feeUnits, contributorUnits: rewardUnits - feeUnits };
}
