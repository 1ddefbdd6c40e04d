import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  parseEventLogs,
} from 'viem';
import { foundry } from 'viem/chains';
import { expect, inject } from 'vitest';
import { anvilAccount } from '../../src/infra/chain/anvil.ts';
import { bondingCurveAbi } from '../../src/infra/chain/contracts/BondingCurve.ts';
import { projectTokenAbi } from '../../src/infra/chain/contracts/ProjectToken.ts';
import { DEV_BASE_FEE, startDevChain } from '../../src/infra/chain/dev-chain.ts';
import { EvmChain, type EvmChainOptions } from '../../src/infra/chain/evm-chain.ts';
import { projects } from '../../src/infra/db/schema.ts';
import type { TestContext } from './app.ts';

export type TestChain = Awaited<ReturnType<typeof startTestChain>>;

/**
 * A real anvil with the factory deployed, exactly as `npm start` sets it up. Accounts 0-2 are the
 * platform's (operator, payout key, treasury); tests use 3 and up. Founders approve the factory's
 * payout router (`chain.info.payoutSpenderAddress`), never the payout key.
 *
 * In a project with the shared-anvil global setup (test/setup/shared-anvils.ts) this is the worker
 * slot's anvil: a snapshot is taken now and `stop()` reverts to it and puts the mining mode back,
 * so each file starts from the freshly deployed chain. `{ own: true }` (or no shared anvil) starts
 * a private anvil in a temp dir instead, for a file that needs one to itself.
 */
