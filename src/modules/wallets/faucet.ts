import type { Chain } from '../../infra/chain/chain.ts';
import { AppError } from '../../lib/errors.ts';
import type { HoldingsService } from '../holdings/holdings.service.ts';
import { units } from './wallet-input.ts';
import { requireWallet, type WalletOwner } from './wallet-keys.ts';
import type { FaucetBody } from './wallets.schemas.ts';

const ETH = 10n ** 18n;
export const FAUCET_DEFAULT_UNITS = ETH;
export const FAUCET_MAX_UNITS = 100n * ETH;

/** Dev chain only (the route exists only there): test ETH for the caller's wallet, any kind. */
export async function faucet(
  deps: { chain: Pick<Chain, 'faucet'>; holdings: Pick<HoldingsService, 'refreshEth'>; devChain: boolean },
  owner: WalletOwner,
  body: FaucetBody,
) {
  const ethUnits = units('eth_units', body?.eth_units, FAUCET_DEFAULT_UNITS);
  if (ethUnits > FAUCET_MAX_UNITS) {
    throw new AppError('validation_error', 'The request body is invalid.', [
      { field: 'eth_units', message: `must be at most ${FAUCET_MAX_UNITS} (100 ETH)` },
    ]);
  }
  if (!deps.devChain) throw new AppError('not_found', 'The faucet exists only on the dev chain.');
  const address = requireWallet(owner);
  const r = await deps.chain.faucet(address, ethUnits);
  await deps.holdings.refreshEth([address]);
  return { tx_hash: r.txHash, address, eth_units: ethUnits.toString() };
}
