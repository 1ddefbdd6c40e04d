/**
 * ProjectToken.relayedTransfer: a holder without ETH signs a transfer that names its relayer (the
 * platform's sponsor), signed and encoded by src/infra/chain/withdraw-authorization.ts; only that
 * relayer can send it. The sale side of cashing out is in cash-out.chain.test.ts.
 */
import {
  type Address,
  encodeFunctionData,
  type Hex,
  type LocalAccount,
  parseAbi,
  parseEventLogs,
  zeroAddress,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { describe, expect, it } from 'vitest';
import { anvilAccount } from '../src/infra/chain/anvil.ts';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';
import {
  signWithdrawAuthorization,
  supportsWithdrawAuthorization,
  type TokenDomain,
  type WithdrawAuthorization,
} from '../src/infra/chain/withdraw-authorization.ts';
import {
  buyer,
  factory,
  fundedSeller,
  mine,
  otherRelayer,
  pub,
  relayer,
  revertName,
  useCashOutChain,
  wallet,
} from './helpers/cash-out.ts';

const FAR = 2n ** 40n;

useCashOutChain();

const newAccount = () => privateKeyToAccount(generatePrivateKey());
const balanceOf = (token: Address, owner: Address) =>
  pub.readContract({ address: token, abi: projectTokenAbi, functionName: 'balanceOf', args: [owner] });

/** The token's EIP-712 domain as the service reads it (ERC-5267). */
async function tokenDomain(token: Address): Promise<TokenDomain> {
  const [, name, version, chainId, verifyingContract] = await pub.readContract({
    address: token,
    abi: projectTokenAbi,
    functionName: 'eip712Domain',
  });
  return { name, version, chainId: Number(chainId), verifyingContract };
}

/** `holder`, an account that never held ETH, with half of a 1 ETH buy of a fresh token. */
async function fundedHolder() {
  const { token, seller, held } = await fundedSeller();
  return { token, holder: seller, held, domain: await tokenDomain(token) };
}

const sign = (
  holder: LocalAccount,
  domain: TokenDomain,
  to: Address,
  value: bigint,
  over: { relayer?: Address; validAfter?: bigint; validBefore?: bigint } = {},
) =>
  signWithdrawAuthorization({
    holder,
    domain,
    to,
    value,
    relayer: over.relayer ?? relayer.address,
    validBefore: over.validBefore ?? FAR,
    ...(over.validAfter === undefined ? {} : { validAfter: over.validAfter }),
  });

const args = (a: WithdrawAuthorization, signature: Hex) =>
  [a.from, a.to, a.value, a.relayer, a.validAfter, a.validBefore, a.nonce, signature] as const;

const simulate = (
  token: Address,
  a: WithdrawAuthorization,
  signature: Hex,
  account: LocalAccount = relayer,
) =>
  pub.simulateContract({
    address: token,
    abi: projectTokenAbi,
    functionName: 'relayedTransfer',
    args: args(a, signature),
    account,
  });

/** Mined with a fixed gas limit, so that a revert is mined too. */
async function send(token: Address, data: Hex, account: LocalAccount = relayer) {
  const hash = await wallet.sendTransaction({ to: token, data, account, chain: foundry, gas: 200_000n });
  return pub.waitForTransactionReceipt({ hash });
}

const call = (a: WithdrawAuthorization, signature: Hex) =>
  encodeFunctionData({ abi: projectTokenAbi, functionName: 'relayedTransfer', args: args(a, signature) });

/**
 * Everything a transfer moves: both balances, the nonce, the holder's ETH (none, throughout; the
 * zero address's is anvil's coinbase, which every block pays, so it is left out).
 */
async function state(token: Address, a: WithdrawAuthorization) {
  const [from, to, used, fromEth] = await Promise.all([
    balanceOf(token, a.from),
    balanceOf(token, a.to),
    pub.readContract({
      address: token,
      abi: projectTokenAbi,
      functionName: 'authorizationState',
      args: [a.from, a.nonce],
    }),
    a.from === zeroAddress ? 0n : pub.getBalance({ address: a.from }),
  ]);
  return { from, to, used, fromEth };
}

describe('ProjectToken.relayedTransfer', () => {
  it('moves the signed value to the signed recipient, sent by the named relayer, once', async () => {
    const { token, holder, held, domain } = await fundedHolder();
    const signed = await sign(holder, domain, newAccount().address, held / 3n);
    const a = signed.authorization;
    expect(signed.token).toBe(token);
    expect(a).toMatchObject({ from: holder.address, relayer: relayer.address, validAfter: 0n });
    expect(signed.data).toBe(call(a, signed.signature));
    const before = await state(token, a);
    expect(before).toMatchObject({ from: held, to: 0n, used: false, fromEth: 0n });

    // The call exactly as the sponsor sends it: the builder's calldata, from the relayer.
    const receipt = await mine(
      await wallet.sendTransaction({ to: signed.token, data: signed.data, account: relayer, chain: foundry }),
    );
    expect(await state(token, a)).toEqual({ from: held - a.value, to: a.value, used: true, fromEth: 0n });
    const [used] = parseEventLogs({
      abi: projectTokenAbi,
      logs: receipt.logs,
      eventName: 'AuthorizationUsed',
    });
    expect(used?.args).toEqual({ authorizer: holder.address, nonce: a.nonce });
    const [moved] = parseEventLogs({ abi: projectTokenAbi, logs: receipt.logs, eventName: 'Transfer' });
    expect(moved?.args).toEqual({ from: holder.address, to: a.to, value: a.value });

    // Both from a balance that stays non-zero to an account that held none.
    const plain = await mine(
      await wallet.writeContract({
        address: token,
        abi: projectTokenAbi,
        functionName: 'transfer',
        args: [newAccount().address, a.value],
        account: buyer,
        chain: foundry,
      }),
    );
    console.log(`gas: transfer ${plain.gasUsed}, relayedTransfer ${receipt.gasUsed}`);
    expect(receipt.gasUsed - plain.gasUsed).toBeGreaterThan(20_000n);
    expect(receipt.gasUsed - plain.gasUsed).toBeLessThan(45_000n);

    const after = await state(token, a);
    expect(await revertName(simulate(token, a, signed.signature))).toBe('AuthorizationAlreadyUsed');
    expect((await send(token, signed.data)).status).toBe('reverted');
    expect(await state(token, a)).toEqual(after);
  });

  it('refuses a valid authorization from anyone but the relayer it names, and moves nothing', async () => {
    const { token, holder, held, domain } = await fundedHolder();
    const signed = await sign(holder, domain, newAccount().address, held / 3n);
    const a = signed.authorization;
    const before = await state(token, a);
    for (const account of [otherRelayer, buyer]) {
      expect(await revertName(simulate(token, a, signed.signature, account))).toBe('NotRelayer');
      expect((await send(token, signed.data, account)).status).toBe('reverted');
      expect(await state(token, a)).toEqual(before);
    }
    // Naming itself instead alters the signed message.
    const renamed = { ...a, relayer: otherRelayer.address };
    expect(await revertName(simulate(token, renamed, signed.signature, otherRelayer))).toBe(
      'InvalidSignature',
    );
    expect((await send(token, call(renamed, signed.signature), otherRelayer)).status).toBe('reverted');
    expect(await state(token, a)).toEqual(before);

    // The nonce is still unspent: the named relayer sends it, once.
    await mine(await wallet.writeContract((await simulate(token, a, signed.signature)).request));
    expect(await state(token, a)).toEqual({ ...before, from: held - a.value, to: a.value, used: true });
    expect(await revertName(simulate(token, a, signed.signature, otherRelayer))).toBe('NotRelayer');
    expect(await revertName(simulate(token, a, signed.signature))).toBe('AuthorizationAlreadyUsed');
  });

  it('refuses a forged, early, late, altered or uncovered authorization and moves nothing', async () => {
    const { token, holder, held, domain } = await fundedHolder();
    const { timestamp } = await pub.getBlock();
    const to = newAccount().address;
    const signed = await sign(holder, domain, to, held / 4n);
    const { authorization: a, signature } = signed;
    const early = await sign(holder, domain, to, held / 4n, { validAfter: timestamp + 3600n });
    const late = await sign(holder, domain, to, held / 4n, { validBefore: timestamp });
    const tooMuch = await sign(holder, domain, to, held + 1n);
    const forged = await sign(buyer, domain, to, held / 4n);
    const elsewhere = await sign(holder, { ...domain, name: 'Another Token' }, to, held / 4n);
    const cases: [string, WithdrawAuthorization, Hex][] = [
      ['InvalidSignature', { ...forged.authorization, from: holder.address }, forged.signature],
      ['InvalidSignature', elsewhere.authorization, elsewhere.signature],
      ['AuthorizationNotYetValid', early.authorization, early.signature],
      ['AuthorizationExpired', late.authorization, late.signature],
      ['InvalidSignature', { ...a, value: a.value + 1n }, signature],
      ['InvalidSignature', { ...a, to: buyer.address }, signature],
      ['InvalidSignature', { ...a, validBefore: a.validBefore + 1n }, signature],
      ['InvalidSignature', { ...a, nonce: generatePrivateKey() }, signature],
      ['InvalidSignature', { ...a, from: zeroAddress }, `0x${'00'.repeat(65)}`],
      ['InvalidSignature', a, signature.slice(0, -2) as Hex],
      ['ERC20InsufficientBalance', tooMuch.authorization, tooMuch.signature],
    ];
    for (const [error, message, sig] of cases) {
      const before = await state(token, message);
      expect(await revertName(simulate(token, message, sig))).toBe(error);
      expect((await send(token, call(message, sig))).status).toBe('reverted');
      expect(await state(token, message)).toEqual(before);
    }
    await mine(await wallet.writeContract((await simulate(token, a, signature)).request));
    expect(await balanceOf(token, to)).toBe(a.value);
  });

  it('has no relayer-less EIP-3009 entry point: such a signature moves nothing', async () => {
    const { token, holder, held, domain } = await fundedHolder();
    const m = {
      from: holder.address,
      to: newAccount().address,
      value: held / 2n,
      validAfter: 0n,
      validBefore: FAR,
      nonce: generatePrivateKey(),
    };
    const signature = await holder.signTypedData({
      domain,
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
      message: m,
    });
    const data = encodeFunctionData({
      abi: parseAbi([
        'function transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)',
      ]),
      args: [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, signature],
    });
    for (const account of [relayer, otherRelayer]) {
      const receipt = await send(token, data, account);
      expect(receipt.status).toBe('reverted');
    }
    expect(await balanceOf(token, holder.address)).toBe(held);
    expect(await balanceOf(token, m.to)).toBe(0n);
  });

  it('tells tokens that take relayed authorizations from addresses that do not', async () => {
    const { token } = await fundedHolder();
    expect(await supportsWithdrawAuthorization(pub, token)).toBe(true);
    expect(await supportsWithdrawAuthorization(pub, factory)).toBe(false);
    expect(await supportsWithdrawAuthorization(pub, anvilAccount(7).address)).toBe(false);
  });
});
