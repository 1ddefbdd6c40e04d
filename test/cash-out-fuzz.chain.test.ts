/**
 * BondingCurve.sellFor among buys and sells: random interleavings keep the curve solvent and its
 * fee ledger exact, and the gas refund matches what the relayer paid in every state a sale meets.
 * The case-by-case behaviour is in cash-out.chain.test.ts.
 */
import fc from 'fast-check';
import {
  type Address,
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
  type TransactionReceipt,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, anvilAccount, startAnvil } from '../src/infra/chain/anvil.ts';
import { bondingCurveAbi } from '../src/infra/chain/contracts/BondingCurve.ts';
import { projectFactoryAbi, projectFactoryBytecode } from '../src/infra/chain/contracts/ProjectFactory.ts';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';
import { randomRuns } from './helpers/counts.ts';
import { type CurveParams, quoteBuy, quoteSell, reserveFor } from './helpers/curve-model.ts';

const params: CurveParams = { a: 10n ** 12n, b: 10n ** 3n };
const operator = anvilAccount(0);
const alice = anvilAccount(1);
const bob = anvilAccount(2);
const holders: LocalAccount[] = [alice, bob, anvilAccount(3)];
const relayer = anvilAccount(6);
const treasury = anvilAccount(9);
const BASE_FEE = parseGwei('2');
const FEES = { maxFeePerGas: parseGwei('3'), maxPriorityFeePerGas: parseGwei('0.1') } as const;

let anvil: Anvil;
let pub: ReturnType<typeof createPublicClient>;
let wallet: ReturnType<typeof createWalletClient>;
let testClient: ReturnType<typeof createTestClient>;
let factory: Address;

async function send(hash: Hex) {
  return pub.waitForTransactionReceipt({ hash });
}
async function mine(hash: Hex) {
  const receipt = await send(hash);
  expect(receipt.status).toBe('success');
  return receipt;
}
const paid = (r: { gasUsed: bigint; effectiveGasPrice: bigint }) => r.gasUsed * r.effectiveGasPrice;
const eth = (address: Address) => pub.getBalance({ address });
const balanceOf = (token: Address, owner: Address) =>
  pub.readContract({ address: token, abi: projectTokenAbi, functionName: 'balanceOf', args: [owner] });
const curveRead = (curve: Address, functionName: 'reserve' | 'feesAccrued') =>
  pub.readContract({ address: curve, abi: bondingCurveAbi, functionName });
const supplyOf = (token: Address) =>
  pub.readContract({ address: token, abi: projectTokenAbi, functionName: 'totalSupply' });

let saltCounter = 0;
async function deployPair() {
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
const from = (account: LocalAccount) => ({ account, chain: foundry, gas: 300_000n });
const buyTx = (account: LocalAccount, curve: Address, value: bigint) =>
  wallet.writeContract({
    ...from(account),
    address: curve,
    abi: bondingCurveAbi,
    functionName: 'buy',
    args: [0n],
    value,
  });
const sellTx = (account: LocalAccount, curve: Address, tokensIn: bigint) =>
  wallet.writeContract({
    ...from(account),
    address: curve,
    abi: bondingCurveAbi,
    functionName: 'sell',
    args: [tokensIn, 0n],
  });
const transferTx = (account: LocalAccount, token: Address, to: Address, value: bigint) =>
  wallet.writeContract({
    ...from(account),
    address: token,
    abi: projectTokenAbi,
    functionName: 'transfer',
    args: [to, value],
  });

/** Signs and relays a sale of tokensIn at the test base fee; mined even when it reverts. */
async function relaySale(curve: Address, seller: LocalAccount, tokensIn: bigint, maxGasFee: bigint) {
  const m = { seller: seller.address, tokensIn, minEthOut: 0n, maxGasFee, relayer: relayer.address };
  const nonce = generatePrivateKey();
  const signature = await seller.signTypedData({
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
    message: { ...m, nonce, deadline: 2n ** 40n },
  });
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

const eventFees = (receipt: TransactionReceipt) =>
  parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs }).reduce(
    (sum, e) => sum + (e.eventName === 'Bought' || e.eventName === 'Sold' ? e.args.fee : 0n),
    0n,
  );

