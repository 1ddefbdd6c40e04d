import {
  getAddress,
  type Hex,
  type PublicClient,
  parseEventLogs,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import { bondingCurveAbi } from '../../src/infra/chain/contracts/BondingCurve.ts';
import { projectTokenAbi } from '../../src/infra/chain/contracts/ProjectToken.ts';
import type { MoneyChainReader } from './money-audit-sources.ts';
import { type ChainReadOptions, readChain } from './payout-audit-sources.ts';

/** The money audit's chain reads over viem (an RPC node: anvil, Base). */
export function evmMoneyReader(
  pub: PublicClient,
  opts: Omit<ChainReadOptions, 'toBlock'> = {},
): MoneyChainReader {
  return {
    head: () => pub.getBlockNumber({ cacheTime: 0 }),
    async receipt(hash) {
      const r = await pub.getTransactionReceipt({ hash: hash as Hex }).catch((err: unknown) => {
        if (err instanceof TransactionReceiptNotFoundError) return null;
        throw err;
      });
      if (!r) return null;
      // What a signed sale paid its relayer back (BondingCurve.sellFor's GasRefunded).
      const refunds = parseEventLogs({
        abi: bondingCurveAbi,
        eventName: 'GasRefunded',
        logs: r.logs,
        strict: false,
      });
      const gasRefundUnits =
        refunds.length === 0
          ? null
          : refunds.reduce((sum, l) => sum + ((l.args as { gasFee?: bigint }).gasFee ?? 0n), 0n);
      return {
        hash: r.transactionHash,
        from: r.from,
        status: r.status,
        blockNumber: r.blockNumber,
        gasPaidUnits: r.gasUsed * r.effectiveGasPrice,
        gasRefundUnits,
      };
    },
    async transaction(hash) {
      const tx = await pub.getTransaction({ hash: hash as Hex }).catch((err: unknown) => {
        if (err instanceof TransactionNotFoundError) return null;
        throw err;
      });
      if (!tx) return null;
      return { hash: tx.hash, from: tx.from, nonce: tx.nonce, to: tx.to, value: tx.value, input: tx.input };
    },
    nonceAt: (address, block) =>
      pub.getTransactionCount({ address: getAddress(address), blockNumber: block }),
    async funds(token, owner, spender, block) {
      const at = { address: getAddress(token), abi: projectTokenAbi, blockNumber: block } as const;
      const [balance, allowance] = await Promise.all([
        pub.readContract({ ...at, functionName: 'balanceOf', args: [getAddress(owner)] }),
        pub.readContract({
          ...at,
          functionName: 'allowance',
          args: [getAddress(owner), getAddress(spender)],
        }),
      ]);
      return { balance, allowance };
    },
    payouts: (ledger, block) => readChain(pub, ledger, { ...opts, toBlock: block }),
  };
}
