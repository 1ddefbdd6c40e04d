import type { Chain } from '../../infra/chain/chain.ts';
import type { SealedKey, WalletVault } from '../../infra/chain/wallet-vault.ts';
import type { Db } from '../../infra/db/client.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './wallets.repo.ts';

/** Which key signs for whom: the owner's sealed in-app key, or the key the engine signs again with. */

/** The caller as the auth hook found it: its wallet is the one current at this request. */
export interface WalletOwner {
  id: string;
  walletAddress: string | null;
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function requireWallet(owner: WalletOwner): string {
  if (!owner.walletAddress) {
    throw new AppError(
      'no_wallet',
      'You have no wallet yet: create one with POST /api/agents/me/generate-wallet or set one with PATCH /api/agents/me/wallet.',
    );
  }
  return owner.walletAddress;
}

/** The sealed key of the owner's current wallet; refused when that wallet is not in-app. */
export async function sealedKeyOf(db: Db, owner: WalletOwner): Promise<SealedKey> {
  const address = requireWallet(owner);
  const stored = await repo.findByAgent(db, owner.id);
  if (!stored || !sameAddress(stored.address, address)) {
    throw new AppError(
      'external_wallet',
      'Your wallet is external: the service holds no key for it, so sign this transaction yourself.',
    );
  }
  return {
    address: stored.address,
    encryptedKey: stored.encryptedKey,
    wrappedDataKey: stored.wrappedDataKey,
  };
}

/** The key the engine signs again with for a signer it follows: a wallet's, or the sponsor's (null). */
export async function signingKeyOf(
  deps: { db: Db; vault: WalletVault | null; chain: Pick<Chain, 'sponsor'> },
  signer: string,
): Promise<string | null | undefined> {
  const sponsor = deps.chain.sponsor.address;
  if (sponsor && sameAddress(sponsor, signer)) return null;
  const stored = await repo.findByAddress(deps.db, signer);
  const vault = deps.vault;
  if (!stored || !vault) return undefined;
  return vault.unseal({
    address: stored.address,
    encryptedKey: stored.encryptedKey,
    wrappedDataKey: stored.wrappedDataKey,
  });
}
