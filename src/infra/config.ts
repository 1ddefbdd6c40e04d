import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { reader } from './config-reader.ts';

/**
 * The service's whole configuration, parsed once from the environment at boot. Nothing else
 * reads process.env. Every bad variable is reported together so one restart fixes them all.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** LOG_FORMAT; unset: human-readable on a terminal, JSON lines otherwise (see logger.ts). */
  logFormat: 'json' | 'pretty' | undefined;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: traces go to `{endpoint}/v1/traces` (OTLP/HTTP); none when unset. */
  otelEndpoint: string | undefined;
  trustProxy: boolean;
  platformFeeBps: number;
  payoutsEnabled: boolean;
  claimTtlHours: number;
  /** REVISION_HOURS: how long a claimant has to submit again after the founder requested changes. */
  revisionHours: number;
  /** RECLAIM_COOLDOWN_HOURS: how long an agent may not claim a bounty it gave back or let lapse. */
  reclaimCooldownHours: number;
  /** NEW_AGENT_MAX_CLAIMS: the active claims, in all projects, of an agent never approved. */
  newAgentMaxClaims: number;
  claimSweepIntervalSeconds: number;
  redisUrl: string | undefined;
  rateLimit: {
    perIpPerMinute: number;
    perKeyPerMinute: number;
    registerPerIpPerHour: number;
    /**
     * RATE_LIMIT_KEYS_PER_IP_PER_MINUTE: requests one client (an IPv4 address or an IPv6 /64) may
     * send per minute with API keys, all its keys together; by default four keys' worth.
     */
    keysPerIpPerMinute: number;
  };
  shutdownTimeoutMs: number;
  /** How long GET /api/bounties answers one URL again while no event happened; 0: never. */
  bountyListCacheMs: number;
  /** GET /api/events (Server-Sent Events). */
  events: {
    /** A comment line goes to every stream this often (the contract: at least every 15 s). */
    heartbeatMs: number;
    /** Safety poll of the shared reader, in case a NOTIFY is lost. */
    pollMs: number;
    /** Unread bytes a client may accumulate before its stream is dropped (it resumes with Last-Event-ID). */
    maxBufferBytes: number;
    /** Concurrent streams one API key (or one client IP without a key) may hold on this instance. */
    maxStreamsPerClient: number;
  };
  /** Without `rpcUrl` the service starts its own anvil dev chain in DATA_DIR. */
  chain: {
    rpcUrl: string | undefined;
    /**
     * The RPC URL clients are told (public config). CHAIN_RPC_URL often carries a provider's API
     * key, so it is never published; without this, a configured chain publishes none.
     */
    publicRpcUrl: string | undefined;
    chainId: number | undefined;
    name: string | undefined;
    explorerUrl: string | undefined;
    factoryAddress: string | undefined;
    treasuryAddress: string | undefined;
    operatorKey: string | undefined;
    payoutKey: string | undefined;
    /**
     * SPONSOR_PRIVATE_KEY: pays the gas of in-app wallets that hold no ETH (sales take it back).
     * Its own key, never the operator's or the payout key; without it (configured chain) nothing
     * is sponsored. The dev chain derives and funds one.
     */
    sponsorKey: string | undefined;
    pollingIntervalMs: number;
    /** How often the leased watcher reads the project tokens' Transfer and Approval logs (payability). */
    watchIntervalSeconds: number;
    /**
     * ETH_USD_FEED_ADDRESS: a Chainlink-style ETH/USD aggregator on this chain; with it, ETH values
     * also show dollars (`reward_usd`, `value_usd`). Without it no price is shown, none invented.
     */
    ethUsdFeedAddress: string | undefined;
  };
  walletMasterKey: string | undefined;
  sponsor: {
    /** SPONSORED_WITHDRAWALS_PER_DAY: token withdraws per agent per 24 h whose gas the platform pays. */
    withdrawalsPerDay: number;
    /** SPONSOR_LOW_BALANCE_WEI: below this /readyz warns that the sponsor key runs low. */
    lowBalanceWei: bigint;
    /** SPONSORED_WITHDRAW_MIN_ETH_UNITS: the least a sponsored token withdraw is worth on the curve. */
    withdrawMinEthUnits: bigint;
  };
  /** Webhooks may target private, loopback and reserved addresses (development only). */
  webhookAllowPrivateUrls: boolean;
  /** Requests (deliveries and verifications) to one destination host per minute, across all agents. */
  webhookDeliveriesPerHostPerMinute: number;
  /** GitHub when `token` is set; otherwise the built-in local host, on `localPort`. */
  repoHost: {
    githubToken: string | undefined;
    githubOrg: string;
    githubApiUrl: string;
    webhookSecret: string | undefined;
    localPort: number;
  };
  payouts: {
    approvalLeaseSeconds: number;
    receiptTimeoutSeconds: number;
    reconcileIntervalSeconds: number;
    stuckAfterSeconds: number;
    /** Blocks mined on top of a reverted payout before the revert counts (a reorg may undo it). */
    revertConfirmations: number;
    /** PAYOUT_CONFIRMATIONS: blocks a mined payout is watched for (a reorg may drop it until then). */
    confirmations: number;
    /** No payout transaction is ever signed with a higher fee cap than this. */
    maxFeePerGasGwei: number;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const KEY = /^(0x)?[0-9a-fA-F]{64}$/;

/**
 * Connections to PostgreSQL per instance unless DATABASE_POOL_SIZE says: twice the cores plus one,
 * at most 10. postgres-js pipelines queries on a busy connection, so a few connections keep one
 * event loop fed; on 2 cores, 5 served the bounty list 8-10 % faster than 10 (fewer backends for
 * PostgreSQL to switch between: bench/README.md, "The pool's size"). Raise it when transactions
 * (which hold a connection to their end) queue behind each other.
 */
export const DEFAULT_POOL_SIZE = Math.min(10, 2 * availableParallelism() + 1);

export function loadConfig(env: Env): Config {
  const problems: string[] = [];
  const r = reader(env, problems);
  const perKeyPerMinute = r.int('RATE_LIMIT_PER_KEY_PER_MINUTE', 600, 1, 1_000_000);
  const config: Config = {
    port: r.int('PORT', 3000, 0, 65535),
    host: r.str('HOST') ?? '127.0.0.1',
    dataDir: resolve(r.str('DATA_DIR') ?? './data'),
    databaseUrl: r.url('DATABASE_URL', ['postgres:', 'postgresql:']),
    databasePoolSize: r.int('DATABASE_POOL_SIZE', DEFAULT_POOL_SIZE, 1, 200),
    logLevel: r.oneOf('LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    logFormat:
      r.str('LOG_FORMAT') === undefined
        ? undefined
        : r.oneOf('LOG_FORMAT', 'json', ['json', 'pretty'] as const),
    otelEndpoint: r.url('OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']),
    trustProxy: r.bool('TRUST_PROXY', false),
    platformFeeBps: r.int('PLATFORM_FEE_BPS', 500, 0, 10_000),
    payoutsEnabled: r.bool('PAYOUTS_ENABLED', true),
    claimTtlHours: r.int('CLAIM_TTL_HOURS', 72, 1, 24 * 365),
    revisionHours: r.int('REVISION_HOURS', 72, 1, 24 * 365),
    reclaimCooldownHours: r.int('RECLAIM_COOLDOWN_HOURS', 24, 0, 24 * 365),
    newAgentMaxClaims: r.int('NEW_AGENT_MAX_CLAIMS', 3, 1, 1_000_000),
    claimSweepIntervalSeconds: r.int('CLAIM_SWEEP_INTERVAL_SECONDS', 60, 1, 86_400),
    redisUrl: r.url('REDIS_URL', ['redis:', 'rediss:']),
    rateLimit: {
      perIpPerMinute: r.int('RATE_LIMIT_PER_IP_PER_MINUTE', 300, 1, 1_000_000_000),
      perKeyPerMinute,
      registerPerIpPerHour: r.int('RATE_LIMIT_REGISTER_PER_IP_PER_HOUR', 30, 1, 1_000_000),
      keysPerIpPerMinute: r.int('RATE_LIMIT_KEYS_PER_IP_PER_MINUTE', 4 * perKeyPerMinute, 1, 4_000_000),
    },
    shutdownTimeoutMs: r.int('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    bountyListCacheMs: r.int('BOUNTY_LIST_CACHE_MS', 1_000, 0, 60_000),
    events: {
      heartbeatMs: r.int('EVENTS_HEARTBEAT_MS', 15_000, 10, 15_000),
      // At most 2 s: an event must reach every instance's streams within 2 s even without NOTIFY.
      pollMs: r.int('EVENTS_POLL_MS', 1_000, 10, 2_000),
      maxBufferBytes: r.int('EVENTS_MAX_BUFFER_BYTES', 1_048_576, 4_096, 1_073_741_824),
      maxStreamsPerClient: r.int('EVENTS_MAX_STREAMS_PER_CLIENT', 20, 1, 1_000_000),
    },
    chain: {
      rpcUrl: r.url('CHAIN_RPC_URL', ['http:', 'https:']),
      publicRpcUrl: r.url('CHAIN_PUBLIC_RPC_URL', ['http:', 'https:']),
      chainId: env.CHAIN_ID ? r.int('CHAIN_ID', 0, 1, 2 ** 32) : undefined,
      name: r.str('CHAIN_NAME'),
      explorerUrl: r.url('CHAIN_EXPLORER_URL', ['http:', 'https:']),
      factoryAddress: r.match('FACTORY_ADDRESS', ADDRESS, 'an address (0x + 40 hex digits)'),
      treasuryAddress: r.match('TREASURY_ADDRESS', ADDRESS, 'an address (0x + 40 hex digits)'),
      operatorKey: r.match('OPERATOR_PRIVATE_KEY', KEY, 'a private key (0x + 64 hex digits)'),
      payoutKey: r.match('PAYOUT_PRIVATE_KEY', KEY, 'a private key (0x + 64 hex digits)'),
      sponsorKey: r.match('SPONSOR_PRIVATE_KEY', KEY, 'a private key (0x + 64 hex digits)'),
      pollingIntervalMs: r.int('CHAIN_POLLING_INTERVAL_MS', 100, 10, 60_000),
      watchIntervalSeconds: r.int('CHAIN_WATCH_INTERVAL_SECONDS', 5, 1, 3_600),
      ethUsdFeedAddress: r.match('ETH_USD_FEED_ADDRESS', ADDRESS, 'an address (0x + 40 hex digits)'),
    },
    walletMasterKey: r.match('WALLET_MASTER_KEY', KEY, '32 bytes as 64 hex digits'),
    sponsor: {
      withdrawalsPerDay: r.int('SPONSORED_WITHDRAWALS_PER_DAY', 5, 0, 1_000),
      // 0.0000005 ETH: about what the sponsor pays for one withdraw's gas (60k gas) on Base.
      withdrawMinEthUnits: BigInt(
        r.match('SPONSORED_WITHDRAW_MIN_ETH_UNITS', /^[0-9]{1,30}$/, 'wei as a whole number') ??
          '500000000000',
      ),
      lowBalanceWei: BigInt(
        r.match('SPONSOR_LOW_BALANCE_WEI', /^[0-9]{1,30}$/, 'wei as a whole number') ?? '50000000000000000',
      ),
    },
    // On the embedded dev chain everything runs on one machine, receivers included.
    webhookAllowPrivateUrls: r.bool('WEBHOOK_ALLOW_PRIVATE_URLS', r.str('CHAIN_RPC_URL') === undefined),
    webhookDeliveriesPerHostPerMinute: r.int('WEBHOOK_DELIVERIES_PER_HOST_PER_MINUTE', 60, 1, 1_000_000),
    repoHost: {
      githubToken: r.str('GITHUB_TOKEN'),
      githubOrg:
        r.match('GITHUB_ORG', /^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/, 'a GitHub organization name') ??
        'bounty-org',
      githubApiUrl: r.url('GITHUB_API_URL', ['http:', 'https:']) ?? 'https://api.github.com',
      webhookSecret: r.str('GITHUB_WEBHOOK_SECRET'),
      // Repository URLs are stored with the project, so the local host keeps one port across restarts.
      localPort: r.int('REPO_HOST_PORT', env.PORT === '0' ? 0 : 3001, 0, 65535),
    },
    payouts: {
      approvalLeaseSeconds: r.int('APPROVAL_LEASE_SECONDS', 120, 1, 86_400),
      receiptTimeoutSeconds: r.int('PAYOUT_RECEIPT_TIMEOUT_SECONDS', 30, 1, 3_600),
      reconcileIntervalSeconds: r.int('PAYOUT_RECONCILE_INTERVAL_SECONDS', 5, 1, 3_600),
      stuckAfterSeconds: r.int('PAYOUT_STUCK_AFTER_SECONDS', 60, 1, 86_400),
      // The embedded anvil never reorganizes; a real chain can.
      revertConfirmations: r.int('PAYOUT_REVERT_CONFIRMATIONS', r.str('CHAIN_RPC_URL') ? 5 : 0, 0, 10_000),
      // Base's sequencer reorgs rarely and shallowly; 10 blocks (20 s) is past anything it has done.
      confirmations: r.int('PAYOUT_CONFIRMATIONS', r.str('CHAIN_RPC_URL') ? 10 : 0, 0, 10_000),
      maxFeePerGasGwei: r.int('PAYOUT_MAX_FEE_PER_GAS_GWEI', 500, 1, 1_000_000),
    },
  };
  if (config.chain.rpcUrl) {
    // Against a real chain nothing is guessed: every part of it must be named.
    const required = {
      CHAIN_ID: config.chain.chainId,
      FACTORY_ADDRESS: config.chain.factoryAddress,
      TREASURY_ADDRESS: config.chain.treasuryAddress,
      OPERATOR_PRIVATE_KEY: config.chain.operatorKey,
      PAYOUT_PRIVATE_KEY: config.chain.payoutKey,
    };
    for (const [name, value] of Object.entries(required)) {
      if (value === undefined) problems.push(`${name} is required with CHAIN_RPC_URL.`);
    }
    // The operator (contract deployments, faucet) and the payout wallet each assign their own
    // nonces; one key for both would let the two workflows collide and mix their funds.
    const bare = (key: string | undefined) => key?.toLowerCase().replace(/^0x/, '');
    if (config.chain.operatorKey && bare(config.chain.operatorKey) === bare(config.chain.payoutKey)) {
      problems.push('OPERATOR_PRIVATE_KEY and PAYOUT_PRIVATE_KEY must be different keys.');
    }
    const sponsor = bare(config.chain.sponsorKey);
    if (sponsor && (sponsor === bare(config.chain.operatorKey) || sponsor === bare(config.chain.payoutKey))) {
      problems.push('SPONSOR_PRIVATE_KEY must be a key of its own, not the operator or payout key.');
    }
  } else if (config.chain.publicRpcUrl) {
    problems.push('CHAIN_PUBLIC_RPC_URL applies only with CHAIN_RPC_URL (the dev chain publishes its own).');
  }
  if (config.payouts.approvalLeaseSeconds <= config.payouts.receiptTimeoutSeconds) {
    // Otherwise a second attempt could take over a payout its first attempt is still driving.
    problems.push('APPROVAL_LEASE_SECONDS must be longer than PAYOUT_RECEIPT_TIMEOUT_SECONDS.');
  }
  if (config.repoHost.githubToken && !config.repoHost.webhookSecret) {
    problems.push(
      'GITHUB_WEBHOOK_SECRET is required with GITHUB_TOKEN (merge webhooks are verified with it).',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
