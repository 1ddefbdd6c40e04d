/**
 * Cashing out without ETH: the holder signs a sale, the platform's relayer sends it and is paid its
 * gas back out of the proceeds (BondingCurve.sellFor). transferWithAuthorization is in
 * cash-out-token.chain.test.ts; random interleavings and the gas figures in cash-out-fuzz.
 */
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  type LocalAccount,
  parseEther,
  parseEventLogs,
  parseGwei,
  stringToHex,
  zeroAddress,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, anvilAccount, startAnvil } from '../src/infra/chain/anvil.ts';
import { bondingCurveAbi } from '../src/infra/chain/contracts/BondingCurve.ts';
import { projectFactoryAbi, projectFactoryBytecode } from '../src/infra/chain/contracts/ProjectFactory.ts';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';
import { type CurveParams, quoteSell } from './helpers/curve-model.ts';

const params: CurveParams = { a: 10n ** 12n, b: 10n ** 3n };
const operator = anvilAccount(0);
const buyer = anvilAccount(1);
const relayer = anvilAccount(2);
const otherRelayer = anvilAccount(3);
const treasury = anvilAccount(9);
const curveCallAbi = [...bondingCurveAbi, ...projectTokenAbi.filter((item) => item.type === 'error')];
// A 2 gwei base fee and a 0.1 gwei tip: every relayed transaction pays a real, non-zero price.
const BASE_FEE = parseGwei('2');
const FEES = { maxFeePerGas: parseGwei('3'), maxPriorityFeePerGas: parseGwei('0.1') } as const;
const FAR = 2n ** 40n;

let anvil: Anvil;
let pub: ReturnType<typeof createPublicClient>;
let wallet: ReturnType<typeof createWalletClient>;
let testClient: ReturnType<typeof createTestClient>;
let factory: Address;

