import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeErrorResult,
  getContractAddress,
  type Hex,
  http,
  isHex,
  type LocalAccount,
  parseEther,
  parseEventLogs,
  parseSignature,
  stringToHex,
  zeroAddress,
} from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, anvilAccount, catchesSigterm, startAnvil } from '../src/infra/chain/anvil.ts';
import { bondingCurveAbi } from '../src/infra/chain/contracts/BondingCurve.ts';
import { payoutRouterAbi, payoutRouterBytecode } from '../src/infra/chain/contracts/PayoutRouter.ts';
import { projectFactoryAbi, projectFactoryBytecode } from '../src/infra/chain/contracts/ProjectFactory.ts';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';
import { randomRuns } from './helpers/counts.ts';
import {
  type CurveParams,
  feeOf,
  MAX_SUPPLY,
  quoteBuy,
  quoteSell,
  reserveFor,
} from './helpers/curve-model.ts';

const params: CurveParams = { a: 10n ** 12n, b: 10n ** 3n };
const operator = anvilAccount(0);
const alice = anvilAccount(1);
const bob = anvilAccount(2);
const carol = anvilAccount(3);
const outsider = anvilAccount(4);
const payoutKey = anvilAccount(5);
const treasury = anvilAccount(9);
const tokenErrors = projectTokenAbi.filter((item) => item.type === 'error');
// A sell bubbles the token's ERC-20 errors up through the curve; both are needed to decode them.
const curveCallAbi = [...bondingCurveAbi, ...tokenErrors];
// The router bubbles them up from its transferFroms the same way.
const routerCallAbi = [...payoutRouterAbi, ...tokenErrors];

let anvil: Anvil;
let clients: ReturnType<typeof connect>;
let factory: Address;

function connect(rpcUrl: string) {
  const transport = http(rpcUrl);
  const common = { chain: foundry, transport, pollingInterval: 100 } as const;
  return {
    pub: createPublicClient(common),
    wallet: createWalletClient(common),
    test: createTestClient({ ...common, mode: 'anvil' }),
  };
}

async function mine(hash: Hex) {
  const receipt = await clients.pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

/**
 * The custom error a call reverted with; fails the test if it did not revert. `abi` decodes raw
 * revert data where viem has no contract ABI at hand (deployments).
 */
async function revertName(call: Promise<unknown>, abi?: Abi): Promise<string | undefined> {
  try {
    await call;
  } catch (err) {
    if (!(err instanceof BaseError)) throw err;
    const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError) return reverted.data?.errorName;
    const raw = err.walk((e) => isHex((e as { data?: unknown }).data));
    const data = (raw as { data?: Hex } | null)?.data;
    if (abi && data) return decodeErrorResult({ abi, data }).errorName;
    throw err;
  }
  throw new Error('expected the call to revert');
}

let saltCounter = 0;
const nextSalt = () => stringToHex(`project-${++saltCounter}`, { size: 32 });

async function deployPair(salt: Hex, name = 'Widget', symbol = 'WDG') {
  const { result, request } = await clients.pub.simulateContract({
    address: factory,
    abi: projectFactoryAbi,
    functionName: 'deploy',
    args: [salt, name, symbol],
    account: operator,
  });
  const receipt = await mine(await clients.wallet.writeContract(request));
  return { curve: result[0], token: result[1], receipt };
}

async function read(curve: Address, token: Address, holders: LocalAccount[] = []) {
  const [supply, reserve, feesAccrued, balance, ...balances] = await Promise.all([
    clients.pub.readContract({ address: token, abi: projectTokenAbi, functionName: 'totalSupply' }),
    clients.pub.readContract({ address: curve, abi: bondingCurveAbi, functionName: 'reserve' }),
    clients.pub.readContract({ address: curve, abi: bondingCurveAbi, functionName: 'feesAccrued' }),
    clients.pub.getBalance({ address: curve }),
    ...holders.map((h) =>
      clients.pub.readContract({
        address: token,
        abi: projectTokenAbi,
        functionName: 'balanceOf',
        args: [h.address],
      }),
    ),
  ]);
  return { supply, reserve, feesAccrued, balance, balances };
}

function simulateBuy(curve: Address, buyer: LocalAccount, value: bigint, minTokensOut = 0n) {
  return clients.pub.simulateContract({
    address: curve,
    abi: bondingCurveAbi,
    functionName: 'buy',
    args: [minTokensOut],
    value,
    account: buyer,
  });
}

