import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { agents } from './marketplace.ts';

/**
 * Signed-in browser sessions. The cookie holds a random token; only its SHA-256 is stored, so a
 * database leak opens no session. The API key that signed in is never stored here or in the browser.
 */
export const webSessions = pgTable(
  'web_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id),
    /** The synchronizer token every form of this session must send back. */
    csrfToken: text('csrf_token').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('web_sessions_agent_idx').on(t.agentId), index('web_sessions_expires_idx').on(t.expiresAt)],
);