beforeAll(async () => {
  anvil = await startAnvil({});
  const common = { chain: foundry, transport: http(anvil.rpcUrl), pollingInterval: 50 } as const;
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
  for (const a of [...holders, relayer])
    await testClient.setBalance({ address: a.address, value: parseEther('10000') });
});

afterAll(async () => {
  await anvil?.stop();
});

describe('BondingCurve solvency with sellFor', () => {
  type Op =
    | { kind: 'buy'; who: number; value: bigint }
    | { kind: 'sell'; who: number; permille: bigint }
    | { kind: 'sellFor'; who: number; permille: bigint; maxGasFee: bigint };
  const who = fc.integer({ min: 0, max: holders.length - 1 });
  const permille = fc.bigInt({ min: 1n, max: 1000n });
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      kind: fc.constant('buy' as const),
      who,
      value: fc.bigInt({ min: 1n, max: parseEther('400') }),
    }),
    fc.record({ kind: fc.constant('sell' as const), who, permille }),
    fc.record({
      kind: fc.constant('sellFor' as const),
      who,
      permille,
      // No refund at all, a cap below the real cost, or room to spare.
      maxGasFee: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.constant(10n ** 16n)),
    }),
  );

  it('keeps reserve >= R(supply) and feesAccrued == the fees in the events, and every holder can sell out', async () => {
    const { curve, token } = await deployPair();
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
        const snapshot = await testClient.snapshot();
        // The model's reserve and the fee ledger summed from the events, from the empty curve.
        let reserve = 0n;
        let fees = 0n;
        const check = async () => {
          const [r, f, supply, balance] = await Promise.all([
            curveRead(curve, 'reserve'),
            curveRead(curve, 'feesAccrued'),
            supplyOf(token),
            eth(curve),
          ]);
          expect([r, f, balance]).toEqual([reserve, fees, reserve + fees]);
          expect(r).toBeGreaterThanOrEqual(reserveFor(params, supply));
          return supply;
        };
        /** Relays a sale; false when the proceeds could not cover the gas (then nothing moved). */
        const sellFor = async (seller: LocalAccount, tokensIn: bigint, maxGasFee: bigint) => {
          const expected = quoteSell(params, await supplyOf(token), tokensIn);
          const [sellerEth, relayerEth] = await Promise.all([eth(seller.address), eth(relayer.address)]);
          const receipt = await relaySale(curve, seller, tokensIn, maxGasFee);
          if (receipt.status === 'reverted') {
            // ProceedsBelowGas: gasFee > proceeds, and gasFee <= maxGasFee.
            expect(expected.ethOut).toBeLessThan(maxGasFee);
            return false;
          }
          const [refund] = parseEventLogs({
            abi: bondingCurveAbi,
            logs: receipt.logs,
            eventName: 'GasRefunded',
          });
          const gasFee = refund?.args.gasFee ?? -1n;
          const cost = paid(receipt);
          expect(gasFee).toBeLessThanOrEqual(maxGasFee);
          if (gasFee < maxGasFee) expect(Math.abs(Number(gasFee - cost))).toBeLessThan(Number(cost) / 50);
          expect(await eth(seller.address)).toBe(sellerEth + expected.ethOut - gasFee);
          expect(await eth(relayer.address)).toBe(relayerEth - cost + gasFee);
          expect(eventFees(receipt)).toBe(expected.fee);
          reserve -= expected.gross;
          fees += eventFees(receipt);
          return true;
        };
        try {
          for (const op of ops) {
            const trader = holders[op.who] as LocalAccount;
            const supply = await supplyOf(token);
            if (op.kind === 'buy') {
              const expected = quoteBuy(params, supply, op.value);
              const receipt = await send(await buyTx(trader, curve, op.value));
              expect(receipt.status).toBe(expected && expected.tokensOut > 0n ? 'success' : 'reverted');
              if (!expected || receipt.status === 'reverted') continue;
              expect(eventFees(receipt)).toBe(expected.fee);
              reserve += expected.net;
              fees += eventFees(receipt);
            } else {
              const tokensIn = ((await balanceOf(token, trader.address)) * op.permille) / 1000n;
              if (tokensIn === 0n) continue;
              if (op.kind === 'sellFor') {
                await sellFor(trader, tokensIn, op.maxGasFee);
              } else {
                const receipt = await mine(await sellTx(trader, curve, tokensIn));
                reserve -= quoteSell(params, supply, tokensIn).gross;
                fees += eventFees(receipt);
              }
            }
            await check();
          }
          // Selling out: relayed where the proceeds cover the gas, directly otherwise.
          for (const trader of holders) {
            const held = await balanceOf(token, trader.address);
            if (held === 0n || (await sellFor(trader, held, 10n ** 16n))) continue;
            const supply = await supplyOf(token);
            fees += eventFees(await mine(await sellTx(trader, curve, held)));
            reserve -= quoteSell(params, supply, held).gross;
          }
          expect(await check()).toBe(0n);
        } finally {
          await testClient.revert({ id: snapshot });
        }
      }),
      // 10 runs on every push, 25 with TEST_FULL=1 (helpers/counts.ts); fast-check prints the seed on a failure.
      { numRuns: randomRuns('CASH_OUT_RUNS', 10, 25) },
    );
  });
});

