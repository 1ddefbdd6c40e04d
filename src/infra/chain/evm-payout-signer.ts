import { type Account, encodeFunctionData, getAddress, type Hex, keccak256, type PublicClient } from 'viem';
import type { BroadcastResult, Fees, MinedTx, PayoutSigner, SignedTx } from './chain.ts';
import { payoutRouterAbi } from './contracts/PayoutRouter.ts';
import { projectTokenAbi } from './contracts/ProjectToken.ts';
import { upstream } from './evm-errors.ts';
import { knownTx, receiptOf, sendRaw } from './tx-node.ts';

// An ERC-20 transferFrom costs ~35-60k gas; a fixed, generous limit keeps signing free of I/O.
const TRANSFER_GAS = 120_000n;
// A router pay is two transferFroms (~70-110k) plus the call and its event; signing stays I/O-free.
const PAY_GAS = 200_000n;
// A plain ETH transfer to an externally owned account.
const FILLER_GAS = 21_000n;

/** The platform payout wallet over viem: local signing at the workflow's nonce, raw broadcast. */
export function evmPayoutSigner(
  client: PublicClient,
  account: Account,
  chainId: number,
  routerAddress: string,
): PayoutSigner {
  const router = getAddress(routerAddress);
  const sign = async (
    tx: { to: Hex; data?: Hex; value?: bigint; gas: bigint },
    t: { nonce: number; fees: Fees },
  ): Promise<SignedTx> => {
    if (!account.signTransaction) throw new Error('The payout account cannot sign transactions.');
    const raw = await account.signTransaction({
      chainId,
      type: 'eip1559',
      ...tx,
      nonce: t.nonce,
      maxFeePerGas: t.fees.maxFeePerGas,
      maxPriorityFeePerGas: t.fees.maxPriorityFeePerGas,
    });
    return { raw, hash: keccak256(raw) };
  };
  return {
    address: account.address,
    routerAddress: router,
    chainNonce: async (at = 'pending') => {
      try {
        return await client.getTransactionCount(
          typeof at === 'bigint'
            ? { address: account.address, blockNumber: at }
            : { address: account.address, blockTag: at },
        );
      } catch (err) {
        throw upstream('read the payout nonce', err);
      }
    },
    quoteFees: async (): Promise<Fees> => {
      try {
        const f = await client.estimateFeesPerGas();
        return { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas };
      } catch (err) {
        throw upstream('quote gas fees', err);
      }
    },
    signPayout: (t) =>
      sign(
        {
          to: router,
          data: encodeFunctionData({
            abi: payoutRouterAbi,
            functionName: 'pay',
            args: [
              getAddress(t.tokenAddress),
              getAddress(t.from),
              getAddress(t.to),
              t.amountUnits,
              t.feeUnits,
            ],
          }),
          gas: PAY_GAS,
        },
        t,
      ),
    signTransferFrom: (t) =>
      sign(
        {
          to: getAddress(t.tokenAddress),
          data: encodeFunctionData({
            abi: projectTokenAbi,
            functionName: 'transferFrom',
            args: [getAddress(t.from), getAddress(t.to), t.amountUnits],
          }),
          gas: TRANSFER_GAS,
        },
        t,
      ),
    signNonceFiller: (t) => sign({ to: account.address, value: 0n, gas: FILLER_GAS }, t),
    broadcast: async (raw): Promise<BroadcastResult> => {
      const result = await sendRaw(client, raw, 'broadcast a payout');
      if (result === 'no_funds') {
        throw upstream('broadcast a payout', new Error('the payout key cannot pay the gas'));
      }
      return result;
    },
    mined: async (hash): Promise<MinedTx | null> => {
      const r = await receiptOf(client, hash, 'read a payout receipt');
      return r && { status: r.status, blockNumber: r.blockNumber };
    },
    known: (hash) => knownTx(client, hash, 'look up a payout'),
    headBlock: async () => {
      try {
        return await client.getBlockNumber({ cacheTime: 0 });
      } catch (err) {
        throw upstream('read the latest block', err);
      }
    },
  };
}
