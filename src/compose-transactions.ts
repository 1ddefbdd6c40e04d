import type { Chain } from './infra/chain/chain.ts';
import type { Config } from './infra/config.ts';
import type { PayoutsService } from './modules/payouts/payouts.service.ts';
import type { KindPolicies } from './modules/transactions/transactions.types.ts';
import { walletKinds } from './modules/wallets/wallet-kinds.ts';
import type { WalletsService } from './modules/wallets/wallets.service.ts';

/**
 * What the one transaction engine needs from its clients, wired here: the kinds they declare (the
 * wallets: what each answers, the sponsored ones' refund and quota; payouts: revert depth, signed
 * anew by the payouts module after the funds reservation when a nonce is lost), and the key that
 * signs for each signer (the payout key, else a wallet's or the sponsor's). The services are read
 * when first used: they are built after the journal and the engine.
 */
export function transactionClients(deps: {
  config: Config;
  chain: Chain;
  wallets: () => Pick<WalletsService, 'signingKeyOf'>;
  payouts: () => Pick<PayoutsService, 'kinds'>;
}) {
  const { config, chain } = deps;
  let txKinds: KindPolicies | undefined;
  const kinds = (): KindPolicies =>
    (txKinds ??= {
      ...walletKinds({
        sponsoredWithdrawalsPerDay: config.sponsor.withdrawalsPerDay,
        sponsor: chain.sponsor,
        keyOf: (address) => deps.wallets().signingKeyOf(address),
      }),
      ...deps.payouts().kinds(),
    });
  const payoutKey = chain.payoutSigner.address.toLowerCase();
  const keyOf = (signer: string): Promise<string | null | undefined> =>
    payoutKey && signer.toLowerCase() === payoutKey
      ? Promise.resolve(chain.payoutSigner.key)
      : deps.wallets().signingKeyOf(signer);
  return { kinds, keyOf };
}
