import { type Address, createPublicClient, createTestClient, createWalletClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { expect } from 'vitest';
import { anvilAccount, startAnvil } from '../../src/infra/chain/anvil.ts';
import { projectFactoryAbi, projectFactoryBytecode } from '../../src/infra/chain/contracts/ProjectFactory.ts';
import type { CurveParams } from './curve-model.ts';

/**
 * A private anvil with the project factory deployed by the operator (anvil account 0), its fees to
 * `treasury` and its curves priced by `params`: the start of the contract tests that need no app
 * (cash-out.ts, cash-out-fuzz.ts). Clients poll every `pollingInterval` ms.
 */
export async function startFactoryAnvil(treasury: Address, params: CurveParams, pollingInterval: number) {
  const anvil = await startAnvil({});
  const common = { chain: foundry, transport: http(anvil.rpcUrl), pollingInterval } as const;
  const pub = createPublicClient(common);
  const wallet = createWalletClient(common);
  const testClient = createTestClient({ ...common, mode: 'anvil' });
  const hash = await wallet.deployContract({
    abi: projectFactoryAbi,
    bytecode: projectFactoryBytecode,
    args: [treasury, anvilAccount(5).address, params.a, params.b],
    account: anvilAccount(0),
    chain: foundry,
  });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return { anvil, pub, wallet, testClient, factory: receipt.contractAddress as Address };
}
