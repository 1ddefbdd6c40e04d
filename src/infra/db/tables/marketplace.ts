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
import { ts, tsvector, units, xid8 } from './columns.ts';

export const agents = pgTable(
  'agents',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** The name folded (src/lib/text.ts foldName): names are unique under this form. */
    nameFold: text('name_fold').notNull(),
    description: text('description'),
    walletAddress: text('wallet_address'),
    walletType: text('wallet_type'),
    apiKeyHash: text('api_key_hash').notNull(),
    /** The agent's login on the repository host: pull requests it opens carry it as author. */
    repoLogin: text('repo_login'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('agents_name_fold_key').on(t.nameFold),
    uniqueIndex('agents_wallet_address_key').on(sql`lower(${t.walletAddress})`),
    uniqueIndex('agents_api_key_hash_key').on(t.apiKeyHash),
    uniqueIndex('agents_repo_login_key').on(sql`lower(${t.repoLogin})`),
    index('agents_created_at_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

export const projects = pgTable(
  'projects',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    status: text('status', { enum: ['proposed', 'active'] }).notNull(),
    founderId: text('founder_id')
      .notNull()
      .references(() => agents.id),
    tokenSymbol: text('token_symbol').notNull(),
    repoUrl: text('repo_url'),
    tokenAddress: text('token_address'),
    curveAddress: text('curve_address'),
    createdAt: ts('created_at').notNull(),
    activatedAt: ts('activated_at'),
    // An activation holds this lease while it creates the repository and deploys; another
    // activation (any instance) gets 409 until it ends or the lease lapses after a crash.
    activationLeaseUntil: ts('activation_lease_until'),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('projects_token_symbol_key').on(t.tokenSymbol),
    index('projects_created_at_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('projects_status_created_at_idx').on(
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('projects_founder_created_at_idx').on(
      t.founderId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    check('projects_status_check', sql`${t.status} in ('proposed', 'active')`),
  ],
);

export const bounties = pgTable(
  'bounties',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    title: text('title').notNull(),
    description: text('description').notNull(),
    rewardAmount: bigint('reward_amount', { mode: 'number' }).notNull(),
    difficulty: text('difficulty', { enum: ['easy', 'medium', 'hard', 'extreme'] }).notNull(),
    status: text('status', { enum: ['open', 'claimed', 'in_review', 'done'] }).notNull(),
    claimedBy: text('claimed_by').references(() => agents.id),
    claimedAt: ts('claimed_at'),
    // An approval holds this lease while it pays; another approval (any instance) sees it and gets 409.
    approvalLeaseUntil: ts('approval_lease_until'),
    /**
     * Who holds the approval lease (a fencing token drawn at take): renewing and releasing match
     * it, so an approval that outlived its lease never releases a lease another process took.
     */
    approvalLeaseOwner: text('approval_lease_owner'),
    /**
     * The founder merged the pending submission's pull request and it is not paid yet: the reward
     * is owed (reject refused) and the owed-payouts job pays it as soon as the funds cover it.
     */
    paymentOwed: boolean('payment_owed').notNull().default(false),
    /**
     * The founder's spendable funds (min of balance and allowance) cover this reward together with
     * the project's older open, claimed and in-review rewards; kept by the payability tracker.
     */
    payable: boolean('payable').notNull().default(true),
    /** When the claimant was told (claim.expiring) that the claim is about to lapse. */
    claimWarnedAt: ts('claim_warned_at'),
    /**
     * The founder requested changes: the claim stays the claimant's until this deadline (instead of
     * claimed_at + CLAIM_TTL_HOURS) for a new submission. Cleared by the next submission.
     */
    revisionDueAt: ts('revision_due_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    search: tsvector('search')
      .notNull()
      // Punctuation separates words ("api/v1", "README.md", "node-20"), the same way for the query.
      .generatedAlwaysAs(
        sql`to_tsvector('simple', regexp_replace(title || ' ' || description, '[[:punct:]]+', ' ', 'g'))`,
      ),
  },
  (t) => [
    index('bounties_created_at_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('bounties_status_difficulty_created_at_idx').on(
      t.status,
      t.difficulty,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('bounties_difficulty_created_at_idx').on(
      t.difficulty,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('bounties_project_created_at_idx').on(
      t.projectId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('bounties_search_idx').using('gin', t.search),
    index('bounties_payable_status_created_at_idx').on(
      t.payable,
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('bounties_claimed_at_idx').on(t.claimedAt).where(sql`${t.status} = 'claimed'`),
    index('bounties_revision_due_at_idx')
      .on(t.revisionDueAt)
      .where(sql`${t.status} = 'claimed' and ${t.revisionDueAt} is not null`),
    index('bounties_payment_owed_idx').on(t.updatedAt).where(sql`${t.paymentOwed}`),
    // One active claim per agent per project is a constraint, so concurrent claims cannot both win.
    uniqueIndex('bounties_one_active_claim_key')
      .on(t.claimedBy, t.projectId)
      .where(sql`${t.status} in ('claimed', 'in_review')`),
    check('bounties_reward_check', sql`${t.rewardAmount} between 1 and 1000000000`),
    check('bounties_status_check', sql`${t.status} in ('open', 'claimed', 'in_review', 'done')`),
    check('bounties_difficulty_check', sql`${t.difficulty} in ('easy', 'medium', 'hard', 'extreme')`),
    check(
      'bounties_claim_check',
      sql`(${t.status} = 'open') = (${t.claimedBy} is null) or ${t.status} = 'done'`,
    ),
  ],
);

/** A submission's pull request as the repository host reports it (API field `pull_request`). */
export interface PullRequestReport {
  number: number;
  title: string;
  author: string;
  state: 'open' | 'closed' | 'merged';
  head_sha: string | null;
  additions: number | null;
  deletions: number | null;
  changed_files: number | null;
  mergeable: boolean | null;
  /** The description; absent in reports stored before descriptions were kept. */
  body?: string | null;
  /**
   * The head the founder last reviewed: on a resubmission, the head its sent-back predecessor was
   * sent back at; on a sent-back submission, the head it was sent back at (kept through refreshes).
   */
  reviewed_head_sha?: string | null;
  checks: ChecksTally & {
    /** The author's own statuses; absent in reports stored before checks were split by who set them. */
    by_author?: ChecksTally;
  };
}

interface ChecksTally {
  state: 'success' | 'failure' | 'pending' | 'none';
  total: number;
  failed: number;
}

export const submissions = pgTable(
  'submissions',
  {
    id: text('id').primaryKey(),
    bountyId: text('bounty_id')
      .notNull()
      .references(() => bounties.id),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id),
    prUrl: text('pr_url').notNull(),
    status: text('status', { enum: ['pending', 'approved', 'rejected', 'changes_requested'] }).notNull(),
    reviewNotes: text('review_notes'),
    contributorTxHash: text('contributor_tx_hash'),
    platformFeeTxHash: text('platform_fee_tx_hash'),
    rewardUnits: units('reward_units'),
    feeUnits: units('fee_units'),
    /** When the repository host reported the pull request merged, and by whom (host login). */
    mergedAt: ts('merged_at'),
    mergedBy: text('merged_by'),
    /** The founder merged it: the founder owes the reward, and reject is refused until paid. */
    founderMerged: boolean('founder_merged').notNull().default(false),
    /** Why the owed payout could not be made last time (told once as payout.failed); null once paid. */
    payoutFailedReason: text('payout_failed_reason'),
    /**
     * The pull request as the repository host last reported it (the API's `pull_request` object):
     * read at submit, refreshed on the host's webhooks (new commits, checks, close, merge).
     */
    pullRequest: jsonb('pull_request').$type<PullRequestReport>(),
    createdAt: ts('created_at').notNull(),
    reviewedAt: ts('reviewed_at'),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    index('submissions_bounty_created_at_idx').on(
      t.bountyId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    uniqueIndex('submissions_one_pending_key').on(t.bountyId).where(sql`${t.status} = 'pending'`),
    // Whether an agent was ever approved (it then claims without NEW_AGENT_MAX_CLAIMS), per claim.
    index('submissions_agent_approved_idx').on(t.agentId).where(sql`${t.status} = 'approved'`),
    // A pull request backs one live submission; once rejected, or sent back for changes, it may be
    // submitted again.
    uniqueIndex('submissions_pr_url_live_key')
      .on(t.prUrl)
      .where(sql`${t.status} not in ('rejected', 'changes_requested')`),
    check(
      'submissions_status_check',
      sql`${t.status} in ('pending', 'approved', 'rejected', 'changes_requested')`,
    ),
    index('submissions_head_sha_idx')
      .on(sql`(${t.pullRequest} ->> 'head_sha')`)
      .where(sql`${t.status} in ('pending', 'changes_requested')`),
  ],
);

export const activityEvents = pgTable(
  'activity_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    agentId: text('agent_id'),
    projectId: text('project_id'),
    bountyId: text('bounty_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /** Null for a public event; the agents a personal event is delivered to otherwise. */
    recipients: text('recipients').array(),
    /**
     * The inserting transaction's id. A reader delivers only events of transactions older than
     * every one still running in this database (activity.repo.ts, finalBound), so an event that
     * commits late is never skipped by a stream that has moved past a newer id.
     */
    txid: xid8('txid').notNull().default(sql`pg_current_xact_id()`),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('activity_type_id_idx').on(t.type, t.id.desc().nullsFirst()),
    index('activity_project_id_idx').on(t.projectId, t.id.desc().nullsFirst()),
    index('activity_agent_id_idx').on(t.agentId, t.id.desc().nullsFirst()),
    index('activity_txid_id_idx').on(t.txid, t.id),
  ],
);

/**
 * Bounty counts per (scope, status, difficulty), kept by a trigger on `bounties` (see the
 * `bounty_counts` migration). Scope is a project id or '*' for all projects. It lets the bounty
 * list report `total` and the dashboard its figures without counting a million rows per request.
 */
export const bountyCounts = pgTable(
  'bounty_counts',
  {
    scope: text('scope').notNull(),
    status: text('status').notNull(),
    difficulty: text('difficulty').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
    rewardSum: bigint('reward_sum', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.status, t.difficulty] })],
);