function simulateSell(curve: Address, seller: LocalAccount, tokensIn: bigint, minEthOut = 0n) {
  return clients.pub.simulateContract({
    address: curve,
    abi: curveCallAbi,
    functionName: 'sell',
    args: [tokensIn, minEthOut],
    account: seller,
  });
}

async function buy(curve: Address, buyer: LocalAccount, value: bigint, minTokensOut = 0n) {
  const { result, request } = await simulateBuy(curve, buyer, value, minTokensOut);
  const receipt = await mine(await clients.wallet.writeContract(request));
  return { tokensOut: result, receipt };
}

async function sell(curve: Address, seller: LocalAccount, tokensIn: bigint, minEthOut = 0n) {
  const { result, request } = await simulateSell(curve, seller, tokensIn, minEthOut);
  const receipt = await mine(await clients.wallet.writeContract(request));
  return { ethOut: result, receipt };
}

const gasCost = (r: { gasUsed: bigint; effectiveGasPrice: bigint }) => r.gasUsed * r.effectiveGasPrice;

beforeAll(async () => {
  anvil = await startAnvil({});
  clients = connect(anvil.rpcUrl);
  const hash = await clients.wallet.deployContract({
    abi: projectFactoryAbi,
    bytecode: projectFactoryBytecode,
    args: [treasury.address, payoutKey.address, params.a, params.b],
    account: operator,
  });
  const receipt = await mine(hash);
  if (!receipt.contractAddress) throw new Error('factory deployment returned no address');
  factory = receipt.contractAddress;
});

afterAll(async () => {
  await anvil?.stop();
});

describe('ProjectFactory', () => {
  it('deploys a curve and its token at the predicted addresses', async () => {
    const salt = nextSalt();
    const predicted = await clients.pub.readContract({
      address: factory,
      abi: projectFactoryAbi,
      functionName: 'predictCurve',
      args: [salt, 'Widget', 'WDG'],
    });
    const { curve, token, receipt } = await deployPair(salt);

    expect(curve).toBe(predicted);
    // The curve's first CREATE, so the token address follows from the curve's.
    expect(token).toBe(getContractAddress({ from: curve, nonce: 1n }));
    const [event] = parseEventLogs({
      abi: projectFactoryAbi,
      logs: receipt.logs,
      eventName: 'ProjectDeployed',
    });
    expect(event?.args).toEqual({ salt, curve, token, name: 'Widget', symbol: 'WDG' });

    const curveRead = (functionName: 'token' | 'treasury' | 'a' | 'b') =>
      clients.pub.readContract({ address: curve, abi: bondingCurveAbi, functionName });
    expect(await curveRead('token')).toBe(token);
    expect(await curveRead('treasury')).toBe(treasury.address);
    expect(await curveRead('a')).toBe(params.a);
    expect(await curveRead('b')).toBe(params.b);
    const tokenRead = (functionName: 'name' | 'symbol' | 'decimals' | 'curve' | 'totalSupply') =>
      clients.pub.readContract({ address: token, abi: projectTokenAbi, functionName });
    expect(await tokenRead('name')).toBe('Widget');
    expect(await tokenRead('symbol')).toBe('WDG');
    expect(await tokenRead('decimals')).toBe(18);
    expect(await tokenRead('curve')).toBe(curve);
    expect(await tokenRead('totalSupply')).toBe(0n);
  });

  it('returns the existing pair when a salt is deployed again, without deploying anything', async () => {
    const salt = nextSalt();
    const first = await deployPair(salt);
    const again = await deployPair(salt, 'Other', 'OTH');

    expect([again.curve, again.token]).toEqual([first.curve, first.token]);
    expect(again.receipt.logs).toEqual([]);
    expect(
      await clients.pub.readContract({
        address: factory,
        abi: projectFactoryAbi,
        functionName: 'curveOf',
        args: [salt],
      }),
    ).toBe(first.curve);
    const otherInitCodeAddress = await clients.pub.readContract({
      address: factory,
      abi: projectFactoryAbi,
      functionName: 'predictCurve',
      args: [salt, 'Other', 'OTH'],
    });
    expect(await clients.pub.getCode({ address: otherInitCodeAddress })).toBeUndefined();
  });

  it('lets only the owner deploy', async () => {
    const call = clients.pub.simulateContract({
      address: factory,
      abi: projectFactoryAbi,
      functionName: 'deploy',
      args: [nextSalt(), 'Widget', 'WDG'],
      account: outsider,
    });
    expect(await revertName(call)).toBe('OwnableUnauthorizedAccount');
  });

  it('refuses curve parameters that could overflow or give tokens away', async () => {
    for (const [a, b] of [
      [0n, 0n],
      [10n ** 20n + 1n, 0n],
      [10n ** 12n, 10n ** 11n + 1n],
    ] as const) {
      const deploy = clients.wallet.deployContract({
        abi: projectFactoryAbi,
        bytecode: projectFactoryBytecode,
        args: [treasury.address, payoutKey.address, a, b],
        account: operator,
      });
      expect(await revertName(deploy, projectFactoryAbi)).toBe('InvalidParameters');
    }
  });
});

