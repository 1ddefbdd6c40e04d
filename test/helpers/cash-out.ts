/** One anvil with the project factory, and the signed sales that cash-out.chain and cash-out-limits.chain relay. */
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  type createPublicClient,
  type createTestClient,
  type createWalletClient,
  type Hex,
  type LocalAccount,
  parseEther,
  parseGwei,
  stringToHex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Anvil, anvilAccount } from '../../src/infra/chain/anvil.ts';
import { bondingCurveAbi } from '../../src/infra/chain/contracts/BondingCurve.ts';
import { projectFactoryAbi } from '../../src/infra/chain/contracts/ProjectFactory.ts';
import { projectTokenAbi } from '../../src/infra/chain/contracts/ProjectToken.ts';
import type { CurveParams } from './curve-model.ts';
import { startFactoryAnvil } from './factory-anvil.ts';

export const params: CurveParams = { a: 10n ** 12n, b: 10n ** 3n };
export const operator = anvilAccount(0);
export const buyer = anvilAccount(1);
export const relayer = anvilAccount(2);
export const otherRelayer = anvilAccount(3);
export const treasury = anvilAccount(9);
export const curveCallAbi = [...bondingCurveAbi, ...projectTokenAbi.filter((item) => item.type === 'error')];
// A 2 gwei base fee and a 0.1 gwei tip: every relayed transaction pays a real, non-zero price.
export const BASE_FEE = parseGwei('2');
export const FEES = { maxFeePerGas: parseGwei('3'), maxPriorityFeePerGas: parseGwei('0.1') } as const;
export const FAR = 2n ** 40n;

export let anvil: Anvil;
export let pub: ReturnType<typeof createPublicClient>;
export let wallet: ReturnType<typeof createWalletClient>;
export let testClient: ReturnType<typeof createTestClient>;
export let factory: Address;

export async function mine(hash: Hex) {
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

export async function revertName(call: Promise<unknown>): Promise<string | undefined> {
  try {
    await call;
  } catch (err) {
    if (!(err instanceof BaseError)) throw err;
    const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError) return reverted.data?.errorName;
    throw err;
  }
  throw new Error('expected the call to revert');
}

export const paid = (r: { gasUsed: bigint; effectiveGasPrice: bigint }) => r.gasUsed * r.effectiveGasPrice;

export let saltCounter = 0;
/** A fresh pair where `seller`, an account that never held ETH, holds half of a 1 ETH buy. */
export async function fundedSeller() {
  const { result, request } = await pub.simulateContract({
    address: factory,
    abi: projectFactoryAbi,
    functionName: 'deploy',
    args: [stringToHex(`cash-out-${++saltCounter}`, { size: 32 }), 'Cash Out', 'CSH'],
    account: operator,
  });
  await mine(await wallet.writeContract(request));
  const [curve, token] = result;
  const bought = await pub.simulateContract({
    address: curve,
    abi: bondingCurveAbi,
    functionName: 'buy',
    args: [0n],
    value: parseEther('1'),
    account: buyer,
  });
  await mine(await wallet.writeContract(bought.request));
  const seller = privateKeyToAccount(generatePrivateKey());
  const sent = await pub.simulateContract({
    address: token,
    abi: projectTokenAbi,
    functionName: 'transfer',
    args: [seller.address, bought.result / 2n],
    account: buyer,
  });
  await mine(await wallet.writeContract(sent.request));
  return { curve, token, seller, held: bought.result / 2n };
}

export interface Sale {
  seller: Address;
  tokensIn: bigint;
  minEthOut: bigint;
  maxGasFee: bigint;
  relayer: Address;
  nonce: Hex;
  deadline: bigint;
}

export const sale = (seller: Address, tokensIn: bigint, over: Partial<Sale> = {}): Sale => ({
  seller,
  tokensIn,
  minEthOut: 0n,
  maxGasFee: parseEther('0.01'),
  relayer: relayer.address,
  nonce: generatePrivateKey(),
  deadline: FAR,
  ...over,
});

export const signSale = (signer: LocalAccount, curve: Address, message: Sale) =>
  signer.signTypedData({
    domain: { name: 'BondingCurve', version: '1', chainId: foundry.id, verifyingContract: curve },
    types: {
      Sell: [
        { name: 'seller', type: 'address' },
        { name: 'tokensIn', type: 'uint256' },
        { name: 'minEthOut', type: 'uint256' },
        { name: 'maxGasFee', type: 'uint256' },
        { name: 'relayer', type: 'address' },
        { name: 'nonce', type: 'bytes32' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Sell',
    message,
  });

export const sellForArgs = (m: Sale, signature: Hex) =>
  [m.seller, m.tokensIn, m.minEthOut, m.maxGasFee, m.nonce, m.deadline, signature] as const;

/** Simulates sellFor at the test base fee; the error name when it reverts. */
export async function simulateSellFor(
  curve: Address,
  m: Sale,
  signature: Hex,
  account: LocalAccount = relayer,
) {
  await testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: BASE_FEE });
  return pub.simulateContract({
    address: curve,
    abi: curveCallAbi,
    functionName: 'sellFor',
    args: sellForArgs(m, signature),
    account,
    ...FEES,
  });
}

/** Mines sellFor at the test base fee, with a fixed gas limit so a revert is mined too. */
export async function sendSellFor(curve: Address, m: Sale, signature: Hex, account: LocalAccount = relayer) {
  await testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: BASE_FEE });
  const hash = await wallet.writeContract({
    address: curve,
    abi: bondingCurveAbi,
    functionName: 'sellFor',
    args: sellForArgs(m, signature),
    account,
    chain: foundry,
    gas: 400_000n,
    ...FEES,
  });
  return pub.waitForTransactionReceipt({ hash });
}

/** Everything a sale moves, but the relayer's ETH (a reverted transaction still costs it gas). */
export async function state(curve: Address, token: Address, seller: Address, nonce: Hex) {
  const curveRead = (functionName: 'reserve' | 'feesAccrued') =>
    pub.readContract({ address: curve, abi: bondingCurveAbi, functionName });
  const [reserve, feesAccrued, supply, tokens, eth, used] = await Promise.all([
    curveRead('reserve'),
    curveRead('feesAccrued'),
    pub.readContract({ address: token, abi: projectTokenAbi, functionName: 'totalSupply' }),
    pub.readContract({ address: token, abi: projectTokenAbi, functionName: 'balanceOf', args: [seller] }),
    pub.getBalance({ address: seller }),
    pub.readContract({
      address: curve,
      abi: bondingCurveAbi,
      functionName: 'sellAuthorizationUsed',
      args: [seller, nonce],
    }),
  ]);
  return { reserve, feesAccrued, supply, tokens, eth, used };
}

/** Starts anvil and deploys the factory before the file; stops anvil after. */
export function useCashOutChain(): void {
  beforeAll(async () => {
    // One worker runs several files in this module graph: every file deploys from the same salts.
    saltCounter = 0;
    ({ anvil, pub, wallet, testClient, factory } = await startFactoryAnvil(treasury.address, params, 100));
  });

  afterAll(async () => {
    await anvil?.stop();
  });
}
