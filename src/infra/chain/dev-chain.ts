import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { createPublicClient, createWalletClient, getAddress, type Hex, http, toHex } from 'viem';
import { anvilAccount, startAnvil } from './anvil.ts';
import { projectFactoryAbi, projectFactoryBytecode } from './contracts/ProjectFactory.ts';
import { identityOf, removeRecord, stopStaleAnvil, writeRecord } from './dev-chain-record.ts';
import type { EvmChainOptions } from './evm-chain.ts';
import { readFactoryRouter, routerMismatch } from './payout-router.ts';

export const DEV_CHAIN_ID = 31337;
// Curve parameters of the dev factory: price starts at 0.000001 ETH per token and doubles by max supply.
const CURVE_A = 10n ** 12n;
const CURVE_B = 10n ** 3n;

export interface DevChain {
  options: EvmChainOptions;
  stop(): Promise<void>;
}

const privateKeyOf = (index: number): Hex => {
  const key = anvilAccount(index).getHdKey().privateKey;
  if (!key) throw new Error('anvil account has no private key');
  return toHex(key);
};

/**
 * The embedded dev chain: anvil with its state in DATA_DIR (a restart keeps balances and
 * contracts, in step with the embedded database), the factory (and its payout router) deployed
 * once, and anvil's well-known funded accounts as operator (0), payout key (1, the router's payer)
 * and treasury (2). One anvil per state file: one an earlier run left behind is stopped first (see
 * dev-chain-record.ts).
 */
export async function startDevChain(
  dataDir: string,
  log: FastifyBaseLogger,
  opts: { persist?: boolean } = {},
): Promise<DevChain> {
  const dir = join(dataDir, 'chain');
  mkdirSync(dir, { recursive: true });
  const statePath = join(dir, 'anvil-state.json');
  const recordPath = join(dir, 'anvil.pid');
  await stopStaleAnvil(recordPath, statePath, log);
  // persist: false (tests) keeps the chain in memory only: no state file is read or dumped.
  const started = await startAnvil(
    opts.persist === false
      ? { chainId: DEV_CHAIN_ID }
      : { statePath, stateIntervalSeconds: 1, chainId: DEV_CHAIN_ID },
  );
  writeRecord(recordPath, {
    anvil: identityOf(started.pid),
    owner: identityOf(process.pid),
    statePath,
  });
  const anvil = {
    rpcUrl: started.rpcUrl,
    stop: async () => {
      await started.stop();
      removeRecord(recordPath, started.pid);
    },
  };
  try {
    const operatorKey = privateKeyOf(0);
    const payoutKey = privateKeyOf(1);
    const treasuryAddress = anvilAccount(2).address;
    const { factoryAddress, payoutRouterAddress } = await ensureFactory(
      anvil.rpcUrl,
      join(dir, 'dev-chain.json'),
      {
        operatorKey,
        payer: anvilAccount(1).address,
        treasury: treasuryAddress,
        log,
      },
    );
    log.info({ rpcUrl: anvil.rpcUrl, factoryAddress, payoutRouterAddress }, 'dev chain ready (anvil)');
    return {
      options: {
        rpcUrl: anvil.rpcUrl,
        // Anvil on loopback holds no secret; clients on this machine may use it directly.
        publicRpcUrl: anvil.rpcUrl,
        chainId: DEV_CHAIN_ID,
        name: 'Anvil (embedded dev chain)',
        explorerUrl: null,
        factoryAddress,
        payoutRouterAddress,
        treasuryAddress,
        operatorKey,
        payoutKey,
        devChain: true,
        pollingIntervalMs: 100,
      },
      stop: () => anvil.stop(),
    };
  } catch (err) {
    await anvil.stop();
    throw err;
  }
}

interface DevContracts {
  factoryAddress: string;
  payoutRouterAddress: string;
}

/**
 * The recorded factory when it still serves this setup, else a new one. A factory from an older
 * state file may predate the payout router, or name another payer or treasury: payouts through it
 * would revert, so it is replaced (projects it deployed keep their tokens; founders approve the new
 * router).
 */
async function ensureFactory(
  rpcUrl: string,
  recordPath: string,
  o: { operatorKey: Hex; payer: string; treasury: string; log: FastifyBaseLogger },
): Promise<DevContracts> {
  const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: 100 });
  if (existsSync(recordPath)) {
    const recorded = JSON.parse(readFileSync(recordPath, 'utf8')) as { factoryAddress: string };
    const factoryAddress = getAddress(recorded.factoryAddress);
    const code = await client.getCode({ address: factoryAddress });
    if (code && code !== '0x') {
      const router = await readFactoryRouter(client, factoryAddress);
      const mismatch = router ? routerMismatch(router, o) : 'it has no payout router';
      if (!router || mismatch) {
        o.log.warn(
          { factory: factoryAddress, reason: mismatch },
          'dev chain factory is from an older setup: deploying a new factory',
        );
      } else {
        return { factoryAddress, payoutRouterAddress: router.routerAddress };
      }
    } else {
      o.log.warn({ factory: factoryAddress }, 'dev chain state lost: deploying a new factory');
    }
  }
  const { privateKeyToAccount } = await import('viem/accounts');
  const wallet = createWalletClient({ account: privateKeyToAccount(o.operatorKey), transport: http(rpcUrl) });
  const hash = await wallet.deployContract({
    abi: projectFactoryAbi,
    bytecode: projectFactoryBytecode,
    args: [getAddress(o.treasury), getAddress(o.payer), CURVE_A, CURVE_B],
    chain: null,
  });
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress || receipt.status !== 'success')
    throw new Error('The factory deployment failed.');
  const factoryAddress = getAddress(receipt.contractAddress);
  const router = await readFactoryRouter(client, factoryAddress);
  if (!router) throw new Error('The new factory has no payout router.');
  const contracts = { factoryAddress, payoutRouterAddress: router.routerAddress };
  writeFileSync(recordPath, JSON.stringify(contracts, null, 2));
  return contracts;
}