describe('BondingCurve buy', () => {
  it('mints exactly what the model says and keeps the fee apart from the reserve', async () => {
    const { curve, token } = await deployPair(nextSalt());
    const value = parseEther('1');
    const expected = quoteBuy(params, 0n, value);
    if (!expected) throw new Error('model says 1 ETH exceeds max supply');
    expect(
      await clients.pub.readContract({
        address: curve,
        abi: bondingCurveAbi,
        functionName: 'quoteBuy',
        args: [value],
      }),
    ).toEqual([expected.tokensOut, expected.fee]);

    const ethBefore = await clients.pub.getBalance({ address: alice.address });
    const { tokensOut, receipt } = await buy(curve, alice, value);
    expect(tokensOut).toBe(expected.tokensOut);
    expect(expected.fee).toBe(parseEther('0.01'));
    expect(await clients.pub.getBalance({ address: alice.address })).toBe(
      ethBefore - value - gasCost(receipt),
    );
    const state = await read(curve, token, [alice]);
    expect(state).toMatchObject({
      supply: tokensOut,
      feesAccrued: expected.fee,
      reserve: value - expected.fee,
    });
    expect(state.balances).toEqual([tokensOut]);
    const [event] = parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs, eventName: 'Bought' });
    expect(event?.args).toEqual({
      buyer: alice.address,
      ethIn: value,
      fee: expected.fee,
      tokensOut,
      supplyAfter: tokensOut,
    });

    // A second buy at a non-zero supply, with an amount that leaves dust in the reserve.
    const value2 = parseEther('0.37') + 12_345n;
    const expected2 = quoteBuy(params, state.supply, value2);
    if (!expected2) throw new Error('model says the second buy exceeds max supply');
    const second = await buy(curve, bob, value2);
    expect(second.tokensOut).toBe(expected2.tokensOut);
    const after = await read(curve, token);
    expect(after.feesAccrued).toBe(expected.fee + expected2.fee);
    expect(after.reserve).toBe(value - expected.fee + expected2.net);
    expect(after.reserve).toBeGreaterThanOrEqual(reserveFor(params, after.supply));
  });

  it('reverts below minTokensOut and on a payment too small to mint anything', async () => {
    const { curve } = await deployPair(nextSalt());
    const value = parseEther('0.5');
    const expected = quoteBuy(params, 0n, value);
    if (!expected) throw new Error('unexpected model result');
    expect(await revertName(simulateBuy(curve, alice, value, expected.tokensOut + 1n))).toBe(
      'SlippageTokensOut',
    );
    expect(await revertName(simulateBuy(curve, alice, 0n))).toBe('ZeroAmount');
    const { tokensOut } = await buy(curve, alice, value, expected.tokensOut);
    expect(tokensOut).toBe(expected.tokensOut);
  });

  it('sells up to MAX_SUPPLY and not one wei further', async () => {
    const { curve, token } = await deployPair(nextSalt());
    await clients.test.setBalance({ address: carol.address, value: parseEther('5000') });
    await buy(curve, carol, parseEther('10'));
    const { supply } = await read(curve, token);
    expect(await revertName(simulateBuy(curve, carol, parseEther('2000')))).toBe('ExceedsMaxSupply');

    // The largest net payment that keeps the supply within MAX_SUPPLY takes the reserve to
    // R(MAX_SUPPLY + 1) - 1; floors can make R(MAX_SUPPLY + 1) == R(MAX_SUPPLY), so the supply then
    // stops less than one wei's worth of tokens short of the cap.
    const net = reserveFor(params, MAX_SUPPLY + 1n) - 1n - reserveFor(params, supply);
    let value = (net * 100n) / 99n - 2n;
    for (let i = 0; i < 10 && value - feeOf(value) < net; i++) value += 1n;
    expect(value - feeOf(value)).toBe(net);
    const expected = quoteBuy(params, supply, value);
    if (!expected) throw new Error('model says the largest buy exceeds max supply');
    await buy(curve, carol, value);
    const full = (await read(curve, token)).supply;
    expect(full).toBe(supply + expected.tokensOut);
    expect(full).toBeLessThanOrEqual(MAX_SUPPLY);
    expect(reserveFor(params, MAX_SUPPLY) - reserveFor(params, full)).toBeLessThanOrEqual(1n);
    expect(await revertName(simulateBuy(curve, carol, 1n))).toBe('ExceedsMaxSupply');
  });
});

