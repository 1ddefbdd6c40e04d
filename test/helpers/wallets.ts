import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { getAddress, type Hex } from 'viem';
import { expect } from 'vitest';
import { bondingCurveAbi } from '../../src/infra/chain/contracts/BondingCurve.ts';
import { projectTokenAbi } from '../../src/infra/chain/contracts/ProjectToken.ts';
import { type SealedKey, WalletVault } from '../../src/infra/chain/wallet-vault.ts';
import { walletKeys } from '../../src/infra/db/schema.ts';
import type { TestAgent, TestApp, TestContext } from './app.ts';
import type { TestChain } from './chain.ts';

export const ETH = 10n ** 18n;
export const TOKEN = 10n ** 18n;

export const newVault = () => new WalletVault(randomBytes(32).toString('hex'));

/** The agent's row in wallet_keys (sealed), or undefined. */
export async function sealedKeyOf(ctx: TestContext, agentId: string): Promise<SealedKey | undefined> {
  const [row] = await ctx.database.db.select().from(walletKeys).where(eq(walletKeys.agentId, agentId));
  return row && { address: row.address, encryptedKey: row.encryptedKey, wrappedDataKey: row.wrappedDataKey };
}

/** The in-app wallet's private key, unsealed the way only the service may: to prove it never leaks. */
export async function privateKeyOf(ctx: TestContext, vault: WalletVault, agentId: string): Promise<Hex> {
  const sealed = await sealedKeyOf(ctx, agentId);
  expect(sealed, `agent ${agentId} has no in-app wallet`).toBeDefined();
  return vault.unseal(sealed as SealedKey);
}

/** Every textual form of a key that must not appear anywhere outside the sealed row. */
export function keyForms(key: Hex): string[] {
  const hex = key.slice(2).toLowerCase();
  const bytes = Buffer.from(hex, 'hex');
  return [hex, hex.toUpperCase(), bytes.toString('base64'), bytes.toString('base64url')];
}

export function expectNoKey(text: string, key: Hex) {
  for (const form of keyForms(key)) expect(text.includes(form), 'key material leaked').toBe(false);
}

/** A POST from an agent, JSON body optional. */
export function post(app: TestApp, agent: TestAgent, url: string, payload?: unknown) {
  return app.inject({
    method: 'POST',
    url,
    headers: agent.headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

export function ok<T = Record<string, string>>(res: LightMyRequestResponse, status = 200): T {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
}

export async function faucet(app: TestApp, agent: TestAgent, ethUnits: bigint) {
  return ok(await post(app, agent, '/api/dev/faucet', { eth_units: ethUnits.toString() }));
}

export async function walletOf(app: TestApp, agent: TestAgent) {
  const res = await app.inject({ method: 'GET', url: '/api/agents/me/wallet', headers: agent.headers });
  return ok<{
    wallet: { address: string | null; wallet_type: string | null; eth_balance_units: string | null };
  }>(res).wallet;
}

export async function quoteBuy(tc: TestChain, curve: string, ethUnits: bigint): Promise<bigint> {
  const [tokensOut] = await tc.pub.readContract({
    address: getAddress(curve),
    abi: bondingCurveAbi,
    functionName: 'quoteBuy',
    args: [ethUnits],
  });
  return tokensOut;
}

export async function quoteSell(tc: TestChain, curve: string, tokensUnits: bigint): Promise<bigint> {
  const [ethOut] = await tc.pub.readContract({
    address: getAddress(curve),
    abi: bondingCurveAbi,
    functionName: 'quoteSell',
    args: [tokensUnits],
  });
  return ethOut;
}

export function allowanceOf(tc: TestChain, token: string, owner: string): Promise<bigint> {
  return tc.pub.readContract({
    address: getAddress(token),
    abi: projectTokenAbi,
    functionName: 'allowance',
    args: [getAddress(owner), getAddress(tc.chain.info.payoutSpenderAddress as string)],
  });
}

export const ethBalance = (tc: TestChain, address: string) =>
  tc.pub.getBalance({ address: getAddress(address) });

/** What a mined transaction cost its sender in gas, exactly. */
export async function gasCost(tc: TestChain, hash: string): Promise<bigint> {
  const receipt = await tc.pub.getTransactionReceipt({ hash: hash as Hex });
  expect(receipt.status).toBe('success');
  return receipt.gasUsed * receipt.effectiveGasPrice;
}
