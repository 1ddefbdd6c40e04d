import { getAbiItem, getAddress, type PublicClient } from 'viem';
import type { FundsLog } from './chain.ts';
import { projectTokenAbi } from './contracts/ProjectToken.ts';
import { upstream } from './evm-errors.ts';

const FUNDS_EVENTS = [
  getAbiItem({ abi: projectTokenAbi, name: 'Transfer' }),
  getAbiItem({ abi: projectTokenAbi, name: 'Approval' }),
];

/**
 * Transfer and Approval logs of these tokens in blocks [fromBlock, toBlock], in chain order: what
 * may have changed a founder's balance or allowance.
 */
export async function readFundsLogs(
  client: PublicClient,
  tokenAddresses: string[],
  fromBlock: bigint,
  toBlock: bigint,
): Promise<FundsLog[]> {
  if (tokenAddresses.length === 0) return [];
  try {
    const logs = await client.getLogs({
      address: tokenAddresses.map((a) => getAddress(a)),
      events: FUNDS_EVENTS,
      fromBlock,
      toBlock,
      strict: true,
    });
    const out: FundsLog[] = [];
    for (const l of logs) {
      // A log without a block is pending; the range asked for is mined, so none should come.
      if (l.blockNumber === null) continue;
      const tokenAddress = getAddress(l.address);
      if (l.eventName === 'Transfer') {
        const { from, to } = l.args as { from: string; to: string };
        out.push({
          kind: 'transfer',
          tokenAddress,
          from: getAddress(from),
          to: getAddress(to),
          blockNumber: l.blockNumber,
        });
      } else {
        const { owner, spender } = l.args as { owner: string; spender: string };
        out.push({
          kind: 'approval',
          tokenAddress,
          owner: getAddress(owner),
          spender: getAddress(spender),
          blockNumber: l.blockNumber,
        });
      }
    }
    return out;
  } catch (err) {
    throw upstream('read the token logs', err);
  }
}
