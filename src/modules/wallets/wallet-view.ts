import type { Chain } from '../../infra/chain/chain.ts';
import type { Db } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { usdOf } from '../../lib/usd.ts';
import { quoteStored, valuedEarnings } from '../holdings/holdings.service.ts';
import type { PricesService } from '../prices/prices.service.ts';
import { QUOTA_WINDOW_MS } from './wallet-kinds.ts';
import { walletView } from './wallet-view.repo.ts';
import type { WalletJson } from './wallets.schemas.ts';

export const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const curveOf = (c: { a: string | null; b: string | null; supply: string | null }) => ({
  a: c.a === null ? null : BigInt(c.a),
  b: c.b === null ? null : BigInt(c.b),
  supplyUnits: c.supply === null ? null : BigInt(c.supply),
});

/**
 * The wallet as the database keeps it, from one statement: null when it was never read whole (no
 * ETH balance stored, or its tokens never scanned), which the caller reads the long way first.
 */
export async function storedWallet(
  deps: {
    db: Db;
    clock: Clock;
    chain: Pick<Chain, 'sponsor'>;
    prices: Pick<PricesService, 'ethUsd'>;
    sponsoredWithdrawalsPerDay: number;
  },
  agentId: string,
  address: string,
): Promise<WalletJson | null> {
  const since = new Date(deps.clock.now().getTime() - QUOTA_WINDOW_MS);
  const [view, usd] = await Promise.all([
    walletView(deps.db, agentId, address.toLowerCase(), since),
    deps.prices.ethUsd(),
  ]);
  if (!view.scanned || view.ethUnits === null || view.ethBlock === null) return null;
  const inApp = view.storedAddress !== null && sameAddress(view.storedAddress, address);
  const curves = new Map(view.earnings.map((e) => [e.project_id, curveOf(e)]));
  return {
    address,
    wallet_type: inApp ? 'walletvendor_inapp' : 'external',
    eth_balance_units: view.ethUnits,
    eth_balance_block: view.ethBlock,
    tokens: view.holdings.map(({ a, b, supply, ...t }) => {
      const value = quoteStored(curveOf({ a, b, supply }), BigInt(t.balance_units));
      return { ...t, value_eth_units: value, value_usd: usdOf(value, usd) };
    }),
    earnings: valuedEarnings(
      view.earnings.map(({ a: _a, b: _b, supply: _s, ...e }) => e),
      (projectId) => curves.get(projectId),
    ),
    sponsored_withdrawals_left:
      inApp && deps.chain.sponsor.address
        ? Math.max(0, deps.sponsoredWithdrawalsPerDay - view.sponsoredToday)
        : null,
  };
}
