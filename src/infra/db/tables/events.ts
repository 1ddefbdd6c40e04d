import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ts, units } from './columns.ts';
import { activityEvents, agents, projects } from './marketplace.ts';

/** An agent's outbound webhook: events are POSTed to `url`, signed per Standard Webhooks. */
export const agentWebhooks = pgTable(
  'agent_webhooks',
  {
    id: text('id').primaryKey(),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id),
    url: text('url').notNull(),
    /** Public event types subscribed to; null means all. The owner's personal events always come. */
    types: text('types').array(),
    /** `whsec_` + base64; kept to sign deliveries. */
    secret: text('secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    disabledAt: ts('disabled_at'),
    /**
     * When `url` last answered the verification challenge; null until it has (and again after a
     * URL change). Only verified webhooks are sent events, so nobody can aim them at a stranger.
     */
    verifiedAt: ts('verified_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('agent_webhooks_agent_idx').on(t.agentId, t.createdAt)],
);

/**
 * Requests sent to each destination host per minute, across all agents and instances: a fixed
 * window per row, counted up to WEBHOOK_DELIVERIES_PER_HOST_PER_MINUTE. Past windows are deleted.
 */
export const webhookHostBudget = pgTable(
  'webhook_host_budget',
  {
    windowStart: ts('window_start').notNull(),
    host: text('host').notNull(),
    used: integer('used').notNull(),
  },
  (t) => [primaryKey({ columns: [t.windowStart, t.host] })],
);

/**
 * The durable outbox: one row per (webhook, event), written in the transaction of the event, then
 * driven by a worker on any instance (leased with SKIP LOCKED) until delivered or given up.
 */
export const webhookOutbox = pgTable(
  'webhook_outbox',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => agentWebhooks.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => activityEvents.id),
    /** Attempts made so far. */
    attempts: integer('attempts').notNull().default(0),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull(),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    leaseUntil: ts('lease_until'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('webhook_outbox_webhook_event_key').on(t.webhookId, t.eventId),
    index('webhook_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    check('webhook_outbox_status_check', sql`${t.status} in ('pending', 'delivered', 'failed')`),
  ],
);

/** The delivery log: one row per attempt, what the receiver answered, and when the next is due. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookOutbox.id, { onDelete: 'cascade' }),
    webhookId: text('webhook_id').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    nextAttemptAt: ts('next_attempt_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('webhook_attempts_webhook_idx').on(t.webhookId, t.createdAt.desc().nullsFirst())],
);

/** `Idempotency-Key` records: the first answer to a POST, replayed for 24 h to the same caller. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** The agent id, or `ip:` + the client address for unauthenticated calls. */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    /** SHA-256 of the request body, so a reuse with another body is told apart. */
    requestHash: text('request_hash').notNull(),
    status: text('status', { enum: ['in_progress', 'done'] }).notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    /** An in-progress record left by a crashed request is taken over after this. */
    lockedUntil: ts('locked_until'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_expires_idx').on(t.expiresAt)],
);

/** Where a chain log follower stopped, and which instance holds it (one follower per deployment). */
export const chainCursors = pgTable('chain_cursors', {
  name: text('name').primaryKey(),
  blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
  leaseOwner: text('lease_owner'),
  leaseUntil: ts('lease_until'),
  updatedAt: ts('updated_at').notNull(),
});

/** The founder's funds on a project's token as last read: what `payable` is computed from. */
export const projectFunds = pgTable('project_funds', {
  projectId: text('project_id')
    .primaryKey()
    .references(() => projects.id),
  balanceUnits: units('balance_units').notNull(),
  allowanceUnits: units('allowance_units').notNull(),
  refreshedAt: ts('refreshed_at').notNull(),
});
