import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  parseEther,
  parseEventLogs,
  toHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilAccount } from '../src/infra/chain/anvil.ts';
import { connectChain } from '../src/infra/chain/connect.ts';
import { bondingCurveAbi } from '../src/infra/chain/contracts/BondingCurve.ts';
import { payoutRouterAbi } from '../src/infra/chain/contracts/PayoutRouter.ts';
import { projectFactoryAbi, projectFactoryBytecode } from '../src/infra/chain/contracts/ProjectFactory.ts';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';
import { type DevChain, startDevChain } from '../src/infra/chain/dev-chain.ts';
import { EvmChain, type EvmChainOptions } from '../src/infra/chain/evm-chain.ts';
import { ChainSetupError } from '../src/infra/chain/payout-router.ts';
import { loadConfig } from '../src/infra/config.ts';
import { externalChainEnv } from './helpers/crash.ts';

/**
 * Where the payout router comes from: the dev chain deploys (or replaces) a factory whose router
 * the payout key pays through; a configured chain's factory is checked at start and refused when
 * its router would not take this service's payouts.
 */

const silent = pino({ level: 'silent' });
const keyOf = (index: number): Hex => toHex(anvilAccount(index).getHdKey().privateKey as Uint8Array);

let dir: string;
let dev: DevChain;
let options: EvmChainOptions;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bm-router-'));
  dev = await startDevChain(dir, silent);
  options = dev.options;
});