describe('BondingCurve sell', () => {
  it('pays exactly the model value minus the fee and burns the tokens', async () => {
    const { curve, token } = await deployPair(nextSalt());
    await buy(curve, alice, parseEther('2'));
    await buy(curve, bob, parseEther('1'));
    const before = await read(curve, token, [alice]);
    const tokensIn = (before.balances[0] ?? 0n) / 3n;
    const expected = quoteSell(params, before.supply, tokensIn);
    expect(
      await clients.pub.readContract({
        address: curve,
        abi: bondingCurveAbi,
        functionName: 'quoteSell',
        args: [tokensIn],
      }),
    ).toEqual([expected.ethOut, expected.fee]);

    const ethBefore = await clients.pub.getBalance({ address: alice.address });
    const { ethOut, receipt } = await sell(curve, alice, tokensIn);
    expect(ethOut).toBe(expected.ethOut);
    expect(await clients.pub.getBalance({ address: alice.address })).toBe(
      ethBefore + ethOut - gasCost(receipt),
    );
    const after = await read(curve, token, [alice]);
    expect(after.supply).toBe(before.supply - tokensIn);
    expect(after.balances).toEqual([(before.balances[0] ?? 0n) - tokensIn]);
    expect(after.feesAccrued).toBe(before.feesAccrued + expected.fee);
    expect(after.reserve).toBe(before.reserve - expected.gross);
    const [event] = parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs, eventName: 'Sold' });
    expect(event?.args).toEqual({
      seller: alice.address,
      tokensIn,
      ethOut,
      fee: expected.fee,
      supplyAfter: after.supply,
    });
  });

  it('reverts below minEthOut, on zero, and beyond the seller balance', async () => {
    const { curve, token } = await deployPair(nextSalt());
    await buy(curve, alice, parseEther('1'));
    await buy(curve, bob, parseEther('1'));
    const { supply, balances } = await read(curve, token, [alice]);
    const held = balances[0] ?? 0n;
    const expected = quoteSell(params, supply, held);
    expect(await revertName(simulateSell(curve, alice, held, expected.ethOut + 1n))).toBe('SlippageEthOut');
    expect(await revertName(simulateSell(curve, alice, 0n))).toBe('ZeroAmount');
    expect(await revertName(simulateSell(curve, alice, held + 1n))).toBe('ERC20InsufficientBalance');
    expect(await revertName(simulateSell(curve, alice, supply + 1n))).toBe('ExceedsSupply');
    expect((await sell(curve, alice, held, expected.ethOut)).ethOut).toBe(expected.ethOut);
  });
});

