import type { FastifyBaseLogger } from 'fastify';
import { BaseError, createPublicClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Config } from '../config.ts';
import { devSecret } from '../dev-secrets.ts';
import type { Chain } from './chain.ts';
import { type DevChain, startDevChain } from './dev-chain.ts';
import { EvmChain } from './evm-chain.ts';
import { safeText } from './evm-errors.ts';
import type { RpcObserver } from './observed-transport.ts';
import { ChainSetupError, readFactoryRouter, routerMismatch } from './payout-router.ts';

const withPrefix = (key: string) => (key.startsWith('0x') ? key : `0x${key}`) as `0x${string}`;

/** The configured chain (CHAIN_RPC_URL), or the embedded anvil dev chain in DATA_DIR. */
export async function connectChain(
  config: Config,
  log: FastifyBaseLogger,
  observeRpc?: RpcObserver,
): Promise<{ chain: Chain; devChain: DevChain | null; masterKey: string | undefined }> {
  const c = config.chain;
  if (c.rpcUrl) {
    const payoutKey = withPrefix(c.payoutKey as string);
    const payoutRouterAddress = await configuredRouter({
      rpcUrl: c.rpcUrl,
      factoryAddress: c.factoryAddress as string,
      payer: privateKeyToAccount(payoutKey).address,
      treasury: c.treasuryAddress as string,
    });
    const chain = new EvmChain({
      rpcUrl: c.rpcUrl,
      publicRpcUrl: c.publicRpcUrl ?? null,
      chainId: c.chainId as number,
      name: c.name ?? `chain ${c.chainId}`,
      explorerUrl: c.explorerUrl ?? null,
      factoryAddress: c.factoryAddress as string,
      payoutRouterAddress,
      treasuryAddress: c.treasuryAddress as string,
      operatorKey: withPrefix(c.operatorKey as string),
      payoutKey,
      sponsorKey: c.sponsorKey ? withPrefix(c.sponsorKey) : undefined,
      devChain: false,
      pollingIntervalMs: c.pollingIntervalMs,
      ...(observeRpc ? { observeRpc } : {}),
    });
    if (!c.sponsorKey) log.warn('SPONSOR_PRIVATE_KEY is not set: in-app wallets without ETH cannot cash out');
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

/**
 * The payout router of the configured factory, checked before the service starts: payouts signed
 * for a router that another key pays through would all revert, and founders would approve a
 * spender this service cannot use.
 */
async function configuredRouter(o: {
  rpcUrl: string;
  factoryAddress: string;
  payer: string;
  treasury: string;
}): Promise<string> {
  const factory = getAddress(o.factoryAddress);
  const client = createPublicClient({ transport: http(o.rpcUrl, { retryCount: 1, timeout: 15_000 }) });
  let router: Awaited<ReturnType<typeof readFactoryRouter>>;
  try {
    router = await readFactoryRouter(client, factory);
  } catch (err) {
    const reason = safeText(err instanceof BaseError ? err.shortMessage : String(err));
    throw new ChainSetupError(
      `Could not read the payout router of FACTORY_ADDRESS ${factory} from CHAIN_RPC_URL: ${reason}`,
    );
  }
  if (!router) {
    throw new ChainSetupError(
      `FACTORY_ADDRESS ${factory} has no payoutRouter(): it is not a ProjectFactory, or one built before ` +
        `the payout router. Deploy the current contracts/ProjectFactory.sol with payer_ = ${o.payer} ` +
        '(the address of PAYOUT_PRIVATE_KEY) and set FACTORY_ADDRESS to it.',
    );
  }
  const mismatch = routerMismatch(router, o);
  if (mismatch) {
    throw new ChainSetupError(
      `The payout router ${router.routerAddress} of FACTORY_ADDRESS ${factory} cannot pay for this service: ` +
        `${mismatch}. Use the PAYOUT_PRIVATE_KEY and TREASURY_ADDRESS the factory was deployed with, or ` +
        'deploy a factory for these.',
    );
  }
  return router.routerAddress;
}
