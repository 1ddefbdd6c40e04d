/**
 * ProjectToken.transferWithAuthorization (EIP-3009, bytes signature): a holder without ETH signs a
 * transfer and anyone submits it. The sale side of cashing out is in cash-out.chain.test.ts.
 */
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type LocalAccount,
  parseEther,
  parseEventLogs,
  stringToHex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, anvilAccount, startAnvil } from '../src/infra/chain/anvil.ts';
import { bondingCurveAbi } from '../src/infra/chain/contracts/BondingCurve.ts';
import { projectFactoryAbi, projectFactoryBytecode } from '../src/infra/chain/contracts/ProjectFactory.ts';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';

const operator = anvilAccount(0);
const buyer = anvilAccount(1);
const submitter = anvilAccount(4);
const treasury = anvilAccount(9);
const FAR = 2n ** 40n;
const TOKEN_NAME = 'Signed Transfer';

let anvil: Anvil;
let pub: ReturnType<typeof createPublicClient>;
let wallet: ReturnType<typeof createWalletClient>;
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

const newAccount = () => privateKeyToAccount(generatePrivateKey());
const balanceOf = (token: Address, owner: Address) =>
  pub.readContract({ address: token, abi: projectTokenAbi, functionName: 'balanceOf', args: [owner] });

let saltCounter = 0;
/** A fresh token the buyer bought 1 ETH of, and `holder`, an account that never held ETH, half of it. */
async function fundedHolder() {
  const { result, request } = await pub.simulateContract({
    address: factory,
    abi: projectFactoryAbi,
    functionName: 'deploy',
    args: [stringToHex(`signed-transfer-${++saltCounter}`, { size: 32 }), TOKEN_NAME, 'STX'],
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
  const holder = newAccount();
  const sent = await pub.simulateContract({
    address: token,
    abi: projectTokenAbi,
    functionName: 'transfer',
    args: [holder.address, bought.result / 2n],
    account: buyer,
  });
  const receipt = await mine(await wallet.writeContract(sent.request));
  return { token, holder, held: bought.result / 2n, transferGas: receipt.gasUsed };
}

interface Authorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

const authorization = (from: Address, to: Address, value: bigint, over: Partial<Authorization> = {}) => ({
  from,
  to,
  value,
  validAfter: 0n,
  validBefore: FAR,
  nonce: generatePrivateKey(),
  ...over,
});

/** Signed on the permit's domain: the token name, version 1. */
const signAuthorization = (signer: LocalAccount, token: Address, message: Authorization) =>
  signer.signTypedData({
    domain: { name: TOKEN_NAME, version: '1', chainId: foundry.id, verifyingContract: token },
    types: {
      TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'TransferWithAuthorization',
    message,
  });

const args = (m: Authorization, signature: Hex) =>
  [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, signature] as const;

const simulate = (token: Address, m: Authorization, signature: Hex) =>
  pub.simulateContract({
    address: token,
    abi: projectTokenAbi,
    functionName: 'transferWithAuthorization',
    args: args(m, signature),
    account: submitter,
  });

/** Mined with a fixed gas limit, so that a revert is mined too. */
async function send(token: Address, m: Authorization, signature: Hex) {
  const hash = await wallet.writeContract({
    address: token,
    abi: projectTokenAbi,
    functionName: 'transferWithAuthorization',
    args: args(m, signature),
    account: submitter,
    chain: foundry,
    gas: 200_000n,
  });
  return pub.waitForTransactionReceipt({ hash });
}

async function state(token: Address, m: Authorization) {
  const [from, to, used, fromEth] = await Promise.all([
    balanceOf(token, m.from),
    balanceOf(token, m.to),
    pub.readContract({
      address: token,
      abi: projectTokenAbi,
      functionName: 'authorizationState',
      args: [m.from, m.nonce],
    }),
    pub.getBalance({ address: m.from }),
  ]);
  return { from, to, used, fromEth };
}

beforeAll(async () => {
  anvil = await startAnvil({});
  const common = { chain: foundry, transport: http(anvil.rpcUrl), pollingInterval: 100 } as const;
  pub = createPublicClient(common);
  wallet = createWalletClient(common);
  const receipt = await mine(
    await wallet.deployContract({
      abi: projectFactoryAbi,
      bytecode: projectFactoryBytecode,
      args: [treasury.address, anvilAccount(5).address, 10n ** 12n, 10n ** 3n],
      account: operator,
      chain: foundry,
    }),
  );
  factory = receipt.contractAddress as Address;
});

afterAll(async () => {
  await anvil?.stop();
});

describe('ProjectToken.transferWithAuthorization', () => {
  it('moves the signed value to the signed recipient, sent by a third party, once', async () => {
    const { token, holder, held, transferGas } = await fundedHolder();
    const m = authorization(holder.address, newAccount().address, held / 3n);
    const signature = await signAuthorization(holder, token, m);
    const before = await state(token, m);
    expect(before).toMatchObject({ from: held, to: 0n, used: false, fromEth: 0n });

    const receipt = await mine(await wallet.writeContract((await simulate(token, m, signature)).request));
    expect(await state(token, m)).toEqual({ from: held - m.value, to: m.value, used: true, fromEth: 0n });
    const [used] = parseEventLogs({
      abi: projectTokenAbi,
      logs: receipt.logs,
      eventName: 'AuthorizationUsed',
    });
    expect(used?.args).toEqual({ authorizer: holder.address, nonce: m.nonce });
    const [moved] = parseEventLogs({ abi: projectTokenAbi, logs: receipt.logs, eventName: 'Transfer' });
    expect(moved?.args).toEqual({ from: holder.address, to: m.to, value: m.value });

    // Both from a balance that stays non-zero to an account that held none.
    console.log(`gas: transfer ${transferGas}, transferWithAuthorization ${receipt.gasUsed}`);
    expect(receipt.gasUsed - transferGas).toBeGreaterThan(20_000n);
    expect(receipt.gasUsed - transferGas).toBeLessThan(45_000n);

    const after = await state(token, m);
    expect(await revertName(simulate(token, m, signature))).toBe('AuthorizationAlreadyUsed');
    expect((await send(token, m, signature)).status).toBe('reverted');
    expect(await state(token, m)).toEqual(after);
  });

  it('refuses a forged, early, late, altered or uncovered authorization and moves nothing', async () => {
    const { token, holder, held } = await fundedHolder();
    const { timestamp } = await pub.getBlock();
    const to = newAccount().address;
    const m = authorization(holder.address, to, held / 4n);
    const signature = await signAuthorization(holder, token, m);
    const early = authorization(holder.address, to, held / 4n, { validAfter: timestamp + 3600n });
    const late = authorization(holder.address, to, held / 4n, { validBefore: timestamp });
    const tooMuch = authorization(holder.address, to, held + 1n);
    const cases: [string, Authorization, Hex][] = [
      ['InvalidSignature', m, await signAuthorization(buyer, token, m)],
      ['AuthorizationNotYetValid', early, await signAuthorization(holder, token, early)],
      ['AuthorizationExpired', late, await signAuthorization(holder, token, late)],
      ['InvalidSignature', { ...m, value: m.value + 1n }, signature],
      ['InvalidSignature', { ...m, to: buyer.address }, signature],
      ['InvalidSignature', { ...m, validBefore: m.validBefore + 1n }, signature],
      ['InvalidSignature', { ...m, nonce: generatePrivateKey() }, signature],
      ['InvalidSignature', m, signature.slice(0, -2) as Hex],
      ['ERC20InsufficientBalance', tooMuch, await signAuthorization(holder, token, tooMuch)],
    ];
    for (const [error, message, sig] of cases) {
      const before = await state(token, message);
      expect(await revertName(simulate(token, message, sig))).toBe(error);
      expect((await send(token, message, sig)).status).toBe('reverted');
      expect(await state(token, message)).toEqual(before);
    }
    await mine(await wallet.writeContract((await simulate(token, m, signature)).request));
    expect(await balanceOf(token, to)).toBe(m.value);
  });
});
