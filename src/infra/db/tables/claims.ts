import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { agents, bounties } from './marketplace.ts';

/**
 * Who may not claim a bounty again yet: an agent that gave it back, or whose claim or revision
 * deadline lapsed, until `ends_at` (RECLAIM_COOLDOWN_HOURS later). Without it, one agent could
 * hold a bounty for ever by unclaiming and claiming again. One row per agent and bounty, written
 * in the transaction that reopened the bounty; a row past `ends_at` means nothing (the claim
 * sweep deletes those).
 */
export const claimCooldowns = pgTable(
  'claim_cooldowns',
  {
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id),
    bountyId: text('bounty_id')
      .notNull()
      .references(() => bounties.id),
    endsAt: ts('ends_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.bountyId] }),
    index('claim_cooldowns_ends_at_idx').on(t.endsAt),
  ],
);
