import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  parseAbi,
  toHex,
} from 'viem';
import { anvilAccount, startAnvil } from './anvil.ts';
import { projectFactoryAbi, projectFactoryBytecode } from './contracts/ProjectFactory.ts';
import { identityOf, removeRecord, stopStaleAnvil, writeRecord } from './dev-chain-record.ts';
import type { EvmChainOptions } from './evm-chain.ts';
import { readFactoryRouter, routerMismatch } from './payout-router.ts';

export const DEV_CHAIN_ID = 31337;
// Curve parameters of the dev factory: price starts at 0.000001 ETH per token and doubles by max supply.
export const CURVE_A = 10n ** 12n;
export const CURVE_B = 10n ** 3n;

/**
 * Gas priced as on Base (0.01 gwei, where Base's base fee usually sits a little below), not as on
 * Ethereum mainnet (anvil's default 1 gwei): what cashing out a small reward costs is then what
 * it costs in production.
 */
export const DEV_BASE_FEE = 10_000_000n;

/** The dev sponsor's account index in anvil's mnemonic, and the ETH it is topped up to. */
const SPONSOR_INDEX = 10;
const SPONSOR_FLOAT = 1000n * 10n ** 18n;

/**
 * Tops the dev sponsor up with anvil's own `anvil_setBalance` when it runs below a tenth of its
 * float: test ETH on a private chain, as the faucet's is. A configured chain's sponsor is funded
 * by its operators (its balance is in /metrics, and /readyz warns when it runs low).
 */
async function fundSponsor(rpcUrl: string, address: string): Promise<void> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const have = await client.getBalance({ address: getAddress(address) });
  if (have >= SPONSOR_FLOAT / 10n) return;
  await client.request({
    method: 'anvil_setBalance' as never,
    params: [getAddress(address), toHex(SPONSOR_FLOAT)] as never,
  });
}

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
 * and treasury (2); the sponsor is the mnemonic's account 10, topped up at start. One anvil per state file: one an earlier run left behind is stopped first (see
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
      ? { chainId: DEV_CHAIN_ID, baseFeePerGas: DEV_BASE_FEE }
      : { statePath, stateIntervalSeconds: 1, chainId: DEV_CHAIN_ID, baseFeePerGas: DEV_BASE_FEE },
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
    // The sponsor is an account of its own (index 10: anvil funds 0-9, which tests use as people).
    const sponsorKey = privateKeyOf(SPONSOR_INDEX);
    await fundSponsor(anvil.rpcUrl, anvilAccount(SPONSOR_INDEX).address);
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
        sponsorKey,
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

/**
 * The factory version whose curves and tokens take signed sales and transfers (sponsoring) that
 * only the relayer they name may send: 2 had the sales, but transfers anyone could send.
 */
export const FACTORY_VERSION = 3n;

/** `VERSION()` of a factory; 1 for factories from before it existed. */
export async function factoryVersion(client: PublicClient, factory: Hex): Promise<bigint> {
  try {
    return await client.readContract({
      address: factory,
      abi: parseAbi(['function VERSION() view returns (uint256)']),
      functionName: 'VERSION',
    });
  } catch {
    return 1n;
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
      const version = await factoryVersion(client, factoryAddress);
      const mismatch =
        version < FACTORY_VERSION
          ? `its curves or tokens predate signed (sponsored) actions bound to the sponsor (version ${version})`
          : router
            ? routerMismatch(router, o)
            : 'it has no payout router';
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
