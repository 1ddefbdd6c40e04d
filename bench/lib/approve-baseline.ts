/**
 * The baseline of bench/approve.ts: bare ERC-20 transferFroms sent by the payout wallet itself.
 */
import { createPublicClient, createWalletClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import type { Fees } from '../../src/infra/chain/chain.ts';
import { projectTokenAbi } from '../../src/infra/chain/contracts/ProjectToken.ts';
import type { TestChain } from '../../test/helpers/chain.ts';

/** The gas limit EvmChain signs payout legs with. */
const TRANSFER_GAS = 120_000n;

/**
 * The baseline: ERC-20 transferFroms by the payout key with viem, to the service's chain with the
 * service's transport settings and receipt polling interval. `rpc` lists every JSON-RPC method sent.
 */
export function bareTransfers(tc: TestChain, token: string, from: string, pollingInterval: number) {
  const rpc: string[] = [];
  const onFetchRequest = async (req: Request) => {
    const body = (await req.clone().json()) as { method: string } | { method: string }[];
    for (const m of Array.isArray(body) ? body : [body]) rpc.push(m.method);
  };
  const account = privateKeyToAccount(tc.options.payoutKey);
  const wallet = createWalletClient({
    account,
    chain: foundry,
    transport: http(tc.rpcUrl, { onFetchRequest }),
  });
  const pub = createPublicClient({
    chain: foundry,
    transport: http(tc.rpcUrl, { batch: true, retryCount: 1, timeout: 15_000, onFetchRequest }),
    pollingInterval,
  });
  const to = tc.account(5).address;
  return {
    rpc,
    /** Next nonce and current fees, for transfers that bring their own (`fixed`). */
    async fixedParams(): Promise<{ nonce: number; fees: Fees }> {
      const [nonce, fees] = await Promise.all([
        pub.getTransactionCount({ address: account.address, blockTag: 'pending' }),
        pub.estimateFeesPerGas(),
      ]);
      return {
        nonce,
        fees: { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas },
      };
    },
    /** One transferFrom, signed and sent, and its receipt awaited; viem fills what `fixed` leaves out. */
    async transfer(fixed?: { nonce: number; fees: Fees }): Promise<void> {
      const hash = await wallet.writeContract({
        address: getAddress(token),
        abi: projectTokenAbi,
        functionName: 'transferFrom',
        args: [getAddress(from), to, 10n ** 18n],
        ...(fixed ? { nonce: fixed.nonce, gas: TRANSFER_GAS, ...fixed.fees } : {}),
      });
      const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval });
      if (receipt.status !== 'success') throw new Error(`bare transferFrom ${hash} reverted`);
    },
  };
}
