import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts, units } from './columns.ts';
import { agents, bounties, submissions } from './marketplace.ts';

/** Custodial wallet keys, sealed by the wallet vault (envelope encryption); never leave the service. */
export const walletKeys = pgTable(
  'wallet_keys',
  {
    agentId: text('agent_id')
      .primaryKey()
      .references(() => agents.id),
    address: text('address').notNull(),
    encryptedKey: text('encrypted_key').notNull(),
    wrappedDataKey: text('wrapped_data_key').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('wallet_keys_address_key').on(sql`lower(${t.address})`)],
);

/**
 * The next nonce of each platform signer. Nonces are taken from here inside the transaction that
 * stores the signed transaction, so no two transactions ever share one and none is skipped.
 */
export const signerNonces = pgTable('signer_nonces', {
  address: text('address').primaryKey(),
  nextNonce: bigint('next_nonce', { mode: 'number' }).notNull(),
});

/**
 * One row per (founder wallet, token) that has paid: the payout signing transactions lock it, so
 * the funds check of one payout sees every other payout of the same wallet and token in flight
 * (on every instance) before it reserves its own.
 */
export const payoutFundsLocks = pgTable(
  'payout_funds_locks',
  {
    tokenAddress: text('token_address').notNull(),
    fromAddress: text('from_address').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenAddress, t.fromAddress] })],
);

/** One payout per approved submission: the intent, recorded before anything is signed. */
export const payouts = pgTable(
  'payouts',
  {
    id: text('id').primaryKey(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id),
    bountyId: text('bounty_id')
      .notNull()
      .references(() => bounties.id),
    tokenAddress: text('token_address').notNull(),
    fromAddress: text('from_address').notNull(),
    contributorAddress: text('contributor_address').notNull(),
    treasuryAddress: text('treasury_address').notNull(),
    rewardUnits: units('reward_units').notNull(),
    contributorUnits: units('contributor_units').notNull(),
    feeUnits: units('fee_units').notNull(),
    reviewNotes: text('review_notes'),
    status: text('status', { enum: ['pending', 'confirmed', 'failed'] }).notNull(),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('payouts_submission_key').on(t.submissionId),
    index('payouts_unfinished_idx').on(t.updatedAt).where(sql`${t.status} = 'pending'`),
    // The funds reservation: what a founder wallet is about to send on a token.
    index('payouts_in_flight_idx').on(t.tokenAddress, t.fromAddress).where(sql`${t.status} = 'pending'`),
    check('payouts_status_check', sql`${t.status} in ('pending', 'confirmed', 'failed')`),
  ],
);

/**
 * One transaction of a payout. Kind `payout` (every payout since the payout router): one call to
 * the PayoutRouter that makes both transferFroms (reward minus fee to the contributor, the fee to
 * the treasury) or neither. Kinds `contributor` and `fee`: one transferFrom each (payouts signed
 * before the router; still driven and audited). A leg holds its nonce for life; a leg whose
 * transaction reverted, or whose nonce another transaction took (`dropped`), is kept, and only
 * then may a new leg of the same kind be signed.
 */
export const payoutLegs = pgTable(
  'payout_legs',
  {
    id: text('id').primaryKey(),
    payoutId: text('payout_id')
      .notNull()
      .references(() => payouts.id),
    kind: text('kind', { enum: ['payout', 'contributor', 'fee'] }).notNull(),
    signer: text('signer').notNull(),
    nonce: bigint('nonce', { mode: 'number' }).notNull(),
    toAddress: text('to_address').notNull(),
    amountUnits: units('amount_units').notNull(),
    status: text('status', { enum: ['signed', 'sent', 'success', 'reverted', 'dropped'] }).notNull(),
    txHash: text('tx_hash'),
    blockNumber: bigint('block_number', { mode: 'number' }),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    // Exactly once: at most one leg of each kind that may still move (or has moved) the tokens.
    uniqueIndex('payout_legs_live_key')
      .on(t.payoutId, t.kind)
      .where(sql`${t.status} not in ('reverted', 'dropped')`),
    uniqueIndex('payout_legs_signer_nonce_key').on(t.signer, t.nonce),
    index('payout_legs_payout_idx').on(t.payoutId),
    check('payout_legs_kind_check', sql`${t.kind} in ('payout', 'contributor', 'fee')`),
    check(
      'payout_legs_status_check',
      sql`${t.status} in ('signed', 'sent', 'success', 'reverted', 'dropped')`,
    ),
  ],
);

/**
 * Signed transactions of a leg, stored before broadcast. Replacements (same nonce, higher fee)
 * add attempts; whichever attempt mines settles the leg.
 */
export const legAttempts = pgTable(
  'leg_attempts',
  {
    txHash: text('tx_hash').primaryKey(),
    legId: text('leg_id')
      .notNull()
      .references(() => payoutLegs.id),
    rawTx: text('raw_tx').notNull(),
    maxFeePerGas: units('max_fee_per_gas').notNull(),
    maxPriorityFeePerGas: units('max_priority_fee_per_gas').notNull(),
    createdAt: ts('created_at').notNull(),
    broadcastAt: ts('broadcast_at'),
  },
  (t) => [index('leg_attempts_leg_idx').on(t.legId, t.createdAt)],
);

/** GitHub webhook deliveries already handled, so a redelivery is acknowledged and ignored. */
export const webhookDeliveries = pgTable('webhook_deliveries', {
  id: text('id').primaryKey(),
  event: text('event').notNull(),
  receivedAt: ts('received_at').notNull(),
});