export async function startTestChain(overrides: Partial<EvmChainOptions> = {}, opts: { own?: boolean } = {}) {
  const shared = opts.own ? undefined : sharedSlot();
  const dir = shared ? null : mkdtempSync(join(tmpdir(), 'bm-chain-'));
  const dev = shared
    ? null
    : await startDevChain(dir as string, pino({ level: 'silent' }), { persist: false });
  const options = { ...(shared ?? (dev as { options: EvmChainOptions }).options), ...overrides };
  const chain = new EvmChain(options);
  const transport = http(options.rpcUrl);
  const common = { chain: foundry, transport, pollingInterval: 100 } as const;
  const pub = createPublicClient(common);
  const test = createTestClient({ ...common, mode: 'anvil' });
  const snapshot = shared ? await test.snapshot() : null;
  return {
    chain,
    options,
    pub,
    test,
    rpcUrl: options.rpcUrl,
    /** A funded anvil account (index >= 3) used as an agent's external wallet. */
    account: (index: number) => anvilAccount(index),
    async stop() {
      if (snapshot) {
        await resetSharedChain(test, snapshot);
        return;
      }
      await dev?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The shared anvil of this worker's slot, when the project provides them. */
function sharedSlot(): EvmChainOptions | undefined {
  let anvils: EvmChainOptions[] | undefined;
  try {
    anvils = inject('sharedAnvils');
  } catch {
    return undefined;
  }
  if (!anvils || anvils.length === 0) return undefined;
  const slot = Number(process.env.VITEST_POOL_ID ?? '1') - 1;
  const options = anvils[slot];
  if (!options) throw new Error(`no shared anvil for worker slot ${slot + 1} of ${anvils.length}`);
  return options;
}

/**
 * Back to the state of the snapshot, with anvil's defaults: every block mined on a transaction,
 * no interval mining, an empty pool. A revert restores state, not the node's settings.
 */
async function resetSharedChain(test: ReturnType<typeof createTestClient>, id: Hex): Promise<void> {
  await test.setIntervalMining({ interval: 0 });
  await test.setAutomine(true);
  await test.request({ method: 'anvil_dropAllTransactions' as never, params: [] as never });
  const reverted = await test.request({ method: 'evm_revert' as never, params: [id] as never });
  if (reverted !== true) throw new Error(`the shared anvil could not revert to the file snapshot ${id}`);
  // The base fee is the node's, not the snapshot's: a file that raised it (a gas measurement at
  // 2 gwei) would price the next file's transactions, so it goes back to the dev chain's own.
  await test.request({
    method: 'anvil_setNextBlockBaseFeePerGas' as never,
    params: [`0x${DEV_BASE_FEE.toString(16)}`] as never,
  });
}

/** Buys tokens on the curve from an anvil account; returns the tokens received. */
export async function buyTokens(
  tc: TestChain,
  accountIndex: number,
  curve: string,
  ethUnits: bigint,
): Promise<bigint> {
  const account = anvilAccount(accountIndex);
  const wallet = createWalletClient({ account, chain: foundry, transport: http(tc.rpcUrl) });
  const hash = await wallet.writeContract({
    address: getAddress(curve),
    abi: bondingCurveAbi,
    functionName: 'buy',
    args: [0n],
    value: ethUnits,
  });
  const receipt = await tc.pub.waitForTransactionReceipt({ hash });
  const [event] = parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs, eventName: 'Bought' });
  if (!event) throw new Error('The curve emitted no Bought event.');
  return (event.args as { tokensOut: bigint }).tokensOut;
}

/** Sets the payout spender's (the payout router's) allowance on a token from an anvil account. */
export async function approvePayouts(
  tc: TestChain,
  accountIndex: number,
  token: string,
  units: bigint,
): Promise<void> {
  const account = anvilAccount(accountIndex);
  const wallet = createWalletClient({ account, chain: foundry, transport: http(tc.rpcUrl) });
  const hash = await wallet.writeContract({
    address: getAddress(token),
    abi: projectTokenAbi,
    functionName: 'approve',
    args: [getAddress(tc.chain.info.payoutSpenderAddress as string), units],
  });
  await tc.pub.waitForTransactionReceipt({ hash });
}

export function tokenBalance(tc: TestChain, token: string, owner: string): Promise<bigint> {
  return tc.pub.readContract({
    address: getAddress(token),
    abi: projectTokenAbi,
    functionName: 'balanceOf',
    args: [getAddress(owner)],
  });
}

export interface TransferLog {
  from: Address;
  to: Address;
  value: bigint;
  txHash: Hex;
}

/** Every Transfer event the token ever emitted: the chain's own record of what moved. */
export async function transferLogs(tc: TestChain, token: string): Promise<TransferLog[]> {
  const logs = await tc.pub.getContractEvents({
    address: getAddress(token),
    abi: projectTokenAbi,
    eventName: 'Transfer',
    fromBlock: 0n,
    toBlock: 'latest',
  });
  return logs.map((l) => {
    const args = l.args as { from: Address; to: Address; value: bigint };
    return { from: args.from, to: args.to, value: args.value, txHash: l.transactionHash as Hex };
  });
}

/** Deploys the project's real token and curve and marks the project active with them. */
export async function activateOnChain(ctx: TestContext, tc: TestChain, projectId: string, symbol: string) {
  const deployed = await tc.chain.deployProject(projectId, `Token ${symbol}`, symbol);
  const repoUrl = `http://127.0.0.1:9/bounty-org/${projectId}`;
  await ctx.database.db
    .update(projects)
    .set({
      status: 'active',
      repoUrl,
      tokenAddress: deployed.tokenAddress,
      curveAddress: deployed.curveAddress,
      activatedAt: ctx.clock.now(),
    })
    .where(eq(projects.id, projectId));
  // What activation does next: read the new curve, so bounties are quoted from the start.
  await ctx.app.services.holdings.afterAction(projectId, []);
  return { repoUrl, ...deployed };
}

/** Asserts each payout leg's transaction was sent by the signer at the nonce the leg holds. */
export async function expectMinedAtTheirNonces(
  tc: TestChain,
  signer: string,
  legs: { txHash: string | null; nonce: number }[],
): Promise<void> {
  const onChain = await Promise.all(
    legs.map((l) =>
      tc.pub.getTransaction({ hash: l.txHash as Hex }).then((t) => [getAddress(t.from), t.nonce]),
    ),
  );
  expect(onChain).toEqual(legs.map((l) => [getAddress(signer), l.nonce]));
}
