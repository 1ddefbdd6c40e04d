import { type Account, encodeFunctionData, getAddress, type Hex, type PublicClient } from 'viem';
import type { Call, PayoutSigner } from './chain.ts';
import { payoutRouterAbi } from './contracts/PayoutRouter.ts';
import { projectTokenAbi } from './contracts/ProjectToken.ts';
import { upstream } from './evm-errors.ts';

// An ERC-20 transferFrom costs ~35-60k gas; a fixed, generous limit keeps signing free of I/O.
const TRANSFER_GAS = 120_000n;
// A router pay is two transferFroms (~70-110k) plus the call and its event; signing stays I/O-free.
const PAY_GAS = 200_000n;

/** The call of one router `pay` (see `PayoutSigner.payCall`). */
export function payCallOf(
  router: string,
  t: { tokenAddress: string; from: string; to: string; amountUnits: bigint; feeUnits: bigint },
): Call {
  return {
    to: getAddress(router),
    data: encodeFunctionData({
      abi: payoutRouterAbi,
      functionName: 'pay',
      args: [getAddress(t.tokenAddress), getAddress(t.from), getAddress(t.to), t.amountUnits, t.feeUnits],
    }),
    gas: PAY_GAS,
  };
}

/** The call of a legacy transferFrom by the payout key (see `PayoutSigner.transferFromCall`). */
export function transferFromCallOf(t: {
  tokenAddress: string;
  from: string;
  to: string;
  amountUnits: bigint;
}): Call {
  return {
    to: getAddress(t.tokenAddress),
    data: encodeFunctionData({
      abi: projectTokenAbi,
      functionName: 'transferFrom',
      args: [getAddress(t.from), getAddress(t.to), t.amountUnits],
    }),
    gas: TRANSFER_GAS,
  };
}

/**
 * The platform payout key over viem: the calls it makes (a router pay, or a legacy transferFrom),
 * encoded without I/O. The transaction engine signs them with the key (`WalletActions.signTx`),
 * records them before sending, and follows them to the end as it does every key's transactions.
 */
export function evmPayoutSigner(
  client: PublicClient,
  account: Account,
  key: Hex,
  routerAddress: string,
): PayoutSigner {
  const router = getAddress(routerAddress);
  return {
    address: account.address,
    routerAddress: router,
    key,
    payCall: (t) => payCallOf(router, t),
    transferFromCall: transferFromCallOf,
    headBlock: async () => {
      try {
        return await client.getBlockNumber({ cacheTime: 0 });
      } catch (err) {
        throw upstream('read the latest block', err);
      }
    },
  };
}
