import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts, units } from './columns.ts';
import { agents } from './marketplace.ts';

/**
 * The next nonce of each account the service signs ordinary transactions for: in-app wallets and
 * the sponsor key. Taken under this row's lock in the transaction that records the signed
 * transaction (`wallet_txs`), so two instances never sign one nonce twice.
 */
export const accountNonces = pgTable('account_nonces', {
  address: text('address').primaryKey(),
  nextNonce: bigint('next_nonce', { mode: 'number' }).notNull(),
});

/**
 * Every transaction signed for an in-app wallet or by the sponsor key, recorded (with its signed
 * bytes) before it is sent: `signed` until the node took it, `sent`, then `mined` or `reverted`;
 * `failed` when the node refused it (its nonce was given back) and `dropped` when its nonce was
 * used by another transaction. The reconciler sends `signed`/`sent` bytes again after a crash.
 */
export const walletTxs = pgTable(
  'wallet_txs',
  {
    hash: text('hash').primaryKey(),
    signer: text('signer').notNull(),
    nonce: bigint('nonce', { mode: 'number' }).notNull(),
    raw: text('raw').notNull(),
    /** buy, sell, allowance, withdraw_token, withdraw_eth, sponsored_sell, sponsored_withdraw */
    kind: text('kind').notNull(),
    agentId: text('agent_id').references(() => agents.id),
    projectId: text('project_id'),
    status: text('status', { enum: ['signed', 'sent', 'mined', 'reverted', 'failed', 'dropped'] })
      .notNull()
      .default('signed'),
    /** What the sponsor paid for gas (mined), and what the sale paid it back. */
    gasPaidUnits: units('gas_paid_units'),
    gasRefundUnits: units('gas_refund_units'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    index('wallet_txs_open_idx').on(t.signer, t.nonce).where(sql`${t.status} in ('signed', 'sent')`),
    index('wallet_txs_sponsored_idx')
      .on(t.agentId, t.kind, t.createdAt)
      .where(sql`${t.kind} like 'sponsored_%'`),
    check('wallet_txs_nonce_check', sql`${t.nonce} >= 0`),
  ],
);

/**
 * A project token's curve as last read from the chain: its immutable parameters and the supply,
 * so quotes (`reward_eth_units`, `value_eth_units`) cost no chain call. Kept by the holdings module
 * from the tokens' Transfer logs and after the service's own actions.
 */
export const tokenStates = pgTable('token_states', {
  tokenAddress: text('token_address').primaryKey(),
  curveA: units('curve_a').notNull(),
  curveB: units('curve_b').notNull(),
  supplyUnits: units('supply_units').notNull(),
  blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/** What an address holds of a project token (lower-case addresses), as last read from the chain. */
export const tokenBalances = pgTable(
  'token_balances',
  {
    tokenAddress: text('token_address').notNull(),
    holder: text('holder').notNull(),
    balanceUnits: units('balance_units').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tokenAddress, t.holder] }),
    index('token_balances_holder_idx').on(t.holder),
  ],
);

/**
 * Wallets whose balances of every project token were read once (the first time they were asked
 * for); from then on the token logs keep them current.
 */
export const holderScans = pgTable('holder_scans', {
  holder: text('holder').primaryKey(),
  scannedAt: ts('scanned_at').notNull(),
});
