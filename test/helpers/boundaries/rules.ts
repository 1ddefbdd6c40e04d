/**
 * The declarations the boundary check holds the tree to (docs/architecture.md, "Boundaries").
 * Derived from the tree as it is and kept tight: a new cross-module import, read or lock has to
 * be declared here, where a reviewer sees it.
 */

/** The only files that may import src/dev: the process entry picks the real parts. */
export const COMPOSITION_ROOT = ['src/main.ts'];

/** Who writes (and row-locks) each table: a folder. A new table without an owner fails. */
export const OWNERS: Record<string, string> = {
  agents: 'src/modules/agents/',
  projects: 'src/modules/projects/',
  bounties: 'src/modules/bounties/',
  // Kept by triggers on bounties (migrations 0001 and 0018); nobody writes them from code.
  bounty_counts: 'src/modules/bounties/',
  bounty_words: 'src/modules/bounties/',
  claim_cooldowns: 'src/modules/bounties/',
  bounty_comments: 'src/modules/comments/',
  submissions: 'src/modules/reviews/',
  activity_events: 'src/modules/activity/',
  agent_webhooks: 'src/modules/agent-webhooks/',
  webhook_outbox: 'src/modules/agent-webhooks/',
  webhook_attempts: 'src/modules/agent-webhooks/',
  webhook_host_budget: 'src/modules/agent-webhooks/',
  webhook_deliveries: 'src/modules/webhooks/',
  chain_cursors: 'src/modules/payability/',
  project_funds: 'src/modules/payability/',
  wallet_keys: 'src/modules/wallets/',
  // The transaction engine's: every signer's nonce and lease, each request, each signed transaction.
  account_nonces: 'src/modules/transactions/',
  wallet_txs: 'src/modules/transactions/',
  wallet_intents: 'src/modules/transactions/',
  token_states: 'src/modules/holdings/',
  token_balances: 'src/modules/holdings/',
  holder_scans: 'src/modules/holdings/',
  eth_balances: 'src/modules/holdings/',
  payout_funds_locks: 'src/modules/payouts/',
  payouts: 'src/modules/payouts/',
  idempotency_keys: 'src/infra/http/',
  web_sessions: 'src/web/',
};

/**
 * Row locks taken on another module's table, which the lock rule would refuse: each would be a
 * statement that belongs in the owner's repo, behind the owner's service. None is left (issue 27):
 * payouts lock a submission through reviews' port, bounties and agent-webhooks lock an agent
 * through the agents module's `AgentDirectory.lock`. A new entry needs its reason here.
 */
export const LOCK_EXCEPTIONS: { file: string; table: string; why: string }[] = [];

export interface UnitRule {
  /** Files (relative to the unit) any other unit may import; `*`: every file but a `*.repo.ts`. */
  public: string[];
  /** Further files only the composition root (the files at src's top) imports: routes, workers. */
  root?: string[];
  /** Read models: a file of this unit (relative to it) and the other owners' tables it may read. */
  reads?: Record<string, string[]>;
}

/**
 * The units of src: each module folder, and infra, lib, web, mcp and dev. The files at src's top
 * (main.ts, app.ts, compose.ts, compose-reviews.ts) are the composition root, one unit each in the
 * module graph; `src/` declares what of them others may import.
 */
