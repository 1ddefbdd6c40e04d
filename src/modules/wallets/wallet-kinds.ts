import type { SponsorActions, TxJournal } from '../../infra/chain/chain.ts';
import { actionResult, saleRefund } from '../../infra/chain/tx-results.ts';
import { AppError } from '../../lib/errors.ts';
import type { KindPolicies, KindPolicy } from '../transactions/transactions.types.ts';

/** What a wallet asks the transaction engine for: one kind per action, its own or sponsored. */
export const WALLET_TX_KINDS = [
  'buy',
  'sell',
  'allowance',
  'withdraw_token',
  'withdraw_eth',
  'sponsored_sell',
  'sponsored_withdraw',
] as const;
export type WalletTxKind = (typeof WALLET_TX_KINDS)[number];

/** Makes a journal for one transaction of the running request (a sponsored fallback is another kind). */
export type JournalFor = (kind: WalletTxKind, projectId: string | null) => TxJournal;

/** The window the sponsored-withdraw quota counts over (SPONSORED_WITHDRAWALS_PER_DAY). */
export const QUOTA_WINDOW_MS = 24 * 3600_000;

export interface WalletKindDeps {
  /** SPONSORED_WITHDRAWALS_PER_DAY. */
  sponsoredWithdrawalsPerDay: number;
  sponsor: Pick<SponsorActions, 'reauthorizeSale'>;
  /** A wallet's private key (undefined: not one of ours), to authorize a sponsored sale again. */
  keyOf: (address: string) => Promise<string | null | undefined>;
}

/**
 * What differs between the wallets' kinds for the transaction engine: what each answers from its
 * receipt; a sponsored sale's gas refund, and its authorization signed again by the holder when
 * the engine signs it at new fees; the sponsored-withdraw quota, held under the sponsor's nonce lock.
 */
export function walletKinds(deps: WalletKindDeps): KindPolicies {
  const base = (kind: WalletTxKind): KindPolicy => ({ resultOf: (r) => actionResult(kind, r.logs) });
  const kinds = Object.fromEntries(WALLET_TX_KINDS.map((k) => [k, base(k)])) as Record<
    WalletTxKind,
    KindPolicy
  >;
  kinds.sponsored_sell = {
    ...kinds.sponsored_sell,
    refundOf: (r) => saleRefund(r.logs),
    // The same authorization nonce with a gas cap that covers the new fees: at most one executes.
    dataFor: async (intent, fees) => {
      const holderKey = await deps.keyOf(intent.holder);
      if (typeof holderKey !== 'string') return intent.data;
      return deps.sponsor.reauthorizeSale(holderKey, intent.toAddress, intent.data, fees.maxFeePerGas);
    },
  };
  const per = deps.sponsoredWithdrawalsPerDay;
  kinds.sponsored_withdraw = {
    ...kinds.sponsored_withdraw,
    quota: {
      max: per,
      windowMs: QUOTA_WINDOW_MS,
      refuse: () =>
        new AppError(
          'insufficient_eth',
          `This wallet holds no ETH for gas, and the platform pays the gas of ${per} token withdraws per agent ` +
            'per 24 hours, which are used; selling tokens to the curve needs no ETH.',
        ),
    },
  };
  return kinds;
}
