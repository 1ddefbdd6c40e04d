import type { FastifyBaseLogger } from 'fastify';
import { wireEffects } from './compose-effects.ts';
import { buildReviewLoop } from './compose-reviews.ts';
import { transactionClients } from './compose-transactions.ts';
import type { Chain } from './infra/chain/chain.ts';
import type { WalletVault } from './infra/chain/wallet-vault.ts';
import type { Config } from './infra/config.ts';
import type { Database } from './infra/db/client.ts';
import type { Metrics } from './infra/metrics.ts';
import { type RepoHost, unavailableRepoHost } from './infra/repo-host/repo-host.ts';
import type { Clock } from './lib/clock.ts';
import { DomainEvents } from './lib/domain-events.ts';
import { ActivityService } from './modules/activity/activity.service.ts';
import { AgentWebhooksService } from './modules/agent-webhooks/agent-webhooks.service.ts';
import { postJson, type Sender } from './modules/agent-webhooks/http-sender.ts';
import { systemResolver } from './modules/agent-webhooks/url-guard.ts';
import { WebhookDelivery } from './modules/agent-webhooks/webhook-delivery.ts';
import { AgentDirectory } from './modules/agents/agent-directory.ts';
import { AgentsService } from './modules/agents/agents.service.ts';
import { RepoIdentity } from './modules/agents/repo-identity.ts';
import { BountiesService } from './modules/bounties/bounties.service.ts';
import { BountyRepository } from './modules/bounties/bounty-repository.ts';
import { BountyState } from './modules/bounties/bounty-state.ts';
import { CommentsService } from './modules/comments/comments.service.ts';
import { EventBus } from './modules/events/event-bus.ts';
import { EventsService } from './modules/events/events.service.ts';
import { StreamSlots } from './modules/events/stream-slots.ts';
import { FundsService } from './modules/funds/funds.service.ts';
import { HoldingsService } from './modules/holdings/holdings.service.ts';
import { ChainWatcher } from './modules/payability/chain-watcher.ts';
import { PayabilityService } from './modules/payability/payability.service.ts';
import { PayoutsService } from './modules/payouts/payouts.service.ts';
import { PricesService } from './modules/prices/prices.service.ts';
import { ActivationService } from './modules/projects/activation.service.ts';
import { ProjectsService } from './modules/projects/projects.service.ts';
import { lockSubmissionStatus } from './modules/reviews/submissions.service.ts';
import { StatsService } from './modules/stats/stats.service.ts';
import { TransactionEngine } from './modules/transactions/engine.ts';
import { TransactionJournal } from './modules/transactions/journal.ts';
import { WalletsService } from './modules/wallets/wallets.service.ts';

// A repository plus a contract deployment take seconds; a crashed activation is retryable after this.
const ACTIVATION_LEASE_MS = 5 * 60_000;

/**
 * The parts the services are built from; `AppDeps` (app.ts) adds what only the HTTP app needs.
 * Declared here, not in app.ts, so that the pages and the MCP server, which import `Services`,
 * never reach app.ts through this file.
 */
export interface ServiceDeps {
  database: Database;
  chain: Chain;
  clock: Clock;
  config: Config;
  /** Where project repositories live; without one, activation and submit answer 503. */
  repoHost?: RepoHost;
  /** Seals custodial wallet keys; null when no master key is configured (no in-app wallets). */
  vault?: WalletVault | null;
  /** Where the webhook delivery reports its failures; none in tests that build no metrics. */
  metrics?: Metrics;
  /** How webhook requests are POSTed: `postJson`, unless a test must contact no receiver. */
  webhookSender?: Sender;
}