describe('sellFor gas', () => {
  it('refunds the gas paid within 1% whatever state the sale meets, and costs this much more than sell', async () => {
    const { curve, token } = await deployPair();
    const bought = quoteBuy(params, 0n, parseEther('1'))?.tokensOut ?? 0n;
    await mine(await buyTx(alice, curve, parseEther('1')));
    const seller = privateKeyToAccount(generatePrivateKey());
    const latecomer = privateKeyToAccount(generatePrivateKey());
    await mine(await transferTx(alice, token, seller.address, bought / 4n));
    await mine(await transferTx(alice, token, bob.address, bought / 4n));

    // The same sale, partial and by a holder with ETH, sent directly and relayed.
    const direct = await mine(await sellTx(bob, curve, bought / 16n));
    const relayed = await relaySale(curve, bob, bought / 16n, 10n ** 16n);
    console.log(`gas: sell ${direct.gasUsed}, sellFor ${relayed.gasUsed}`);
    expect(relayed.gasUsed - direct.gasUsed).toBeGreaterThan(20_000n);
    expect(relayed.gasUsed - direct.gasUsed).toBeLessThan(60_000n);
    await mine(await sellTx(bob, curve, await balanceOf(token, bob.address)));
    await mine(await transferTx(alice, token, latecomer.address, await balanceOf(token, alice.address)));

    // Each case meets different storage: a seller account the payment creates or one already there,
    // a balance or the whole supply cleared (refunded to the relayer at the end of the transaction).
    const cases: [string, LocalAccount, bigint | 'all'][] = [
      ['new seller account, part of the balance', seller, bought / 16n],
      ['existing seller account, part of the balance', seller, bought / 16n],
      ['existing seller account, whole balance', seller, 'all'],
      ['new seller account, whole remaining supply', latecomer, 'all'],
    ];
    for (const [what, holder, amount] of cases) {
      const tokensIn = amount === 'all' ? await balanceOf(token, holder.address) : amount;
      const receipt = await relaySale(curve, holder, tokensIn, 10n ** 16n);
      expect(receipt.status).toBe('success');
      const [refund] = parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs, eventName: 'GasRefunded' });
      const charged = (refund?.args.gasFee ?? 0n) / receipt.effectiveGasPrice;
      console.log(`sellFor, ${what}: gasUsed ${receipt.gasUsed}, refunded for ${charged} gas`);
      expect(Math.abs(Number(charged - receipt.gasUsed))).toBeLessThan(Number(receipt.gasUsed) / 100);
    }
    expect(await supplyOf(token)).toBe(0n);
  });
});