describe('ProjectToken', () => {
  it('lets only its curve mint and burn', async () => {
    const { curve, token } = await deployPair(nextSalt());
    await buy(curve, alice, parseEther('0.1'));
    const mint = clients.pub.simulateContract({
      address: token,
      abi: projectTokenAbi,
      functionName: 'mint',
      args: [outsider.address, 1n],
      account: outsider,
    });
    expect(await revertName(mint)).toBe('OnlyCurve');
    const burn = clients.pub.simulateContract({
      address: token,
      abi: projectTokenAbi,
      functionName: 'burn',
      args: [alice.address, 1n],
      account: alice,
    });
    expect(await revertName(burn)).toBe('OnlyCurve');
  });

  it('accepts an EIP-2612 permit so the spender can transferFrom', async () => {
    const { curve, token } = await deployPair(nextSalt(), 'Permit Token', 'PMT');
    await buy(curve, alice, parseEther('0.2'));
    const value = 1_000n * 10n ** 18n;
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
    const nonce = await clients.pub.readContract({
      address: token,
      abi: projectTokenAbi,
      functionName: 'nonces',
      args: [alice.address],
    });
    const signPermit = (signer: LocalAccount) =>
      signer.signTypedData({
        domain: { name: 'Permit Token', version: '1', chainId: foundry.id, verifyingContract: token },
        types: {
          Permit: [
            { name: 'owner', type: 'address' },
            { name: 'spender', type: 'address' },
            { name: 'value', type: 'uint256' },
            { name: 'nonce', type: 'uint256' },
            { name: 'deadline', type: 'uint256' },
          ],
        },
        primaryType: 'Permit',
        message: { owner: alice.address, spender: bob.address, value, nonce, deadline },
      });
    const permitCall = (signature: Hex) => {
      const { r, s, v, yParity } = parseSignature(signature);
      return clients.pub.simulateContract({
        address: token,
        abi: projectTokenAbi,
        functionName: 'permit',
        args: [alice.address, bob.address, value, deadline, Number(v ?? BigInt(yParity) + 27n), r, s],
        account: bob,
      });
    };

    expect(await revertName(permitCall(await signPermit(carol)))).toBe('ERC2612InvalidSigner');
    const signature = await signPermit(alice);
    await mine(await clients.wallet.writeContract((await permitCall(signature)).request));
    expect(
      await clients.pub.readContract({
        address: token,
        abi: projectTokenAbi,
        functionName: 'allowance',
        args: [alice.address, bob.address],
      }),
    ).toBe(value);

    const { request } = await clients.pub.simulateContract({
      address: token,
      abi: projectTokenAbi,
      functionName: 'transferFrom',
      args: [alice.address, carol.address, value],
      account: bob,
    });
    await mine(await clients.wallet.writeContract(request));
    expect(
      await clients.pub.readContract({
        address: token,
        abi: projectTokenAbi,
        functionName: 'balanceOf',
        args: [carol.address],
      }),
    ).toBe(value);
    // The nonce moved on, so the same signature cannot grant the allowance twice.
    expect(await revertName(permitCall(signature))).toBe('ERC2612InvalidSigner');
  });
});

