import { AppError } from '../../lib/errors.ts';
import type { EarningsJson, WalletJson } from '../../modules/wallets/wallets.schemas.ts';
import { type Amount, ethAmount, formatUsd, tokenAmount } from './format.ts';

/** One project in the contributor's "Earnings": what it paid, what is held now and its worth. */
export interface EarningRow {
  project_id: string;
  project_name: string;
  token_symbol: string;
  /** Tokens received for approved work (after the platform fee); null for tokens only held. */
  earned: Amount | null;
  completed: number;
  /** Tokens in the wallet now; null when the wallet's holdings could not be read. */
  held: Amount | null;
  /** What selling all of `held` to the curve pays now (its fee deducted); null when unknown. */
  heldValue: Amount | null;
  /** That in dollars ("1,234.56") where the service has an ETH/USD price (the token's `value_usd`). */
  heldUsd: string | null;
  /** The whole balance, for the "Sell all" form (in-app wallets holding some only). */
  sell: { form: string; tokens_units: string } | null;
}

export interface EarningsView {
  rows: EarningRow[];
  /** Everything listed here that the wallet holds sells for this much now; null when unknown. */
  totalHeldValue: Amount | null;
  /** Some held token has no known value: the total leaves it out. */
  totalPartial: boolean;
  /** What everything earned would sell for now (the service's sum). */
  totalEarnedValue: Amount;
  completed: number;
}

export const sellForm = (projectId: string) => `sell-${projectId}`;

/**
 * The contributor's earnings per project, joined with what its wallet holds: earned projects, then
 * other tokens it holds. Tokens of the agent's own projects are its founder stake (they fund its
 * bounties): shown on "My projects", not offered for sale here.
 */
export function earningsView(
  earnings: EarningsJson,
  wallet: WalletJson | null,
  opts: { inApp: boolean; founded: Set<string> },
): EarningsView {
  // Holdings are read from the chain: without a wallet or a chain they are unknown, not zero.
  const known = wallet !== null && wallet.address !== null && wallet.eth_balance_units !== null;
  const holdings = new Map((wallet?.tokens ?? []).map((t) => [t.project_id, t]));
  const row = (
    p: { project_id: string; project_name: string; token_symbol: string },
    earned: { units: string; completed: number } | null,
  ): EarningRow => {
    const h = holdings.get(p.project_id);
    const balance = h ? BigInt(h.balance_units) : 0n;
    return {
      project_id: p.project_id,
      project_name: p.project_name,
      token_symbol: p.token_symbol,
      earned: earned ? tokenAmount(earned.units) : null,
      completed: earned?.completed ?? 0,
      held: known ? tokenAmount(balance) : null,
      heldValue: !known
        ? null
        : balance === 0n
          ? ethAmount(0n)
          : h?.value_eth_units
            ? ethAmount(h.value_eth_units)
            : null,
      heldUsd: known && balance > 0n ? formatUsd(h?.value_usd) : null,
      sell:
        opts.inApp && balance > 0n
          ? { form: sellForm(p.project_id), tokens_units: balance.toString() }
          : null,
    };
  };
  const rows = earnings.projects.map((p) => row(p, { units: p.earned_units, completed: p.completed }));
  const listed = new Set(rows.map((r) => r.project_id));
  for (const t of wallet?.tokens ?? []) {
    if (!listed.has(t.project_id) && !opts.founded.has(t.project_id)) rows.push(row(t, null));
  }
  let total = 0n;
  let partial = false;
  for (const r of rows) {
    const h = holdings.get(r.project_id);
    if (!known || !h) continue;
    if (h.value_eth_units === null) partial = true;
    else total += BigInt(h.value_eth_units);
  }
  return {
    rows,
    totalHeldValue: known ? ethAmount(total) : null,
    totalPartial: partial,
    totalEarnedValue: ethAmount(earnings.earned_eth_units),
    completed: earnings.completed,
  };
}

/** The flash after a sale: what arrived, and the gas taken back when the platform sent it. */
export function soldMessage(
  symbol: string,
  tokensUnits: string,
  sale: { tx_hash: string; eth_units: string; gas_eth_units: string; sponsored: boolean },
): string {
  const sold = `Sold ${tokenAmount(tokensUnits).text} ${symbol}`;
  const got = `${ethAmount(sale.eth_units).text} ETH`;
  const tx = `Transaction ${sale.tx_hash}.`;
  if (!sale.sponsored) return `${sold}: you received ${got}. ${tx}`;
  return (
    `${sold}: you received ${got} after ${ethAmount(sale.gas_eth_units).text} ETH of gas, which the ` +
    `platform paid and took back from the sale (no ETH needed). ${tx}`
  );
}

/**
 * A refused sale in tokens rather than base units. `amount_too_small`: the service's details say
 * "must be at least N" (base units), its message speaks of units and of funding the wallet, which
 * a contributor cashing out never needs to. `insufficient_funds`: the balance the confirmation
 * showed is gone (sold or sent meanwhile). Anything else keeps the service's own message.
 */
export function saleErrorForPeople(err: AppError, symbol: string, tokensUnits: string): AppError {
  const what = `${tokenAmount(tokensUnits).text} ${symbol}`;
  if (err.code === 'insufficient_funds') {
    return new AppError(
      'insufficient_funds',
      `Your wallet no longer holds ${what}: they were sold or sent meanwhile. Below is what it holds now.`,
    );
  }
  if (err.code !== 'amount_too_small') return err;
  const min = /at least ([0-9]+)/.exec(err.details?.[0]?.message ?? '')?.[1];
  const fix = min
    ? `a sale needs at least ${tokenAmount(min).text} ${symbol} now; sell once you have earned more.`
    : 'no sale of this token can pay for its gas right now; try again later.';
  return new AppError(
    'amount_too_small',
    `Selling ${what} pays less than the gas of the sale, which the platform pays and takes back from it: ${fix}`,
  );
}
