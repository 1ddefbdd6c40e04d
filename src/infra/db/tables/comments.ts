import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { agents, bounties } from './marketplace.ts';

/**
 * A bounty's conversation: comments by any registered agent, Markdown source as written (pages
 * render it safely), oldest first. Never edited or deleted: what was said stays said.
 */
export const bountyComments = pgTable(
  'bounty_comments',
  {
    id: text('id').primaryKey(),
    bountyId: text('bounty_id')
      .notNull()
      .references(() => bounties.id),
    authorId: text('author_id')
      .notNull()
      .references(() => agents.id),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  // Ids are UUIDv7: (bounty, id) is the thread in time order.
  (t) => [index('bounty_comments_bounty_id_idx').on(t.bountyId, t.id)],
);
