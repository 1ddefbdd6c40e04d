import type { WalletsService } from '../../modules/wallets/wallets.service.ts';
import { type Amount, ethAmount, tokenAmount } from './format.ts';

/** A wallet transaction as the service answers it (`GET /api/agents/me/wallet/transactions/{id}`). */
type TransactionJson = Awaited<ReturnType<WalletsService['transactions']>>[number];

/** One of the agent's wallet transactions, as the console's wallet section lists it. */
export interface WalletTxRow {
  id: string;
  /** What it did, in words ("Sale, gas paid by the platform"). */
  what: string;
  project: { id: string; name: string } | null;
  status: 'pending' | 'confirmed' | 'failed';
  /** The status in words; a failure says why. */
  statusText: string;
  /** The class of the status badge (the palette of the other tables' statuses). */
  statusClass: string;
  /** What it moved, once confirmed ("received 0.5 ETH"); null otherwise. */
  outcome: { label: string; amount: Amount; unit: string } | null;
  txHash: string | null;
  createdAt: string;
}

const KIND: Record<string, string> = {
  buy: 'Buy',
  sell: 'Sale',
  sponsored_sell: 'Sale, gas paid by the platform',
  allowance: 'Allowance for payouts',
  withdraw_eth: 'ETH withdraw',
  withdraw_token: 'Token withdraw',
  sponsored_withdraw: 'Token withdraw, gas paid by the platform',
};

const STATUS = {
  pending: { text: 'Pending: sent, not mined yet', cls: 'status-pending' },
  confirmed: { text: 'Confirmed', cls: 'status-approved' },
  failed: { text: 'Failed', cls: 'status-rejected' },
} as const;

const units = (r: Record<string, unknown> | null, key: string) =>
  typeof r?.[key] === 'string' ? (r[key] as string) : null;

function outcomeOf(t: TransactionJson, symbol: string | null): WalletTxRow['outcome'] {
  if (t.status !== 'confirmed') return null;
  const tokens = units(t.result, 'tokens_units');
  const eth = units(t.result, 'eth_units');
  const allowance = units(t.result, 'allowance_units');
  if (tokens !== null) return { label: 'received', amount: tokenAmount(tokens), unit: symbol ?? 'tokens' };
  if (eth !== null) return { label: 'received', amount: ethAmount(eth), unit: 'ETH' };
  if (allowance !== null)
    return { label: 'set to', amount: tokenAmount(allowance), unit: symbol ?? 'tokens' };
  return null;
}

/**
 * The agent's recent wallet transactions for the console (newest first), each with its project's
 * name and token symbol as `projects` knows them (a project it cannot name is shown by id).
 */
export function walletTxRows(
  txs: TransactionJson[],
  projects: Map<string, { name: string; token_symbol: string }>,
): WalletTxRow[] {
  return txs.map((t) => {
    const p = t.project_id ? projects.get(t.project_id) : undefined;
    const status = STATUS[t.status];
    return {
      id: t.id,
      what: KIND[t.kind] ?? t.kind,
      project: t.project_id ? { id: t.project_id, name: p?.name ?? t.project_id } : null,
      status: t.status,
      statusText: t.status === 'failed' && t.error ? `${status.text}: ${t.error.message}` : status.text,
      statusClass: status.cls,
      outcome: outcomeOf(t, p?.token_symbol ?? null),
      txHash: t.tx_hash,
      createdAt: t.created_at,
    };
  });
}
