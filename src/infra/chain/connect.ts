import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { devSecret } from '../dev-secrets.ts';
import type { Chain } from './chain.ts';
import { type DevChain, startDevChain } from './dev-chain.ts';
import { EvmChain } from './evm-chain.ts';
import type { RpcObserver } from './observed-transport.ts';

const withPrefix = (key: string) => (key.startsWith('0x') ? key : `0x${key}`) as `0x${string}`;

/** The configured chain (CHAIN_RPC_URL), or the embedded anvil dev chain in DATA_DIR. */
export async function connectChain(
  config: Config,
  log: FastifyBaseLogger,
  observeRpc?: RpcObserver,
): Promise<{ chain: Chain; devChain: DevChain | null; masterKey: string | undefined }> {
  const c = config.chain;
  if (c.rpcUrl) {
    const chain = new EvmChain({
      rpcUrl: c.rpcUrl,
      publicRpcUrl: c.publicRpcUrl ?? null,
      chainId: c.chainId as number,
      name: c.name ?? `chain ${c.chainId}`,
      explorerUrl: c.explorerUrl ?? null,
      factoryAddress: c.factoryAddress as string,
      treasuryAddress: c.treasuryAddress as string,
      operatorKey: withPrefix(c.operatorKey as string),
      payoutKey: withPrefix(c.payoutKey as string),
      devChain: false,
      pollingIntervalMs: c.pollingIntervalMs,
      ...(observeRpc ? { observeRpc } : {}),
    });
    if (!config.walletMasterKey) log.warn('WALLET_MASTER_KEY is not set: in-app wallets are unavailable');
    return { chain, devChain: null, masterKey: config.walletMasterKey };
  }
  const devChain = await startDevChain(config.dataDir, log);
  const masterKey =
    config.walletMasterKey ?? devSecret(config.dataDir, 'wallet-master.key', 'WALLET_MASTER_KEY', log);
  return {
    chain: new EvmChain({ ...devChain.options, ...(observeRpc ? { observeRpc } : {}) }),
    devChain,
    masterKey,
  };
}