describe('PayoutRouter', () => {
  const UNIT = 10n ** 18n;
  const routerOf = () =>
    clients.pub.readContract({ address: factory, abi: projectFactoryAbi, functionName: 'payoutRouter' });
  const balanceOf = (token: Address, owner: Address) =>
    clients.pub.readContract({
      address: token,
      abi: projectTokenAbi,
      functionName: 'balanceOf',
      args: [owner],
    });
  const allowanceOf = (token: Address, owner: Address, spender: Address) =>
    clients.pub.readContract({
      address: token,
      abi: projectTokenAbi,
      functionName: 'allowance',
      args: [owner, spender],
    });

  /** A token alice holds `held` of (bought on its curve, the rest sent away), with `allowance` for the router. */
  async function funded(held: bigint, allowance: bigint) {
    const { curve, token } = await deployPair(nextSalt());
    const { tokensOut } = await buy(curve, alice, parseEther('0.5'));
    if (tokensOut < held) throw new Error('bought too few tokens for the case');
    const { request: away } = await clients.pub.simulateContract({
      address: token,
      abi: projectTokenAbi,
      functionName: 'transfer',
      args: [bob.address, tokensOut - held],
      account: alice,
    });
    await mine(await clients.wallet.writeContract(away));
    const router = await routerOf();
    const { request } = await clients.pub.simulateContract({
      address: token,
      abi: projectTokenAbi,
      functionName: 'approve',
      args: [router, allowance],
      account: alice,
    });
    await mine(await clients.wallet.writeContract(request));
    return { token, router };
  }

  /** What the founder, contributor, treasury and router hold of the token, and the router's ETH. */
  async function holdings(token: Address, router: Address) {
    const [founder, contributor, fees, routerTokens, routerEth] = await Promise.all([
      balanceOf(token, alice.address),
      balanceOf(token, carol.address),
      balanceOf(token, treasury.address),
      balanceOf(token, router),
      clients.pub.getBalance({ address: router }),
    ]);
    return { founder, contributor, fees, routerTokens, routerEth };
  }

  const pay = (
    router: Address,
    token: Address,
    amount: bigint,
    fee: bigint,
    account = payoutKey,
    to = carol.address,
  ) =>
    clients.pub.simulateContract({
      address: router,
      abi: routerCallAbi,
      functionName: 'pay',
      args: [token, alice.address, to, amount, fee],
      account,
    });

  it('is deployed by the factory with the payout key as payer and the factory treasury', async () => {
    const router = await routerOf();
    expect((await clients.pub.getCode({ address: router }))?.length ?? 0).toBeGreaterThan(2);
    const routerRead = (functionName: 'payer' | 'treasury') =>
      clients.pub.readContract({ address: router, abi: payoutRouterAbi, functionName });
    expect(await routerRead('payer')).toBe(payoutKey.address);
    expect(await routerRead('treasury')).toBe(treasury.address);
    expect(
      await clients.pub.readContract({ address: factory, abi: projectFactoryAbi, functionName: 'treasury' }),
    ).toBe(treasury.address);
  });

  it('refuses a zero payer or treasury, and so does the factory', async () => {
    for (const args of [
      [zeroAddress, treasury.address],
      [payoutKey.address, zeroAddress],
    ] as const) {
      const deploy = clients.wallet.deployContract({
        abi: payoutRouterAbi,
        bytecode: payoutRouterBytecode,
        args,
        account: operator,
      });
      expect(await revertName(deploy, payoutRouterAbi)).toBe('ZeroAddress');
    }
    const factoryDeploy = clients.wallet.deployContract({
      abi: projectFactoryAbi,
      bytecode: projectFactoryBytecode,
      args: [treasury.address, zeroAddress, params.a, params.b],
      account: operator,
    });
    expect(await revertName(factoryDeploy, payoutRouterAbi)).toBe('ZeroAddress');
  });

  it('pays the reward and the fee from the founder in one transaction', async () => {
    const amount = 95n * UNIT;
    const fee = 5n * UNIT;
    const { token, router } = await funded(150n * UNIT, 120n * UNIT);
    const before = await holdings(token, router);
    const { request } = await pay(router, token, amount, fee);
    const receipt = await mine(await clients.wallet.writeContract(request));

    expect(await holdings(token, router)).toEqual({
      founder: before.founder - amount - fee,
      contributor: before.contributor + amount,
      fees: before.fees + fee,
      routerTokens: 0n,
      routerEth: 0n,
    });
    expect(await allowanceOf(token, alice.address, router)).toBe(120n * UNIT - amount - fee);
    const transfers = parseEventLogs({ abi: projectTokenAbi, logs: receipt.logs, eventName: 'Transfer' });
    expect(transfers.map((t) => t.args)).toEqual([
      { from: alice.address, to: carol.address, value: amount },
      { from: alice.address, to: treasury.address, value: fee },
    ]);
    const [paid] = parseEventLogs({ abi: payoutRouterAbi, logs: receipt.logs, eventName: 'Paid' });
    expect(paid?.args).toEqual({ token, from: alice.address, to: carol.address, amount, fee });
  });

  it('makes no fee transfer when the fee is zero', async () => {
    const { token, router } = await funded(10n * UNIT, 10n * UNIT);
    const { request } = await pay(router, token, 10n * UNIT, 0n);
    const receipt = await mine(await clients.wallet.writeContract(request));
    const transfers = parseEventLogs({ abi: projectTokenAbi, logs: receipt.logs, eventName: 'Transfer' });
    expect(transfers.map((t) => t.args)).toEqual([
      { from: alice.address, to: carol.address, value: 10n * UNIT },
    ]);
    expect((await holdings(token, router)).founder).toBe(0n);
  });

  it('lets only the payer call pay: not the founder, the factory owner or anyone else', async () => {
    const { token, router } = await funded(100n * UNIT, 100n * UNIT);
    const before = await holdings(token, router);
    for (const account of [outsider, alice, operator, carol]) {
      expect(await revertName(pay(router, token, UNIT, UNIT, account))).toBe('NotPayer');
    }
    expect(await holdings(token, router)).toEqual(before);
  });

  it('refuses a zero recipient', async () => {
    const { token, router } = await funded(100n * UNIT, 100n * UNIT);
    expect(await revertName(pay(router, token, UNIT, UNIT, payoutKey, zeroAddress))).toBe('ZeroAddress');
  });

  it('moves neither transfer when the allowance or the balance covers the amount but not amount + fee', async () => {
    const amount = 95n * UNIT;
    const fee = 5n * UNIT;
    for (const [held, allowance, error] of [
      [200n * UNIT, amount + fee - 1n, 'ERC20InsufficientAllowance'],
      [amount + fee - 1n, 200n * UNIT, 'ERC20InsufficientBalance'],
    ] as const) {
      const { token, router } = await funded(held, allowance);
      expect(await revertName(pay(router, token, amount, fee))).toBe(error);

      // Mined anyway (a fixed gas limit skips the estimate, as the service signs): the whole call
      // reverts, the reward transfer that would have succeeded included.
      const before = await holdings(token, router);
      const hash = await clients.wallet.writeContract({
        address: router,
        abi: payoutRouterAbi,
        functionName: 'pay',
        args: [token, alice.address, carol.address, amount, fee],
        account: payoutKey,
        gas: 200_000n,
      });
      const receipt = await clients.pub.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('reverted');
      expect(receipt.logs).toEqual([]);
      expect(await holdings(token, router)).toEqual(before);
      expect(await allowanceOf(token, alice.address, router)).toBe(allowance);
    }
  });

  it('accepts no ETH', async () => {
    const router = await routerOf();
    const send = clients.wallet.sendTransaction({ to: router, value: 1n, account: outsider });
    await expect(send).rejects.toThrow(/revert/i);
    const data = '0xdeadbeef' as Hex;
    await expect(
      clients.wallet.sendTransaction({ to: router, value: 1n, data, account: outsider }),
    ).rejects.toThrow(/revert/i);
    expect(await clients.pub.getBalance({ address: router })).toBe(0n);
  });
});