async function mine(hash: Hex) {
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

async function revertName(call: Promise<unknown>): Promise<string | undefined> {
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

const paid = (r: { gasUsed: bigint; effectiveGasPrice: bigint }) => r.gasUsed * r.effectiveGasPrice;

let saltCounter = 0;
/** A fresh pair where `seller`, an account that never held ETH, holds half of a 1 ETH buy. */
async function fundedSeller() {
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

interface Sale {
  seller: Address;
  tokensIn: bigint;
  minEthOut: bigint;
  maxGasFee: bigint;
  relayer: Address;
  nonce: Hex;
  deadline: bigint;
}

const sale = (seller: Address, tokensIn: bigint, over: Partial<Sale> = {}): Sale => ({
  seller,
  tokensIn,
  minEthOut: 0n,
  maxGasFee: parseEther('0.01'),
  relayer: relayer.address,
  nonce: generatePrivateKey(),
  deadline: FAR,
  ...over,
});

const signSale = (signer: LocalAccount, curve: Address, message: Sale) =>
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

const sellForArgs = (m: Sale, signature: Hex) =>
  [m.seller, m.tokensIn, m.minEthOut, m.maxGasFee, m.nonce, m.deadline, signature] as const;

/** Simulates sellFor at the test base fee; the error name when it reverts. */
async function simulateSellFor(curve: Address, m: Sale, signature: Hex, account: LocalAccount = relayer) {
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
async function sendSellFor(curve: Address, m: Sale, signature: Hex, account: LocalAccount = relayer) {
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
async function state(curve: Address, token: Address, seller: Address, nonce: Hex) {
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

beforeAll(async () => {
  anvil = await startAnvil({});
  const common = { chain: foundry, transport: http(anvil.rpcUrl), pollingInterval: 100 } as const;
  pub = createPublicClient(common);
  wallet = createWalletClient(common);
  testClient = createTestClient({ ...common, mode: 'anvil' });
  const receipt = await mine(
    await wallet.deployContract({
      abi: projectFactoryAbi,
      bytecode: projectFactoryBytecode,
      args: [treasury.address, anvilAccount(5).address, params.a, params.b],
      account: operator,
      chain: foundry,
    }),
  );
  factory = receipt.contractAddress as Address;
});

afterAll(async () => {
  await anvil?.stop();
});

describe('BondingCurve.sellFor', () => {
  it('pays a seller without ETH the proceeds minus the gas, and the relayer what its transaction cost', async () => {
    expect(
      await pub.readContract({ address: factory, abi: projectFactoryAbi, functionName: 'VERSION' }),
    ).toBe(2n);
    const { curve, token, seller, held } = await fundedSeller();
    const m = sale(seller.address, held / 3n);
    const before = await state(curve, token, seller.address, m.nonce);
    expect(before.eth).toBe(0n);
    const expected = quoteSell(params, before.supply, m.tokensIn);
    const relayerBefore = await pub.getBalance({ address: relayer.address });

    const signature = await signSale(seller, curve, m);
    const simulated = await simulateSellFor(curve, m, signature);
    const receipt = await mine(await wallet.writeContract(simulated.request));
    const [sold] = parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs, eventName: 'Sold' });
    const [refund] = parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs, eventName: 'GasRefunded' });
    const gasFee = refund?.args.gasFee ?? 0n;
    const ethOut = expected.ethOut - gasFee;

    expect(receipt.effectiveGasPrice).toBe(BASE_FEE + FEES.maxPriorityFeePerGas);
    // A simulation prices the gas at its own block's base fee, but splits the same proceeds.
    expect(simulated.result[0] + simulated.result[1]).toBe(expected.ethOut);
    expect(refund?.args).toEqual({
      relayer: relayer.address,
      seller: seller.address,
      gasFee,
      nonce: m.nonce,
    });
    expect(sold?.args).toEqual({
      seller: seller.address,
      tokensIn: m.tokensIn,
      ethOut,
      fee: expected.fee,
      supplyAfter: before.supply - m.tokensIn,
    });
    const cost = paid(receipt);
    const error = Number(gasFee - cost) / Number(cost);
    console.log(`sellFor refund ${gasFee} wei vs paid ${cost} wei (${(error * 100).toFixed(3)}%)`);
    expect(Math.abs(error)).toBeLessThan(0.02);
    expect(await pub.getBalance({ address: relayer.address })).toBe(relayerBefore - cost + gasFee);
    expect(await state(curve, token, seller.address, m.nonce)).toEqual({
      reserve: before.reserve - expected.gross,
      feesAccrued: before.feesAccrued + expected.fee,
      supply: before.supply - m.tokensIn,
      tokens: before.tokens - m.tokensIn,
      eth: ethOut,
      used: true,
    });
  });

  it('refuses a forged, replayed, misrouted, expired or altered authorization and moves nothing', async () => {
    const { curve, token, seller, held } = await fundedSeller();
    const m = sale(seller.address, held / 4n, { minEthOut: 1n });
    const signature = await signSale(seller, curve, m);
    const latest = await pub.getBlock();
    const expired = sale(seller.address, held / 4n, { deadline: latest.timestamp - 1n });
    const cases: [string, Sale, Hex, LocalAccount][] = [
      ['InvalidSignature', m, await signSale(buyer, curve, m), relayer],
      ['InvalidSignature', m, signature, otherRelayer],
      ['AuthorizationExpired', expired, await signSale(seller, curve, expired), relayer],
      ['InvalidSignature', { ...m, tokensIn: m.tokensIn + 1n }, signature, relayer],
      ['InvalidSignature', { ...m, minEthOut: 0n }, signature, relayer],
      ['InvalidSignature', { ...m, maxGasFee: m.maxGasFee + 1n }, signature, relayer],
      ['InvalidSignature', { ...m, seller: zeroAddress }, `0x${'00'.repeat(65)}`, relayer],
      ['InvalidSignature', m, `${signature}00`, relayer],
    ];
    for (const [error, message, sig, account] of cases) {
      const before = await state(curve, token, seller.address, message.nonce);
      expect(await revertName(simulateSellFor(curve, message, sig, account))).toBe(error);
      const receipt = await sendSellFor(curve, message, sig, account);
      expect(receipt.status).toBe('reverted');
      expect(await state(curve, token, seller.address, message.nonce)).toEqual(before);
    }

    await mine(await wallet.writeContract((await simulateSellFor(curve, m, signature)).request));
    const before = await state(curve, token, seller.address, m.nonce);
    expect(await revertName(simulateSellFor(curve, m, signature))).toBe('AuthorizationAlreadyUsed');
    expect((await sendSellFor(curve, m, signature)).status).toBe('reverted');
    expect(await state(curve, token, seller.address, m.nonce)).toEqual(before);
  });

  it('reverts when the gas exceeds the proceeds or the rest misses minEthOut, and caps the refund at maxGasFee', async () => {
    const { curve, token, seller, held } = await fundedSeller();
    const tiny = sale(seller.address, 10n ** 9n);
    const before = await state(curve, token, seller.address, tiny.nonce);
    const tinySig = await signSale(seller, curve, tiny);
    expect(await revertName(simulateSellFor(curve, tiny, tinySig))).toBe('ProceedsBelowGas');
    expect((await sendSellFor(curve, tiny, tinySig)).status).toBe('reverted');
    expect(await state(curve, token, seller.address, tiny.nonce)).toEqual(before);

    const proceeds = quoteSell(params, before.supply, held / 5n).ethOut;
    const greedy = sale(seller.address, held / 5n, { minEthOut: proceeds });
    expect(await revertName(simulateSellFor(curve, greedy, await signSale(seller, curve, greedy)))).toBe(
      'SlippageEthOut',
    );

    // A cap far below the real cost: the relayer gets the cap and bears the rest.
    const capped = sale(seller.address, held / 5n, {
      maxGasFee: 10n ** 12n,
      minEthOut: proceeds - 10n ** 12n,
    });
    const sig = await signSale(seller, curve, capped);
    const receipt = await mine(
      await wallet.writeContract((await simulateSellFor(curve, capped, sig)).request),
    );
    const [refund] = parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs, eventName: 'GasRefunded' });
    expect(refund?.args.gasFee).toBe(10n ** 12n);
    expect(paid(receipt)).toBeGreaterThan(10n ** 12n);
    expect(await pub.getBalance({ address: seller.address })).toBe(proceeds - 10n ** 12n);
  });
});
