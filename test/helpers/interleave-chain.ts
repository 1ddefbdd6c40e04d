import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  parseGwei,
  toHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { projectTokenAbi } from '../../src/infra/chain/contracts/ProjectToken.ts';
import { startTestChain, type TestChain } from './chain.ts';
import type { ChainTransfer } from './interleave-checker.ts';

/**
 * The one anvil of the interleaving model test, mining a block every second (automine off), and
 * the faults the test injects through anvil's own RPC: a reorg (evm_snapshot, blocks mine, then
 * evm_revert), a dropped pending payout transaction, a transaction signed with the payout key
 * outside the service at the nonce it is about to use, a base fee spike; and the founder's own
 * moves on chain (allowance, tokens away and back) by impersonating the founder's wallet.
 */

export type IntervalChain = Awaited<ReturnType<typeof startIntervalChain>>;

interface PoolTx {
  hash: Hex;
  nonce: number;
}

const RECEIPT_TIMEOUT_MS = 8_000;

export async function startIntervalChain() {
  const tc: TestChain = await startTestChain();
  const transport = http(tc.rpcUrl, { timeout: 15_000 });
  // No caching: the block number and nonces change under the test every second.
  const pub = createPublicClient({ chain: foundry, transport, pollingInterval: 200, cacheTime: 0 });
  const test = createTestClient({ chain: foundry, transport, mode: 'anvil', pollingInterval: 200 });
  const wallet = createWalletClient({ chain: foundry, transport, pollingInterval: 200 });
  const payoutAccount = privateKeyToAccount(tc.options.payoutKey as Hex);
  await test.setAutomine(false);
  await test.setIntervalMining({ interval: 1 });

  const rpc = <T>(method: string, params: unknown[] = []) =>
    test.request({ method: method as never, params: params as never }) as Promise<T>;

  /** Waits for a receipt; a transaction a reorg took away may never get one: 'lost'. */
  const settle = async (hash: Hex): Promise<'success' | 'reverted' | 'lost'> => {
    try {
      const r = await pub.waitForTransactionReceipt({
        hash,
        timeout: RECEIPT_TIMEOUT_MS,
        pollingInterval: 200,
      });
      return r.status;
    } catch {
      return 'lost';
    }
  };

  /**
   * A transaction from an address the node signs for (anvil_impersonateAccount). One at a time per
   * address: the node gives two concurrent ones the same nonce and refuses the second.
   */
  const queues = new Map<string, Promise<unknown>>();
  const asAccount = (from: string, to: string, data: Hex) => {
    const account = getAddress(from);
    const run = async () => {
      await rpc('anvil_impersonateAccount', [account]);
      const hash = await wallet.sendTransaction({ account, to: getAddress(to), data, chain: foundry });
      return { hash, outcome: await settle(hash) };
    };
    const next = (queues.get(account) ?? Promise.resolve()).catch(() => {}).then(run);
    queues.set(account, next);
    return next;
  };

  const chain = {
    tc,
    pub,
    test,
    rpcUrl: tc.rpcUrl,
    payoutAddress: payoutAccount.address as Address,
    rpc,

    async ensureEth(address: string, eth = 100n) {
      await test.setBalance({ address: getAddress(address), value: eth * 10n ** 18n });
    },

    balanceOf(token: string, owner: string) {
      return pub.readContract({
        address: getAddress(token),
        abi: projectTokenAbi,
        functionName: 'balanceOf',
        args: [getAddress(owner)],
      });
    },

    allowance(token: string, owner: string, spender: string) {
      return pub.readContract({
        address: getAddress(token),
        abi: projectTokenAbi,
        functionName: 'allowance',
        args: [getAddress(owner), getAddress(spender)],
      });
    },

    /** `owner` approves `spender` for `units` (replacing the allowance), signed by the node. */
    async approveAs(owner: string, token: string, spender: string, units: bigint) {
      const data = encodeFunctionData({
        abi: projectTokenAbi,
        functionName: 'approve',
        args: [getAddress(spender), units],
      });
      return asAccount(owner, token, data);
    },

    async transferAs(from: string, token: string, to: string, units: bigint) {
      const data = encodeFunctionData({
        abi: projectTokenAbi,
        functionName: 'transfer',
        args: [getAddress(to), units],
      });
      return asAccount(from, token, data);
    },

    /** Pending transactions of `from` in the node's pool, by nonce. */
    async pendingOf(from: string): Promise<PoolTx[]> {
      const pool = await rpc<{ pending: Record<string, Record<string, { hash: Hex; nonce: Hex }>> }>(
        'txpool_content',
      );
      const mine = Object.entries(pool.pending ?? {}).find(([a]) => a.toLowerCase() === from.toLowerCase());
      return Object.values(mine?.[1] ?? {})
        .map((t) => ({ hash: t.hash, nonce: Number(t.nonce) }))
        .sort((a, b) => a.nonce - b.nonce);
    },

    /** Waits up to `withinMs` for a pending payout transaction and drops it from the pool. */
    async dropPendingPayout(withinMs: number, pick: number): Promise<PoolTx | null> {
      const deadline = Date.now() + withinMs;
      for (;;) {
        const pending = await chain.pendingOf(payoutAccount.address);
        if (pending.length > 0) {
          const victim = pending[Math.floor(pick * pending.length)] as PoolTx;
          await rpc('anvil_dropTransaction', [victim.hash]);
          return victim;
        }
        if (Date.now() > deadline) return null;
        await new Promise((r) => setTimeout(r, 100));
      }
    },

    /**
     * Signs with the payout key, outside the service, a 0-ETH transfer to itself at the next nonce
     * the chain expects, with a tip that wins over any service transaction pending at that nonce.
     */
    async stealPayoutNonce(waitMs: number): Promise<{ nonce: number; hash: Hex; displaced: Hex | null }> {
      // Preferably the nonce of a service transaction waiting in the pool: it is displaced.
      const deadline = Date.now() + waitMs;
      while (Date.now() < deadline && (await chain.pendingOf(payoutAccount.address)).length === 0)
        await new Promise((r) => setTimeout(r, 100));
      const nonce = await pub.getTransactionCount({ address: payoutAccount.address, blockTag: 'latest' });
      const displaced = (await chain.pendingOf(payoutAccount.address)).find((t) => t.nonce === nonce);
      const raw = await payoutAccount.signTransaction({
        chainId: foundry.id,
        type: 'eip1559',
        to: payoutAccount.address,
        value: 0n,
        nonce,
        gas: 21_000n,
        maxPriorityFeePerGas: parseGwei('60'),
        maxFeePerGas: parseGwei('120'),
      });
      const hash = await pub.sendRawTransaction({ serializedTransaction: raw });
      return { nonce, hash, displaced: displaced?.hash ?? null };
    },

    async spikeBaseFee(gwei: number) {
      await rpc('anvil_setNextBlockBaseFeePerGas', [toHex(parseGwei(String(gwei)))]);
    },

    snapshot: () => rpc<Hex>('evm_snapshot'),
    revert: (id: Hex) => rpc<boolean>('evm_revert', [id]),

    /** Transactions sent by `from` in blocks (after, head]: what a reorg is about to undo. */
    async sentBetween(from: string, after: bigint, head: bigint): Promise<{ hash: Hex; block: bigint }[]> {
      const out: { hash: Hex; block: bigint }[] = [];
      for (let n = after + 1n; n <= head; n++) {
        const block = await pub.getBlock({ blockNumber: n, includeTransactions: true });
        for (const tx of block.transactions)
          if (typeof tx !== 'string' && tx.from.toLowerCase() === from.toLowerCase())
            out.push({ hash: tx.hash, block: n });
      }
      return out;
    },

    /** Every Transfer log of the token on the chain as it is now (reverted blocks are gone). */
    async transfers(token: string): Promise<ChainTransfer[]> {
      const logs = await pub.getContractEvents({
        address: getAddress(token),
        abi: projectTokenAbi,
        eventName: 'Transfer',
        fromBlock: 0n,
        toBlock: 'latest',
      });
      return logs.map((l) => {
        const args = l.args as { from: Address; to: Address; value: bigint };
        return {
          from: args.from,
          to: args.to,
          value: args.value,
          txHash: l.transactionHash as Hex,
          logIndex: l.logIndex ?? 0,
          blockNumber: l.blockNumber ?? 0n,
        };
      });
    },

    stop: () => tc.stop(),
  };
  return chain;
}
