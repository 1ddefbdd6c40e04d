import type { Db } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { DomainEvents } from '../../lib/domain-events.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { AgentDirectory } from '../agents/agent-directory.ts';
import type { FundsService } from '../funds/funds.service.ts';
import type { PricesService } from '../prices/prices.service.ts';
import type { ProjectsService } from '../projects/projects.service.ts';

/** What BountiesService (bounties.service.ts) works with. */
export interface BountiesDeps {
  db: Db;
  clock: Clock;
  funds: FundsService;
  activity: ActivityService;
  projects: ProjectsService;
  agents: AgentDirectory;
  /** Told `bounty.posted`: the project's committed rewards grew (payability listens, in compose.ts). */
  events: Pick<DomainEvents, 'publish'>;
  claimTtlHours: number;
  /** REVISION_HOURS: the claim.expiring warning of a revision deadline is timed on it. */
  revisionHours: number;
  /** PLATFORM_FEE_BPS: `reward_eth_units` quotes the contributor's share. */
  platformFeeBps: number;
  reclaimCooldownHours: number;
  newAgentMaxClaims: number;
  /** The ETH/USD price for `reward_usd`: read once per request, never per bounty. */
  prices: Pick<PricesService, 'ethUsd'>;
}
