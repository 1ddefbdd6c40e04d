import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { SponsorActions, WalletActions } from '../../../src/infra/chain/chain.ts';
import { unavailableChain } from '../../../src/infra/chain/unavailable-chain.ts';
import { AppError } from '../../../src/lib/errors.ts';
import type { TokenLedger } from './ledger.ts';

/** What the fake chain cannot do: it has no wallets, factory or faucet. */
export const refuse = (): never => {
  throw new AppError('chain_unavailable', 'The fake chain has no wallets, factory or faucet.');
};

/**
 * The in-app wallets' actions on the fake chain: they read token balances and approve payouts on
 * the ledger (a block with its Approval log, as on chain); everything else is refused.
 */
export function ledgerWallets(ledger: TokenLedger): WalletActions {
  return {
    // Everything else refuses as the service does with no chain configured (chain_unavailable).
    ...unavailableChain.wallets,
    approvePayouts: async (key, token, amountUnits) => {
      const owner = privateKeyToAccount(key as Hex).address;
      const txHash = ledger.approve(token, owner, amountUnits);
      return { txHash, allowanceUnits: amountUnits };
    },
    readBalances: async (pairs) => pairs.map((p) => ledger.get(p.tokenAddress, p.holder).balanceUnits),
  };
}

/** No sponsor: a wallet without ETH cannot cash out here. */
export function noSponsor(): SponsorActions {
  return {
    address: null,
    balance: async () => 0n,
    quoteSale: async () => refuse(),
    reauthorizeSale: async () => refuse(),
    sell: async () => refuse(),
    sendToken: async () => refuse(),
  };
}
