import { BaseError, ContractFunctionZeroDataError, getAddress, type PublicClient, parseAbi } from 'viem';
import { AppError } from '../../lib/errors.ts';
import type { FeedRound } from './chain.ts';
import { upstream } from './evm-errors.ts';

/** The two functions of Chainlink's AggregatorV3Interface the service reads. */
export const aggregatorV3Abi = parseAbi([
  'function decimals() view returns (uint8)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
]);

/** No price feed scales its answer by more; a larger `decimals()` is not a price feed's answer. */
const MAX_DECIMALS = 36;

/**
 * A Chainlink-style feed's latest round, both reads batched into one request by the transport.
 * An address without code (or without these functions) answers no data: null, the feed is not
 * there. Anything else that fails is the node's failure (502), left to the caller to judge.
 */
export async function readPriceFeed(client: PublicClient, feedAddress: string): Promise<FeedRound | null> {
  const address = getAddress(feedAddress);
  try {
    const [decimals, round] = await Promise.all([
      client.readContract({ address, abi: aggregatorV3Abi, functionName: 'decimals' }),
      client.readContract({ address, abi: aggregatorV3Abi, functionName: 'latestRoundData' }),
    ]);
    if (decimals > MAX_DECIMALS) {
      throw new AppError('upstream_error', `The price feed ${address} states ${decimals} decimals.`);
    }
    return { answer: round[1], decimals, updatedAt: round[3] };
  } catch (err) {
    if (err instanceof BaseError && err.walk((e) => e instanceof ContractFunctionZeroDataError)) return null;
    throw upstream('read the ETH/USD price feed', err);
  }
}
