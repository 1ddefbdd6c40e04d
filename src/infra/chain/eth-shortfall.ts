import { AppError } from '../../lib/errors.ts';
import type { EthShortfall } from './chain.ts';
import { unitsToTokens } from './chain.ts';

/**
 * The 400 of an action its wallet cannot pay for in ETH (value plus gas): what is missing and how
 * to get it. Never a 502: nothing was sent, and retrying the same request cannot help.
 */
export function insufficientEth(s: EthShortfall, devChain: boolean): AppError {
  const missing = s.needUnits > s.haveUnits ? s.needUnits - s.haveUnits : 1n;
  const how = devChain
    ? 'On this dev chain POST /api/dev/faucet sends test ETH.'
    : `Send at least that much ETH on this chain to ${s.address}.`;
  return new AppError(
    'insufficient_eth',
    `The wallet ${s.address} holds ${unitsToTokens(s.haveUnits)} ETH but this needs about ` +
      `${unitsToTokens(s.needUnits)} ETH with gas: ${unitsToTokens(missing)} ETH (${missing} wei) is missing. ${how}`,
  );
}
