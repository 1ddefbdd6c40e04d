/** One anvil with the project factory, funded holders and a relayer, for the cash-out-fuzz files. */
import {
  type Address,
  type createPublicClient,
  type createTestClient,
  type createWalletClient,
  type Hex,
  type LocalAccount,
  parseEther,
  parseEventLogs,
  parseGwei,
  stringToHex,
  type TransactionReceipt,
} from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Anvil, anvilAccount } from '../../src/infra/chain/anvil.ts';
import { bondingCurveAbi } from '../../src/infra/chain/contracts/BondingCurve.ts';
import { projectFactoryAbi } from '../../src/infra/chain/contracts/ProjectFactory.ts';
import { projectTokenAbi } from '../../src/infra/chain/contracts/ProjectToken.ts';
import { signSale } from './cash-out.ts';
import type { CurveParams } from './curve-model.ts';
import { startFactoryAnvil } from './factory-anvil.ts';

export const params: CurveParams = { a: 10n ** 12n, b: 10n ** 3n };
export const operator = anvilAccount(0);
export const alice = anvilAccount(1);
export const bob = anvilAccount(2);
export const holders: LocalAccount[] = [alice, bob, anvilAccount(3)];
export const relayer = anvilAccount(6);
export const treasury = anvilAccount(9);
export const BASE_FEE = parseGwei('2');
export const FEES = { maxFeePerGas: parseGwei('3'), maxPriorityFeePerGas: parseGwei('0.1') } as const;

export let anvil: Anvil;
export let pub: ReturnType<typeof createPublicClient>;
export let wallet: ReturnType<typeof createWalletClient>;
export let testClient: ReturnType<typeof createTestClient>;
export let factory: Address;

export async function send(hash: Hex) {
  return pub.waitForTransactionReceipt({ hash });
}
export async function mine(hash: Hex) {
  const receipt = await send(hash);
  expect(receipt.status).toBe('success');
  return receipt;
}
export const paid = (r: { gasUsed: bigint; effectiveGasPrice: bigint }) => r.gasUsed * r.effectiveGasPrice;
export const eth = (address: Address) => pub.getBalance({ address });
export const balanceOf = (token: Address, owner: Address) =>
  pub.readContract({ address: token, abi: projectTokenAbi, functionName: 'balanceOf', args: [owner] });
export const curveRead = (curve: Address, functionName: 'reserve' | 'feesAccrued') =>
  pub.readContract({ address: curve, abi: bondingCurveAbi, functionName });
export const supplyOf = (token: Address) =>
  pub.readContract({ address: token, abi: projectTokenAbi, functionName: 'totalSupply' });

export let saltCounter = 0;
export async function deployPair() {
  const salt = stringToHex(`cash-out-fuzz-${++saltCounter}`, { size: 32 });
  const { result, request } = await pub.simulateContract({
    address: factory,
    abi: projectFactoryAbi,
    functionName: 'deploy',
    args: [salt, 'Fuzz', 'FZZ'],
    account: operator,
  });
  await mine(await wallet.writeContract(request));
  return { curve: result[0], token: result[1] };
}

/** Sent by `account` with a fixed gas limit, so that a revert is mined too. */
export const from = (account: LocalAccount) => ({ account, chain: foundry, gas: 300_000n });
export const buyTx = (account: LocalAccount, curve: Address, value: bigint) =>
  wallet.writeContract({
    ...from(account),
    address: curve,
    abi: bondingCurveAbi,
    functionName: 'buy',
    args: [0n],
    value,
  });
export const sellTx = (account: LocalAccount, curve: Address, tokensIn: bigint) =>
  wallet.writeContract({
    ...from(account),
    address: curve,
    abi: bondingCurveAbi,
    functionName: 'sell',
    args: [tokensIn, 0n],
  });
export const transferTx = (account: LocalAccount, token: Address, to: Address, value: bigint) =>
  wallet.writeContract({
    ...from(account),
    address: token,
    abi: projectTokenAbi,
    functionName: 'transfer',
    args: [to, value],
  });

/** Signs and relays a sale of tokensIn at the test base fee; mined even when it reverts. */
export async function relaySale(curve: Address, seller: LocalAccount, tokensIn: bigint, maxGasFee: bigint) {
  const m = { seller: seller.address, tokensIn, minEthOut: 0n, maxGasFee, relayer: relayer.address };
  const nonce = generatePrivateKey();
  const signature = await signSale(seller, curve, { ...m, nonce, deadline: 2n ** 40n });
  await testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: BASE_FEE });
  const hash = await wallet.writeContract({
    address: curve,
    abi: bondingCurveAbi,
    functionName: 'sellFor',
    args: [m.seller, tokensIn, 0n, maxGasFee, nonce, 2n ** 40n, signature],
    account: relayer,
    chain: foundry,
    gas: 400_000n,
    ...FEES,
  });
  return send(hash);
}

export const eventFees = (receipt: TransactionReceipt) =>
  parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs }).reduce(
    (sum, e) => sum + (e.eventName === 'Bought' || e.eventName === 'Sold' ? e.args.fee : 0n),
    0n,
  );

/** Starts anvil, deploys the factory and funds the accounts before the file; stops anvil after. */
export function useFuzzChain(): void {
  beforeAll(async () => {
    // One worker runs several files in this module graph: every file deploys from the same salts.
    saltCounter = 0;
    ({ anvil, pub, wallet, testClient, factory } = await startFactoryAnvil(treasury.address, params, 50));
    for (const a of [...holders, relayer])
      await testClient.setBalance({ address: a.address, value: parseEther('10000') });
  });

  afterAll(async () => {
    await anvil?.stop();
  });
}