afterAll(async () => {
  await dev?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const clients = () => {
  const transport = http(options.rpcUrl);
  return {
    pub: createPublicClient({ chain: foundry, transport, pollingInterval: 100 }),
    wallet: createWalletClient({ chain: foundry, transport, account: anvilAccount(0) }),
  };
};

/** A current factory with this payer and treasury, deployed outside the service. */
async function deployFactory(payer: string, treasury: string) {
  const { pub, wallet } = clients();
  const hash = await wallet.deployContract({
    abi: projectFactoryAbi,
    bytecode: projectFactoryBytecode,
    args: [getAddress(treasury), getAddress(payer), 10n ** 12n, 10n ** 3n],
  });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  return getAddress(receipt.contractAddress as string);
}

const routerRead = (router: string, functionName: 'payer' | 'treasury') =>
  clients().pub.readContract({ address: getAddress(router), abi: payoutRouterAbi, functionName });

const configured = (overrides: Record<string, string> = {}) =>
  connectChain(loadConfig({ ...externalChainEnv(options), ...overrides }), silent);

describe('the dev chain', () => {
  it('deploys the factory with a router the payout key pays through and publishes the router as spender', async () => {
    const payoutKey = privateKeyToAccount(options.payoutKey).address;
    expect(await routerRead(options.payoutRouterAddress, 'payer')).toBe(payoutKey);
    expect(await routerRead(options.payoutRouterAddress, 'treasury')).toBe(
      getAddress(options.treasuryAddress),
    );
    const factoryRouter = await clients().pub.readContract({
      address: getAddress(options.factoryAddress),
      abi: projectFactoryAbi,
      functionName: 'payoutRouter',
    });
    expect(factoryRouter).toBe(options.payoutRouterAddress);
  });

  it('replaces a recorded factory without a router, or whose router another key pays through', async () => {
    const record = join(dir, 'chain', 'dev-chain.json');
    // An address with code but no payoutRouter(), as a factory from before the router; then a
    // current factory for another payer.
    const stale = [
      options.payoutRouterAddress,
      await deployFactory(anvilAccount(7).address, options.treasuryAddress),
    ];
    for (const recorded of stale) {
      writeFileSync(record, JSON.stringify({ factoryAddress: recorded }));
      await dev.stop();
      dev = await startDevChain(dir, silent);
      options = dev.options;
      expect(options.factoryAddress).not.toBe(recorded);
      expect(await routerRead(options.payoutRouterAddress, 'payer')).toBe(
        privateKeyToAccount(options.payoutKey).address,
      );
    }

    // A factory that fits is kept across restarts.
    const kept = options.factoryAddress;
    await dev.stop();
    dev = await startDevChain(dir, silent);
    options = dev.options;
    expect(options.factoryAddress).toBe(kept);
  });
});

describe('a configured chain (CHAIN_RPC_URL)', () => {
  it("reads the factory's router and publishes it as the payout spender", async () => {
    const { chain } = await configured();
    expect(chain.info?.payoutSpenderAddress).toBe(options.payoutRouterAddress);
    expect(chain.payoutSigner.routerAddress).toBe(options.payoutRouterAddress);
    expect(chain.payoutSigner.address).toBe(privateKeyToAccount(options.payoutKey).address);
  });

  it('refuses to start when the payout key is not the router payer', async () => {
    const other = keyOf(6);
    const start = configured({ PAYOUT_PRIVATE_KEY: other });
    await expect(start).rejects.toBeInstanceOf(ChainSetupError);
    await expect(configured({ PAYOUT_PRIVATE_KEY: other })).rejects.toThrow(
      `its payer is ${privateKeyToAccount(options.payoutKey).address}, not the payout key's address ${privateKeyToAccount(other).address}`,
    );
  });

  it('refuses to start when the router pays fees to another treasury', async () => {
    await expect(configured({ TREASURY_ADDRESS: anvilAccount(8).address })).rejects.toThrow(
      /its treasury is 0x[0-9a-fA-F]{40}, not TREASURY_ADDRESS/,
    );
  });

  it('refuses to start when FACTORY_ADDRESS holds no factory with a router', async () => {
    for (const factory of [options.payoutRouterAddress, anvilAccount(9).address]) {
      await expect(configured({ FACTORY_ADDRESS: factory })).rejects.toThrow(
        `FACTORY_ADDRESS ${getAddress(factory)} has no payoutRouter()`,
      );
    }
  });

  it('refuses to start when the node cannot be read', async () => {
    await expect(configured({ CHAIN_RPC_URL: 'http://127.0.0.1:9' })).rejects.toThrow(
      /Could not read the payout router of FACTORY_ADDRESS 0x[0-9a-fA-F]{40} from CHAIN_RPC_URL/,
    );
  });
});

describe('the payout signer', () => {
  it('signs one router pay that moves reward and fee, at the nonce given, and approvePayouts names the router', async () => {
    const chain = new EvmChain(options);
    const { pub } = clients();
    const founder = anvilAccount(3);
    const contributor = anvilAccount(4).address;
    const { tokenAddress, curveAddress } = await chain.deployProject(
      `proj_signer_${Date.now()}`,
      'Signer',
      'SGN',
    );
    const founderWallet = createWalletClient({
      chain: foundry,
      transport: http(options.rpcUrl),
      account: founder,
    });
    await pub.waitForTransactionReceipt({
      hash: await founderWallet.writeContract({
        address: getAddress(curveAddress),
        abi: bondingCurveAbi,
        functionName: 'buy',
        args: [0n],
        value: parseEther('0.1'),
      }),
    });
    const UNIT = 10n ** 18n;
    const { allowanceUnits } = await chain.wallets.approvePayouts(keyOf(3), tokenAddress, 100n * UNIT);
    expect(allowanceUnits).toBe(100n * UNIT);
    expect(await chain.readFunds(tokenAddress, founder.address)).toMatchObject({
      allowanceUnits: 100n * UNIT,
    });

    // The payout key's router call, signed and sent as the transaction engine does.
    const signer = chain.payoutSigner;
    const wallets = chain.wallets;
    const nonce = await wallets.nonceOf(signer.address, 'pending');
    expect(await wallets.nonceOf(signer.address, 'latest')).toBe(nonce);
    const call = signer.payCall({
      tokenAddress,
      from: founder.address,
      to: contributor,
      amountUnits: 57n * UNIT,
      feeUnits: 3n * UNIT,
    });
    const tx = await wallets.signTx(
      signer.key,
      { ...call, valueUnits: 0n, ...(await wallets.quoteFees()) },
      nonce,
    );
    expect(await wallets.broadcast(tx.raw)).toBe('accepted');
    const receipt = await pub.waitForTransactionReceipt({ hash: tx.hash as Hex });
    expect(receipt.status).toBe('success');
    expect(await wallets.nonceOf(signer.address, receipt.blockNumber - 1n)).toBe(nonce);
    expect(await wallets.nonceOf(signer.address, receipt.blockNumber)).toBe(nonce + 1);
    expect(receipt.to).toBe(options.payoutRouterAddress.toLowerCase());
    const sent = await pub.getTransaction({ hash: tx.hash as Hex });
    expect([getAddress(sent.from), sent.nonce]).toEqual([signer.address, nonce]);
    const transfers = parseEventLogs({ abi: projectTokenAbi, logs: receipt.logs, eventName: 'Transfer' });
    expect(transfers.map((t) => t.args)).toEqual([
      { from: founder.address, to: getAddress(contributor), value: 57n * UNIT },
      { from: founder.address, to: getAddress(options.treasuryAddress), value: 3n * UNIT },
    ]);
    expect((await chain.readFunds(tokenAddress, founder.address)).allowanceUnits).toBe(40n * UNIT);
  });
});
