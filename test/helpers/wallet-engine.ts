import { createWalletClient, getAddress, type Hex, http, parseEventLogs } from 'viem';
import { foundry } from 'viem/chains';
import { anvilAccount } from '../../src/infra/chain/anvil.ts';
import { bondingCurveAbi } from '../../src/infra/chain/contracts/BondingCurve.ts';
import { projectTokenAbi } from '../../src/infra/chain/contracts/ProjectToken.ts';
import { EvmChain } from '../../src/infra/chain/evm-chain.ts';
import type { WalletVault } from '../../src/infra/chain/wallet-vault.ts';
import type { Database } from '../../src/infra/db/client.ts';
import { buildTestApp, createProject, registerAgent, type TestAgent, type TestContext } from './app.ts';
import { activateOnChain, buyTokens, type TestChain, transferLogs } from './chain.ts';
import { startRpcProxy } from './rpc-proxy.ts';
import { ETH, newVault, TOKEN } from './wallets.ts';

/** Anvil account 3: the founder who buys the tokens the test wallets are given. */
const FOUNDER = 3;
const ZERO = '0x0000000000000000000000000000000000000000';

export interface EngineScene {
  ctx: TestContext;
  vault: WalletVault;
  project: { id: string; token: string; curve: string };
  /** A new in-app agent holding `tokens` whole tokens and no ETH. */
  holder(tokens: bigint): Promise<TestAgent>;
  /** Another instance of the service on the same database and chain (through the same proxy). */
  instance(): Promise<TestContext>;
  /** The token's burns (sales) and transfers out of `holder`, from the chain's Transfer logs. */
  movedFrom(holder: string): Promise<{ to: string; value: bigint; txHash: Hex }[]>;
  /** Sold events on the curve for `seller`, from the chain. */
  salesOf(seller: string): Promise<{ tokensIn: bigint; txHash: Hex }[]>;
  close(): Promise<void>;
}

/**
 * A service whose chain sits behind a JSON-RPC proxy the test can break (lost answers, delays),
 * with an active project whose tokens in-app wallets hold and no ETH: every cash-out is sponsored.
 */
export async function engineScene(
  tc: TestChain,
  env: Record<string, string>,
  database?: Database,
): Promise<EngineScene & { proxy: Awaited<ReturnType<typeof startRpcProxy>> }> {
  const proxy = await startRpcProxy(tc.rpcUrl);
  const vault = newVault();
  const chain = () => new EvmChain({ ...tc.options, rpcUrl: proxy.url });
  const ctx = await buildTestApp({ chain: chain(), vault, env, ...(database ? { database } : {}) });
  const founder = await registerAgent(ctx.app, { wallet_address: tc.account(FOUNDER).address });
  const p = await createProject(ctx.app, founder);
  const deployed = await activateOnChain(ctx, tc, p.id, p.token_symbol);
  await buyTokens(tc, FOUNDER, deployed.curveAddress, 20n * ETH);
  const giver = createWalletClient({
    account: anvilAccount(FOUNDER),
    chain: foundry,
    transport: http(tc.rpcUrl),
  });
  const others: TestContext[] = [];
  return {
    ctx,
    vault,
    proxy,
    project: { id: p.id, token: deployed.tokenAddress, curve: deployed.curveAddress },
    async holder(tokens) {
      const agent = await registerAgent(ctx.app, { wallet_address: null });
      const hash = await giver.writeContract({
        address: getAddress(deployed.tokenAddress),
        abi: projectTokenAbi,
        functionName: 'transfer',
        args: [getAddress(agent.walletAddress as string), tokens * TOKEN],
      });
      await tc.pub.waitForTransactionReceipt({ hash });
      return agent;
    },
    async instance() {
      const other = await buildTestApp({ chain: chain(), vault, env, database: ctx.database });
      others.push(other);
      return other;
    },
    async movedFrom(holder) {
      return (await transferLogs(tc, deployed.tokenAddress))
        .filter((l) => l.from.toLowerCase() === holder.toLowerCase())
        .map((l) => ({ to: l.to.toLowerCase() === ZERO ? 'burn' : l.to, value: l.value, txHash: l.txHash }));
    },
    async salesOf(seller) {
      const logs = await tc.pub.getLogs({ address: getAddress(deployed.curveAddress), fromBlock: 0n });
      return parseEventLogs({ abi: bondingCurveAbi, logs, eventName: 'Sold' })
        .filter((e) => (e.args as { seller: string }).seller.toLowerCase() === seller.toLowerCase())
        .map((e) => ({ tokensIn: (e.args as { tokensIn: bigint }).tokensIn, txHash: e.transactionHash }));
    },
    async close() {
      for (const o of others) await o.close();
      await ctx.close();
      await proxy.close();
    },
  };
}
