import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  getAddress,
  type PublicClient,
} from 'viem';
import { payoutRouterAbi } from './contracts/PayoutRouter.ts';
import { projectFactoryAbi } from './contracts/ProjectFactory.ts';

/** The payout router a factory deployed, and whom it lets pay and where its fees go. */
export interface FactoryRouter {
  routerAddress: string;
  payer: string;
  treasury: string;
}

/** The chain the service was pointed at cannot serve it as configured; the message says why. */
export class ChainSetupError extends Error {}

/**
 * The factory's payout router, or null when the address holds no factory that has one: nothing
 * at all, or a factory built before the router existed (its call reverts without data).
 */
export async function readFactoryRouter(
  client: PublicClient,
  factoryAddress: string,
): Promise<FactoryRouter | null> {
  let router: string;
  try {
    router = await client.readContract({
      address: getAddress(factoryAddress),
      abi: projectFactoryAbi,
      functionName: 'payoutRouter',
    });
  } catch (err) {
    const missing =
      err instanceof BaseError &&
      err.walk(
        (e) => e instanceof ContractFunctionZeroDataError || e instanceof ContractFunctionRevertedError,
      );
    if (missing) return null;
    throw err;
  }
  const routerAddress = getAddress(router);
  const [payer, treasury] = await Promise.all([
    client.readContract({ address: routerAddress, abi: payoutRouterAbi, functionName: 'payer' }),
    client.readContract({ address: routerAddress, abi: payoutRouterAbi, functionName: 'treasury' }),
  ]);
  return { routerAddress, payer: getAddress(payer), treasury: getAddress(treasury) };
}

/**
 * Why the router cannot serve this service, or null when it can: its payer must be the payout key
 * (any other key's pay reverts, so every payout would fail) and its treasury the configured one
 * (the payouts record the fee's recipient from the configuration).
 */
export function routerMismatch(
  router: FactoryRouter,
  expected: { payer: string; treasury: string },
): string | null {
  if (router.payer !== getAddress(expected.payer)) {
    return `its payer is ${router.payer}, not the payout key's address ${getAddress(expected.payer)}`;
  }
  if (router.treasury !== getAddress(expected.treasury)) {
    return `its treasury is ${router.treasury}, not TREASURY_ADDRESS ${getAddress(expected.treasury)}`;
  }
  return null;
}