describe('BondingCurve fees', () => {
  it('withdrawFees pays the treasury exactly feesAccrued and leaves the reserve alone', async () => {
    const { curve, token } = await deployPair(nextSalt());
    await buy(curve, alice, parseEther('3'));
    const { balances } = await read(curve, token, [alice]);
    await sell(curve, alice, (balances[0] ?? 0n) / 2n);
    const before = await read(curve, token);
    expect(before.feesAccrued).toBeGreaterThan(0n);
    const treasuryBefore = await clients.pub.getBalance({ address: treasury.address });

    // Called by an outsider: the treasury is fixed, so anyone may trigger the transfer.
    const { result, request } = await clients.pub.simulateContract({
      address: curve,
      abi: bondingCurveAbi,
      functionName: 'withdrawFees',
      account: outsider,
    });
    const receipt = await mine(await clients.wallet.writeContract(request));
    expect(result).toBe(before.feesAccrued);
    expect(await clients.pub.getBalance({ address: treasury.address })).toBe(
      treasuryBefore + before.feesAccrued,
    );
    const [event] = parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs, eventName: 'FeesWithdrawn' });
    expect(event?.args).toEqual({ treasury: treasury.address, amount: before.feesAccrued });
    const after = await read(curve, token);
    expect(after).toMatchObject({ feesAccrued: 0n, reserve: before.reserve, balance: before.reserve });
  });
});

