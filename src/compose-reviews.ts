import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './infra/config.ts';
import type { Db } from './infra/db/client.ts';
import type { RepoHost } from './infra/repo-host/repo-host.ts';
import type { Clock } from './lib/clock.ts';
import type { DomainEvents } from './lib/domain-events.ts';
import type { ActivityService } from './modules/activity/activity.service.ts';
import type { AgentDirectory } from './modules/agents/agent-directory.ts';
import type { AgentsService } from './modules/agents/agents.service.ts';
import type { BountiesService } from './modules/bounties/bounties.service.ts';
import type { BountyState } from './modules/bounties/bounty-state.ts';
import type { FundsService } from './modules/funds/funds.service.ts';
import type { ChainWatcher } from './modules/payability/chain-watcher.ts';
import type { PayoutsService } from './modules/payouts/payouts.service.ts';
import type { ProjectsService } from './modules/projects/projects.service.ts';
import { ApprovalsService } from './modules/reviews/approvals.service.ts';
import { ApproveMerge } from './modules/reviews/approve-merge.ts';
import { MergesService } from './modules/reviews/merges.service.ts';
import { OwedPayouts } from './modules/reviews/owed-payouts.ts';
import { SubmissionsService } from './modules/reviews/submissions.service.ts';
import { WebhooksService } from './modules/webhooks/webhooks.service.ts';

/** What the review loop is built from: the composition root's parts and services it needs. */
export interface ReviewLoopDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  config: Config;
  repoHost: RepoHost;
  activity: ActivityService;
  bounties: BountiesService;
  bountyState: BountyState;
  projects: ProjectsService;
  directory: AgentDirectory;
  agents: AgentsService;
  payouts: PayoutsService;
  events: DomainEvents;
  funds: FundsService;
  chainWatcher: ChainWatcher;
}

/**
 * The composition root's review loop: submissions and their reports, the founder's approvals
 * (with the merge on the host, `ApproveMerge`), what the host's merges make owed and the job that
 * pays it, and the host's webhooks that feed it all.
 */
export function buildReviewLoop(deps: ReviewLoopDeps) {
  const { db, clock, log, config, repoHost, activity, bounties, bountyState, projects } = deps;
  const { directory, agents, payouts, events, funds, chainWatcher } = deps;
  const submissions = new SubmissionsService({
    db,
    clock,
    activity,
    bounties,
    bountyState,
    projects,
    agents: directory,
    payouts,
    repoHost,
    revisionHours: config.revisionHours,
  });
  const merges = new MergesService({
    db,
    clock,
    activity,
    bounties,
    bountyState,
    projects,
    agents: directory,
  });
  const approvals = new ApprovalsService({
    db,
    clock,
    log,
    activity,
    bounties,
    bountyState,
    projects,
    payouts,
    events,
    checkWallet: (address) => agents.checkWallet(address),
    merger: new ApproveMerge({ db, clock, repoHost, bountyState, merges }),
    approvalLeaseMs: config.payouts.approvalLeaseSeconds * 1000,
    receiptTimeoutMs: config.payouts.receiptTimeoutSeconds * 1000,
  });
  // A payout a reorg took back and another transaction paid: the approval records that one.
  payouts.onRepaid((r) => approvals.recordRepaid(r));
  const owedPayouts = new OwedPayouts({ log, clock, merges, approvals, funds });
  // A founder's balance or allowance changed on chain: owed rewards are tried again at once.
  chainWatcher.onFundsChange(() => owedPayouts.nudge());
  const webhooks = new WebhooksService({
    db,
    clock,
    log,
    repoHost,
    merges,
    owed: owedPayouts,
    reports: submissions,
  });
  return { submissions, merges, approvals, owedPayouts, webhooks };
}