/** The composition root's half that builds every service from the parts it is given. */
export function buildServices(
  {
    database,
    chain,
    clock,
    config,
    repoHost = unavailableRepoHost,
    vault = null,
    metrics,
    webhookSender = postJson,
  }: ServiceDeps,
  log: FastifyBaseLogger,
) {
  const db = database.db;
  const activity = new ActivityService(db, clock);
  const webhookTargets = {
    allowPrivate: config.webhookAllowPrivateUrls,
    resolve: systemResolver,
    send: webhookSender,
    perHostPerMinute: config.webhookDeliveriesPerHostPerMinute,
  };
  const directory = new AgentDirectory(db);
  const agentWebhooks = new AgentWebhooksService({ db, clock, agents: directory, ...webhookTargets });
  // Every event fans out to the webhook outbox inside its own transaction.
  activity.onRecord((tx, event) => agentWebhooks.enqueue(tx, event));
  const webhookDelivery = new WebhookDelivery({
    db,
    clock,
    log,
    activity,
    ...webhookTargets,
    onFailure: metrics && (() => metrics.webhookDeliveryFailed()),
  });
  const funds = new FundsService({ chain });
  const reservedAddresses = [
    chain.info?.operatorAddress,
    chain.payoutSigner.address || undefined,
    chain.info?.payoutSpenderAddress,
    chain.info?.treasuryAddress,
    chain.info?.factoryAddress,
  ].filter((a): a is string => typeof a === 'string');
  const projects = new ProjectsService({ db, clock, activity });
  // What reviews, payouts and payability change on a bounty; needs only the database.
  const bountyState = new BountyState(db);
  // What wallets hold and what it is worth, kept from the token logs the watcher reads.
  const holdings = new HoldingsService({ db, clock, chain, platformFeeBps: config.platformFeeBps, log });
  // What happened, told after commit to the views that follow it (compose-effects.ts).
  const domainEvents = new DomainEvents(log);
  const payability = new PayabilityService({
    db,
    clock,
    chain,
    activity,
    bounties: bountyState,
    holdings,
    log,
  });
  // The one transaction engine for every key the service signs with (the payout key, the sponsor,
  // in-app wallets): the journal records each request, the engine follows it to the end.
  const { kinds, keyOf } = transactionClients({
    config,
    chain,
    wallets: () => wallets,
    payouts: () => payouts,
  });
  const txJournal = new TransactionJournal({
    db,
    clock,
    chain,
    activity,
    log,
    kinds,
    waitMs: config.payouts.receiptTimeoutSeconds * 1000,
    onGap: (signer) => txEngine.nudge(signer),
  });
  const chainWatcher = new ChainWatcher({
    db,
    clock,
    chain,
    payability,
    holdings,
    log,
    intervalSeconds: config.chain.watchIntervalSeconds,
  });
  // The ETH/USD price next to ETH values, from ETH_USD_FEED_ADDRESS (none: no dollars shown).
  const prices = new PricesService({ chain, clock, log, ethUsdFeedAddress: config.chain.ethUsdFeedAddress });
  const bounties = new BountiesService({
    db,
    clock,
    funds,
    activity,
    projects,
    agents: directory,
    events: domainEvents,
    claimTtlHours: config.claimTtlHours,
    revisionHours: config.revisionHours,
    platformFeeBps: config.platformFeeBps,
    reclaimCooldownHours: config.reclaimCooldownHours,
    newAgentMaxClaims: config.newAgentMaxClaims,
    prices,
  });
  const wallets = new WalletsService({
    db,
    clock,
    chain,
    vault,
    projects,
    bounties,
    funds,
    events: domainEvents,
    journal: txJournal,
    holdings,
    prices,
    sponsoredWithdrawalsPerDay: config.sponsor.withdrawalsPerDay,
    sponsoredWithdrawMinEthUnits: config.sponsor.withdrawMinEthUnits,
    platformAddresses: [...reservedAddresses, ...(chain.sponsor.address ? [chain.sponsor.address] : [])],
    devChain: chain.info?.devChain ?? false,
  });
  const txEngine = new TransactionEngine({
    db,
    clock,
    log,
    chain,
    journal: txJournal,
    kinds,
    keyOf,
    confirmations: config.payouts.confirmations,
    stuckAfterMs: config.payouts.stuckAfterSeconds * 1000,
    maxFeePerGas: BigInt(config.payouts.maxFeePerGasGwei) * 10n ** 9n,
  });
  const agents = new AgentsService({
    db,
    clock,
    activity,
    directory,
    identity: new RepoIdentity({ db, clock, repoHost }),
    reservedAddresses,
    projects,
    activeClaimsOf: (id) => bounties.activeClaimsOf(id),
    createWallet: vault ? (tx, id) => wallets.create(tx, id) : null,
    inAppOwnerOf: (address) => wallets.ownerOf(address),
  });
  const payouts = new PayoutsService({
    db,
    clock,
    chain,
    funds,
    log,
    platformFeeBps: config.platformFeeBps,
    payoutsEnabled: config.payoutsEnabled,
    pollIntervalMs: config.chain.pollingIntervalMs,
    journal: txJournal,
    follow: (ids: string[]): Promise<number> => txEngine.followNow(ids),
    revertConfirmations: config.payouts.revertConfirmations,
    confirmations: config.payouts.confirmations,
    maxFeePerGasGwei: config.payouts.maxFeePerGasGwei,
    // Payouts sign only while the submission is pending, its row locked by its owner.
    lockSubmission: lockSubmissionStatus,
  });
  // The review loop, from a submission to a paid (or owed) approval.
  const { submissions, merges, approvals, owedPayouts, webhooks } = buildReviewLoop({
    db,
    clock,
    log,
    config,
    repoHost,
    activity,
    bounties,
    bountyState,
    projects,
    directory,
    agents,
    payouts,
    events: domainEvents,
    funds,
    chainWatcher,
  });
  const activation = new ActivationService({
    db,
    clock,
    chain,
    repoHost,
    activity,
    agents: directory,
    projects,
    leaseMs: ACTIVATION_LEASE_MS,
    events: domainEvents,
  });
  wireEffects(domainEvents, { holdings, payability });
  const stats = new StatsService({ agents, projects, bounties });
  const events = new EventsService({
    db,
    log,
    bus: new EventBus({
      database,
      log,
      pollMs: config.events.pollMs,
      heartbeatMs: config.events.heartbeatMs,
    }),
    maxBufferBytes: config.events.maxBufferBytes,
    slots: new StreamSlots(config.events.maxStreamsPerClient, metrics?.eventStreams),
  });
  return {
    activity,
    directory,
    funds,
    agents,
    projects,
    activation,
    bounties,
    comments: new CommentsService({ db, clock, activity, bounties, projects, agents: directory }),
    bountyRepository: new BountyRepository({ bounties, projects, agents: directory, repoHost }),
    bountyState,
    wallets,
    payouts,
    submissions,
    approvals,
    owedPayouts,
    merges,
    webhooks,
    payability,
    holdings,
    prices,
    txJournal,
    txEngine,
    chainWatcher,
    agentWebhooks,
    webhookDelivery,
    stats,
    events,
  };
}

export type Services = ReturnType<typeof buildServices>;