describe('BondingCurve solvency', () => {
  type Op = { kind: 'buy'; who: number; value: bigint } | { kind: 'sell'; who: number; permille: bigint };
  const traders = [alice, bob, carol];
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      kind: fc.constant('buy' as const),
      who: fc.integer({ min: 0, max: 2 }),
      value: fc.bigInt({ min: 1n, max: parseEther('400') }),
    }),
    fc.record({
      kind: fc.constant('sell' as const),
      who: fc.integer({ min: 0, max: 2 }),
      permille: fc.bigInt({ min: 1n, max: 1000n }),
    }),
  );

  it('keeps reserve >= R(supply) through random buys and sells, and every holder can sell out', async () => {
    const { curve, token } = await deployPair(nextSalt());
    for (const t of traders)
      await clients.test.setBalance({ address: t.address, value: parseEther('10000') });

    // The model's reserve and fees, tracked independently of the contract.
    async function checkAfterStep(expectedReserve: bigint, expectedFees: bigint) {
      const s = await read(curve, token);
      expect(s.reserve).toBe(expectedReserve);
      expect(s.feesAccrued).toBe(expectedFees);
      expect(s.reserve).toBeGreaterThanOrEqual(reserveFor(params, s.supply));
      expect(s.balance).toBe(s.reserve + s.feesAccrued);
      return s;
    }

    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
        const snapshot = await clients.test.snapshot();
        try {
          let reserve = (await read(curve, token)).reserve;
          let fees = (await read(curve, token)).feesAccrued;
          for (const op of ops) {
            const trader = traders[op.who] as LocalAccount;
            const { supply, balances } = await read(curve, token, [trader]);
            if (op.kind === 'buy') {
              const expected = quoteBuy(params, supply, op.value);
              if (expected === null) {
                expect(await revertName(simulateBuy(curve, trader, op.value))).toBe('ExceedsMaxSupply');
                continue;
              }
              if (expected.tokensOut === 0n) {
                expect(await revertName(simulateBuy(curve, trader, op.value))).toBe('ZeroAmount');
                continue;
              }
              expect((await buy(curve, trader, op.value, expected.tokensOut)).tokensOut).toBe(
                expected.tokensOut,
              );
              reserve += expected.net;
              fees += expected.fee;
            } else {
              const tokensIn = ((balances[0] ?? 0n) * op.permille) / 1000n;
              if (tokensIn === 0n) continue;
              const expected = quoteSell(params, supply, tokensIn);
              expect((await sell(curve, trader, tokensIn, expected.ethOut)).ethOut).toBe(expected.ethOut);
              reserve -= expected.gross;
              fees += expected.fee;
            }
            await checkAfterStep(reserve, fees);
          }

          for (const trader of traders) {
            const { supply, balances } = await read(curve, token, [trader]);
            const held = balances[0] ?? 0n;
            if (held === 0n) continue;
            const expected = quoteSell(params, supply, held);
            expect((await sell(curve, trader, held, expected.ethOut)).ethOut).toBe(expected.ethOut);
            reserve -= expected.gross;
            fees += expected.fee;
            await checkAfterStep(reserve, fees);
          }
          const end = await checkAfterStep(reserve, fees);
          expect(end.supply).toBe(0n);
        } finally {
          await clients.test.revert({ id: snapshot });
        }
      }),
      // 10 runs on every push, 25 with TEST_FULL=1 (see helpers/counts.ts); fast-check prints the seed on a failure.
      { numRuns: randomRuns('CURVE_RUNS', 10, 25) },
    );
  });
});

describe('startAnvil', () => {
  it('writes the chain state on stop and loads it on the next start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'anvil-state-'));
    const statePath = join(dir, 'state.json');
    const recipient = anvilAccount(7).address;
    try {
      const first = await startAnvil({ statePath, stateIntervalSeconds: 60, chainId: 4242 });
      const c1 = connect(first.rpcUrl);
      expect(await c1.pub.getChainId()).toBe(4242);
      await c1.test.setBalance({ address: recipient, value: 123_456_789n });
      await first.stop();
      expect(first.process.exitCode !== null || first.process.signalCode !== null).toBe(true);
      expect((await stat(statePath)).size).toBeGreaterThan(0);

      const second = await startAnvil({ statePath, chainId: 4242 });
      try {
        expect(await connect(second.rpcUrl).pub.getBalance({ address: recipient })).toBe(123_456_789n);
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes the state on a SIGTERM the moment it has started', async () => {
    // Anvil listens before it catches SIGTERM; before startAnvil waited for that, about half of
    // these signals killed it before it wrote anything.
    const dir = await mkdtemp(join(tmpdir(), 'anvil-state-'));
    try {
      for (let i = 0; i < 5; i++) {
        const statePath = join(dir, `state-${i}.json`);
        const anvil = await startAnvil({ statePath });
        process.kill(anvil.pid, 'SIGTERM');
        await anvil.stop();
        expect((await stat(statePath)).size).toBeGreaterThan(0);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('waits for a process to catch SIGTERM, as anvil does only some time after it listens', async () => {
    // A process that catches SIGTERM 300 ms after it starts and then exits cleanly on it.
    const late = spawn('/bin/sh', ['-c', "sleep 0.3; trap 'exit 0' TERM; while :; do sleep 0.05; done"]);
    const exited = once(late, 'exit');
    await catchesSigterm(late.pid ?? 0);
    late.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
  });

  it('rejects with anvil output when anvil exits before listening', async () => {
    await expect(startAnvil({ blockTime: -1 })).rejects.toThrow(/exited before listening[\s\S]*anvil output/);
  });
});
