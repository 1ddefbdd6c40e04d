import { encodeFunctionData, getAddress, keccak256, stringToHex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { anvilAccount } from '../src/infra/chain/anvil.ts';
import { projectFactoryAbi } from '../src/infra/chain/contracts/ProjectFactory.ts';
import { projectTokenAbi } from '../src/infra/chain/contracts/ProjectToken.ts';
import { upstream } from '../src/infra/chain/evm-errors.ts';
import { createProject, registerAgent, type TestAgent } from './helpers/app.ts';
import { ok } from './helpers/bounty-flows.ts';
import { chainAppForFile } from './helpers/builders.ts';

/**
 * Activation of projects whose names the token cannot hold as given: OpenZeppelin's EIP712 (behind
 * `permit`) takes the token name as its domain name and refuses one of 32 bytes or more. Every
 * valid project name (2-100 characters, any script) must activate, with the token named by the
 * longest whole-character prefix that fits.
 */

const { ctx, tc } = chainAppForFile();
let founder: TestAgent;

beforeAll(async () => {
  founder = await registerAgent(ctx.app, { wallet_address: tc.account(3).address });
});

/** Creates and activates a project through the API; returns what its token says of itself. */
async function activateNamed(name: string) {
  const p = await createProject(ctx.app, founder, { name });
  expect(p.name).toBe(name);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/projects/${p.id}/activate`,
    headers: founder.headers,
  });
  const project = ok<{ project: { status: string; name: string; token_address: string } }>(res).project;
  expect(project.status).toBe('active');
  // The project keeps its full name; only the token's is shortened.
  expect(project.name).toBe(name);
  const token = getAddress(project.token_address);
  const read = (functionName: 'name' | 'symbol') =>
    tc.pub.readContract({ address: token, abi: projectTokenAbi, functionName });
  const [tokenName, symbol, domain] = await Promise.all([
    read('name'),
    read('symbol'),
    tc.pub.readContract({ address: token, abi: projectTokenAbi, functionName: 'eip712Domain' }),
  ]);
  expect(symbol).toBe(p.token_symbol);
  // Wallets sign a permit for the domain named like the token: the two must not differ.
  expect(domain[1]).toBe(tokenName);
  expect(Buffer.byteLength(tokenName, 'utf8')).toBeLessThanOrEqual(31);
  expect(name.startsWith(tokenName)).toBe(true);
  return tokenName;
}

describe('activation with names the token cannot hold as given', () => {
  it('a 100-character ASCII name', async () => {
    const name = 'Fast JSON parser for embedded systems, '.repeat(3).slice(0, 100);
    expect(name).toHaveLength(100);
    expect(await activateNamed(name)).toBe('Fast JSON parser for embedded s');
  });

  it('the name that used to fail: 37 bytes', async () => {
    expect(await activateNamed('Fast JSON parser for embedded systems')).toBe(
      'Fast JSON parser for embedded s',
    );
  });

  it('a long CJK name, 3 bytes a character', async () => {
    const name = '嵌入式系统的快速解析器'.repeat(9).slice(0, 100);
    expect(await activateNamed(name)).toBe('嵌入式系统的快速解析器'.slice(0, 10));
  });

  it('an emoji name, a ZWJ sequence across the limit kept whole', async () => {
    expect(await activateNamed('🚀 Rocket launch 👨‍👩‍👧‍👦 family')).toBe('🚀 Rocket launch');
  });

  it('a right-to-left name', async () => {
    expect(await activateNamed('מנתח JSON מהיר למערכות משובצות')).toBe('מנתח JSON מהיר למער');
  });

  it('a name that fits stays whole', async () => {
    const name = `${'é'.repeat(15)}!`;
    expect(await activateNamed(name)).toBe(name);
  });
});

describe('the 502 of a failed chain call', () => {
  it('names the contract error, with no NUL or other control characters', async () => {
    // What activation sent before names were shortened: the factory's deploy with a 37-byte name.
    const operator = anvilAccount(0);
    const data = encodeFunctionData({
      abi: projectFactoryAbi,
      functionName: 'deploy',
      args: [keccak256(stringToHex('too-long')), 'Fast JSON parser for embedded systems', 'FJP'],
    });
    const err = await tc.pub
      .estimateGas({ account: operator, to: getAddress(tc.options.factoryAddress), data })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).not.toBeNull();
    const message = upstream('deploy the project contracts', err).message;
    expect(message).toBe(
      'The blockchain node failed to deploy the project contracts: the contract reverted with StringTooLong',
    );
    expect(message).not.toMatch(/\p{Cc}/u);
  });
});
