import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ts, units } from './columns.ts';
import { agents } from './marketplace.ts';
import { payouts } from './money.ts';

/**
 * The next nonce of each account the service signs for: the payout key, the sponsor key and the
 * in-app wallets. Taken under this row's lock in the transaction that records the signed
 * transaction (`wallet_txs`), so two instances never sign one nonce twice.
 */
export const accountNonces = pgTable('account_nonces', {
  address: text('address').primaryKey(),
  nextNonce: bigint('next_nonce', { mode: 'number' }).notNull(),
  /**
   * One action of this wallet at a time, across instances: a lease (who holds it, until when) that
   * a crashed holder's lapse frees.
   */
  busyToken: text('busy_token'),
  busyUntil: ts('busy_until'),
});

/**
 * What was asked for, one row per request: the transaction engine's intent. An agent's wallet
 * action (a buy, sale, allowance or withdraw, its own or sponsored: `agent_id` set), or a payout
 * signed by the payout key (`payout_id` set, no agent: kind `payout`, one PayoutRouter call; kinds
 * `payout_contributor` and `payout_fee`, one transferFrom each, for payouts signed before the
 * router). A payout has at most one intent of each kind that may still move (or has moved) its
 * tokens (`wallet_intents_payout_live`): exactly once. It names its signer and nonce, keeps the unsigned
 * transaction (so a stuck one is replaced at its nonce, a lost one signed again once its nonce is
 * final elsewhere), and ends `confirmed` (with the answer's fields in `result`) or `failed` (with
 * the error's code and message). `request_key` (the hash of the request's Idempotency-Key) makes a
 * retry find the first request's transaction whatever happened to its answer.
 */
export const walletIntents = pgTable(
  'wallet_intents',
  {
    id: text('id').primaryKey(),
    agentId: text('agent_id').references(() => agents.id),
    /** The payout this transaction pays (the payouts module's), for the payout key's intents. */
    payoutId: text('payout_id').references(() => payouts.id),
    requestKey: text('request_key'),
    /**
     * buy, sell, allowance, withdraw_token, withdraw_eth, sponsored_sell, sponsored_withdraw;
     * payout, payout_contributor, payout_fee
     */
    kind: text('kind').notNull(),
    projectId: text('project_id'),
    /** The wallet whose action it is (the sponsor signs for it when `kind` is sponsored_*). */
    holder: text('holder').notNull(),
    signer: text('signer').notNull(),
    nonce: bigint('nonce', { mode: 'number' }).notNull(),
    toAddress: text('to_address').notNull(),
    data: text('data').notNull(),
    valueUnits: units('value_units').notNull(),
    gas: units('gas').notNull(),
    status: text('status', { enum: ['pending', 'confirmed', 'failed'] })
      .notNull()
      .default('pending'),
    txHash: text('tx_hash'),
    blockNumber: bigint('block_number', { mode: 'bigint' }),
    result: jsonb('result').$type<Record<string, unknown>>(),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /** The last status the agent was told by an event (wallet.tx_confirmed / wallet.tx_failed). */
    told: text('told'),
    /** Sponsored withdraws count against the daily quota unless refused before sending. */
    counted: boolean('counted').notNull().default(true),
    /**
     * Its receipt was seen PAYOUT_CONFIRMATIONS deep: no reorg is watched for any more. Until then
     * the engine looks it up on every pass, however long ago it mined (a pass that could not read
     * the chain while a reorg regrew past it must not make it final unseen).
     */
    final: boolean('final').notNull().default(false),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('wallet_intents_request_key').on(t.agentId, t.requestKey),
    index('wallet_intents_agent_idx').on(t.agentId, t.createdAt),
    uniqueIndex('wallet_intents_payout_live')
      .on(t.payoutId, t.kind)
      .where(sql`${t.payoutId} is not null and ${t.status} <> 'failed'`),
    index('wallet_intents_payout_idx').on(t.payoutId),
    index('wallet_intents_open_idx').on(t.signer, t.nonce).where(sql`${t.status} = 'pending'`),
    index('wallet_intents_unfinal_idx')
      .on(t.blockNumber)
      .where(sql`${t.status} = 'confirmed' and not ${t.final}`),
  ],
);

/**
 * Every transaction the service signs (for an in-app wallet, by the sponsor key or by the payout
 * key), recorded (with its signed
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
    /** Its intent's kind, or nonce_filler (a cancel, a gap filler: it moves nothing). */
    kind: text('kind').notNull(),
    agentId: text('agent_id').references(() => agents.id),
    projectId: text('project_id'),
    /** The request it carries out; null for nonce fillers and rows from before the engine. */
    intentId: text('intent_id'),
    maxFeePerGas: units('max_fee_per_gas'),
    maxPriorityFeePerGas: units('max_priority_fee_per_gas'),
    broadcastAt: ts('broadcast_at'),
    blockNumber: bigint('block_number', { mode: 'bigint' }),
    status: text('status', {
      enum: ['signed', 'sent', 'mined', 'reverted', 'failed', 'dropped', 'replaced'],
    })
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
    index('wallet_txs_intent_idx').on(t.intentId),
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
 * An address's ETH balance as last read from the chain (lower case), with the block it was read
 * at, so a wallet read costs no node call. Kept by the holdings module after the service's own
 * actions and by the chain watcher (oldest first); `?fresh=true` reads the node.
 */
export const ethBalances = pgTable(
  'eth_balances',
  {
    holder: text('holder').primaryKey(),
    balanceUnits: units('balance_units').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('eth_balances_updated_idx').on(t.updatedAt)],
);

/**
 * Wallets whose balances of every project token were read once (the first time they were asked
 * for); from then on the token logs keep them current.
 */
export const holderScans = pgTable('holder_scans', {
  holder: text('holder').primaryKey(),
  scannedAt: ts('scanned_at').notNull(),
});
