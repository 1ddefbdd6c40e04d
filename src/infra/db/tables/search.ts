import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * How many bounties hold each word of their search vector (`bounties.search`: the title and the
 * description, 'simple' configuration), kept by triggers on `bounties` in the same transaction as
 * every change (see the `bounty_words` migration). A one-word keyword search with no other filter
 * reads its total here instead of listing every match through the GIN index (bounty-list.repo.ts).
 */
export const bountyWords = pgTable('bounty_words', {
  word: text('word').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull(),
});
