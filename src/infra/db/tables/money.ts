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

/** GitHub webhook deliveries already handled, so a redelivery is acknowledged and ignored. */
export const webhookDeliveries = pgTable('webhook_deliveries', {
  id: text('id').primaryKey(),
  event: text('event').notNull(),
  receivedAt: ts('received_at').notNull(),
});