export const UNITS: Record<string, UnitRule> = {
  // Pages and MCP tools take the `Services` that compose.ts declares.
  'src/': { public: ['compose.ts'] },
  'src/infra/': { public: ['*'] },
  'src/lib/': { public: ['*'] },
  'src/dev/': { public: [], root: ['local-repo-host/server.ts'] },
  // The stdio bridge (stdio.ts) is the CLI's to load: see OUTSIDE.
  'src/mcp/': { public: [], root: ['mcp.routes.ts'] },
  'src/web/': {
    // The local repository host (src/dev) renders the console's diff with the web's templates.
    public: ['console/diff.ts', 'markdown.ts', 'web-core.ts'],
    root: [
      'console/console.plugin.ts',
      'public/docs-ui.ts',
      'public/public-pages.ts',
      'repo-host-sign-in.ts',
      'session.ts',
    ],
    reads: {
      'console/console.repo.ts': ['bounties', 'payouts', 'projects', 'submissions', 'wallet_intents'],
      'session.ts': ['agents'],
    },
  },
  'src/modules/activity/': {
    public: ['activity.service.ts', 'activity.schemas.ts', 'activity-stream.ts'],
    root: ['activity.routes.ts'],
  },
  'src/modules/agent-docs/': { public: [], root: ['agent-docs.routes.ts'] },
  'src/modules/agent-webhooks/': {
    public: ['agent-webhooks.schemas.ts'],
    root: [
      'agent-webhooks.routes.ts',
      'agent-webhooks.service.ts',
      'http-sender.ts',
      'url-guard.ts',
      'webhook-delivery.ts',
    ],
    reads: { 'agent-webhooks.repo.ts': ['activity_events'] },
  },
  'src/modules/agents/': {
    public: ['agents.service.ts', 'agents.schemas.ts', 'agent-directory.ts'],
    root: ['agents.routes.ts', 'repo-identity.ts'],
  },
  'src/modules/audit/': { public: ['money-audit.ts'] },
  'src/modules/bounties/': {
    public: [
      'bounties.service.ts',
      'bounties.schemas.ts',
      'bounties.mappers.ts',
      'bounty-state.ts',
      'bounty-repository.ts',
      'bounty-repository.schemas.ts',
    ],
    root: ['bounties.routes.ts', 'bounty-repository.routes.ts'],
    reads: {
      'bounties.repo.ts': ['projects', 'submissions', 'token_states'],
      'bounty-list.repo.ts': ['projects', 'token_states'],
      'bounty-state.repo.ts': ['agents', 'project_funds', 'projects', 'submissions'],
      'claim-limits.repo.ts': ['submissions'],
    },
  },
  'src/modules/comments/': {
    public: ['comments.schemas.ts'],
    root: ['comments.routes.ts', 'comments.service.ts'],
    reads: { 'comments.repo.ts': ['agents'] },
  },
  'src/modules/config/': { public: [], root: ['config.routes.ts', 'config.service.ts'] },
  'src/modules/events/': {
    public: [],
    root: ['event-bus.ts', 'events.routes.ts', 'events.service.ts', 'stream-slots.ts'],
  },
  'src/modules/funds/': { public: ['funds.service.ts'] },
  'src/modules/holdings/': { public: ['holdings.service.ts'], reads: { 'holdings.repo.ts': ['projects'] } },
  'src/modules/operations/': {
    public: [],
    root: ['operations.ts'],
    // The metrics' gauges: pending payouts, their transactions and webhook deliveries, counted when scraped.
    reads: { 'operations.repo.ts': ['payouts', 'wallet_intents', 'webhook_outbox'] },
  },
  'src/modules/payability/': {
    public: ['payability.service.ts'],
    root: ['chain-watcher.ts'],
    reads: { 'payability.repo.ts': ['agents', 'projects'] },
  },
  'src/modules/payouts/': {
    public: ['payouts.service.ts', 'fee-split.ts', 'payouts-audit.ts', 'payouts-audit.context.ts'],
    // The funds reservation counts the wallet's payout transactions in flight, and a payout's
    // failure waits for none to be: the transaction engine's intents of the payout key.
    reads: {
      'payouts.repo.ts': ['wallet_intents'],
      'reservation.repo.ts': ['wallet_intents', 'wallet_txs'],
    },
  },
  'src/modules/prices/': { public: ['prices.service.ts'] },
  'src/modules/projects/': {
    public: ['projects.service.ts', 'projects.schemas.ts'],
    root: ['activation.service.ts', 'projects.routes.ts'],
    reads: { 'projects.repo.ts': ['bounties', 'submissions'] },
  },
  'src/modules/reviews/': {
    public: ['submissions.service.ts', 'merges.service.ts', 'reviews.schemas.ts', 'pr-report.ts'],
    root: ['approvals.service.ts', 'approve-merge.ts', 'owed-payouts.ts', 'reviews.routes.ts'],
    reads: {
      'owed.repo.ts': ['bounties', 'payouts', 'projects', 'wallet_intents'],
      'review-queue.repo.ts': ['bounties', 'projects', 'token_states'],
      'submissions.repo.ts': ['agents', 'bounties', 'payouts', 'projects'],
    },
  },
  'src/modules/stats/': { public: [], root: ['stats.routes.ts', 'stats.service.ts'] },
  // The transaction engine: its clients (wallets today) record requests through the journal and
  // declare their kinds' policies; the composition root runs the engine.
  'src/modules/transactions/': {
    public: ['journal.ts', 'account-lease.ts', 'transactions.types.ts'],
    root: ['engine.ts'],
  },
  'src/modules/wallets/': {
    public: ['wallets.service.ts', 'wallets.schemas.ts'],
    root: ['wallet-kinds.ts', 'wallets.routes.ts'],
    // The wallet page in one statement: the holdings' balances and curves, the approved submissions
    // with their bounties' projects (a join of bounties inside the SQL template).
    reads: {
      'wallet-view.repo.ts': [
        'bounties',
        'eth_balances',
        'holder_scans',
        'projects',
        'submissions',
        'token_balances',
        'token_states',
        'wallet_intents',
      ],
    },
  },
  'src/modules/webhooks/': { public: [], root: ['webhooks.routes.ts', 'webhooks.service.ts'] },
};

/**
 * What the folders outside src may import from outside themselves (a path, or a folder ending in
 * `/`). The typed client is a package of its own and talks HTTP; the CLI sits on that client's
 * entry and loads the stdio MCP bridge on demand; the scripts start the app, the infrastructure
 * and the audits.
 */
export const OUTSIDE: Record<string, { imports: string[]; reads?: Record<string, string[]> }> = {
  'clients/typescript/': { imports: [] },
  'clients/cli/': { imports: ['clients/typescript/index.ts', 'src/mcp/stdio.ts'] },
  'scripts/': {
    imports: [
      'src/app.ts',
      'src/infra/',
      'src/lib/',
      'src/modules/audit/money-audit.ts',
      'src/modules/payouts/payouts-audit.ts',
      'src/modules/payouts/payout-legs.ts',
    ],
    // The money audit reads the ledger it checks (npm run audit:money).
    reads: {
      'lib/money-audit-sources.ts': [
        'agents',
        'bounties',
        'payouts',
        'projects',
        'submissions',
        'wallet_intents',
        'wallet_txs',
      ],
      'lib/payout-audit-sources.ts': [
        'agents',
        'bounties',
        'payouts',
        'projects',
        'submissions',
        'wallet_intents',
        'wallet_txs',
      ],
    },
  },
};
