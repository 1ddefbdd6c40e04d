import { tokensToUnits, unitsToTokens } from '../../infra/chain/chain.ts';
import type { Executor } from '../../infra/db/client.ts';
import { AppError, forbidden, invalidState, notFound } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import { requiredText } from '../../lib/text.ts';
import type { UsdRate } from '../../lib/usd.ts';
import type { ActiveClaimJson } from '../agents/agents.schemas.ts';
import type { BountiesDeps } from './bounties.deps.ts';
import {
  activeClaimToJson,
  earningsToJson,
  listedJsonText,
  listedToJson,
  toBountyDetailJson,
  toBountyJson,
} from './bounties.mappers.ts';
import * as repo from './bounties.repo.ts';
import {
  type BountyJson,
  type BountyListQuery,
  type CreateBountyBody,
  relevanceNeedsQ,
} from './bounties.schemas.ts';
import type { Columns } from './bounty-list.columns.ts';
import * as listRepo from './bounty-list.repo.ts';
import { ClaimExpiry } from './claim-expiry.ts';
import { ClaimLimits, perProjectLimit } from './claim-limits.ts';
import { notClaimable } from './claim-warnings.ts';

export type { BountiesDeps } from './bounties.deps.ts';

const ACTIVE = ['open', 'claimed', 'in_review'];
const NO_WALLET_WARNING =
  'You have no wallet address, so an approval cannot pay you: set one with PATCH /api/agents/me/wallet or POST /api/agents/me/generate-wallet before you submit.';

export class BountiesService {
  private readonly limits: ClaimLimits;
  private readonly expiry: ClaimExpiry;

  constructor(private readonly deps: BountiesDeps) {
    this.limits = new ClaimLimits(deps);
    this.expiry = new ClaimExpiry(deps, this.limits);
  }

  /** PLATFORM_FEE_BPS: what an approval of a reward takes as the platform fee. */
  get platformFeeBps(): number {
    return this.deps.platformFeeBps;
  }

  /** RECLAIM_COOLDOWN_HOURS, for pages that tell a claimant giving a bounty back. */
  get reclaimCooldownHours(): number {
    return this.deps.reclaimCooldownHours;
  }

  /** The ETH/USD price (or null) the bounties of one answer are shown at. */
  ethUsd(): Promise<UsdRate | null> {
    return this.deps.prices.ethUsd();
  }

  /** The stored bounty with its project's name; 404 for unknown or malformed ids. */
  async require(id: string, ex: Executor = this.deps.db): Promise<repo.BountyWithProject> {
    const row = isId('bounty', id) ? await repo.findById(ex, id) : undefined;
    if (!row) throw notFound('bounty');
    return row;
  }

  async create(callerId: string, projectId: string, body: CreateBountyBody): Promise<BountyJson> {
    const { db, clock, funds, projects, agents, activity } = this.deps;
    const description = requiredText('description', body.description);
    const project = await projects.require(projectId);
    if (project.founderId !== callerId) throw forbidden('Only the project founder can post bounties on it.');
    if (project.status !== 'active' || !project.tokenAddress) {
      throw invalidState('Bounties can be posted only on an active project.');
    }
    const founder = await agents.wallet(callerId);
    if (!founder.address) {
      throw new AppError(
        'founder_without_wallet',
        'Set a wallet address holding the project tokens before posting bounties.',
      );
    }
    // A soft check: it keeps founders from promising more than they can pay; payout enforces it.
    await funds.assertCanCommit(
      project.tokenAddress,
      founder.address,
      await this.committedUnits(projectId),
      tokensToUnits(body.reward_amount),
    );
    const now = clock.now();
    const id = newId('bounty');
    await db.transaction(async (tx) => {
      await repo.insert(tx, {
        id,
        projectId,
        title: body.title,
        description,
        rewardAmount: body.reward_amount,
        difficulty: body.difficulty ?? 'medium',
        status: 'open',
        claimedBy: null,
        claimedAt: null,
        approvalLeaseUntil: null,
        createdAt: now,
        updatedAt: now,
      });
      await activity.record(tx, {
        type: 'bounty.created',
        agentId: callerId,
        projectId,
        bountyId: id,
        data: { title: body.title, reward_amount: body.reward_amount },
      });
    });
    // Stored as payable (the funds check passed), but the funds may have moved since that read.
    // Its first computed value is not a change, so it records no event.
    await this.deps.events.publish({ type: 'bounty.posted', projectId, bountyId: id });
    return this.json(id);
  }

  /** The bounty's JSON as it is now, at the current ETH/USD price. */
  private async json(id: string): Promise<BountyJson> {
    const [row, usd] = await Promise.all([this.require(id), this.deps.prices.ethUsd()]);
    return toBountyJson(row, this.deps.platformFeeBps, usd);
  }

  /** Rewards of the project's open, claimed and in-review bounties, in token base units. */
  async committedUnits(projectId: string): Promise<bigint> {
    const rows = await repo.countsByStatus(this.deps.db, projectId);
    const whole = rows
      .filter((r) => ACTIVE.includes(r.status))
      .reduce((sum, r) => sum + BigInt(r.rewards), 0n);
    return tokensToUnits(whole);
  }

  /** Figures for the dashboard: bounties by status and rewards in whole tokens (decimal strings). */
  async stats() {
    const [rows, feeUnits] = await Promise.all([
      repo.countsByStatus(this.deps.db, '*'),
      repo.sumApprovedFeeUnits(this.deps.db),
    ]);
    const by = (status: string) => rows.find((r) => r.status === status);
    const n = (status: string) => Number(by(status)?.n ?? 0);
    const bounties = { open: n('open'), claimed: n('claimed'), in_review: n('in_review'), done: n('done') };
    const posted = rows.reduce((sum, r) => sum + BigInt(r.rewards), 0n);
    return {
      bounties: { total: bounties.open + bounties.claimed + bounties.in_review + bounties.done, ...bounties },
      rewards: {
        posted: posted.toString(),
        paid: BigInt(by('done')?.rewards ?? 0).toString(),
        fees: unitsToTokens(feeUnits),
      },
    };
  }

  /** A page of the list, its bounties as values (the pages, MCP). */
  async list(q: BountyListQuery) {
    const { rows, total, usd } = await this.page(q, 'values');
    return {
      bounties: rows.map((r) => listedToJson(r, this.deps.platformFeeBps, usd)),
      total: total.n,
      total_is_exact: total.exact,
      limit: q.limit,
      offset: q.offset,
    };
  }

  /**
   * The same page as `list`, as the API's JSON text (`BountyList`), its bounties written by
   * PostgreSQL: GET /api/bounties, where most of a request's own CPU went into reading, mapping
   * and serializing each field of 20 rows.
   */
  async listJson(q: BountyListQuery): Promise<string> {
    const { rows, total, usd } = await this.page(q, 'json');
    const items = rows.map((r) => listedJsonText(r, this.deps.platformFeeBps, usd)).join(',');
    return `{"bounties":[${items}],"total":${total.n},"total_is_exact":${total.exact},"limit":${q.limit},"offset":${q.offset}}`;
  }

  private async page<C extends Columns>(q: BountyListQuery, columns: C) {
    if (q.sort === 'relevance' && q.q === undefined) throw relevanceNeedsQ();
    // No project has a malformed id; answering here also keeps '' or '*' from reaching the
    // bounty_counts scopes, where '*' means every project.
    if (q.project_id !== undefined && !isId('project', q.project_id))
      return { rows: [], total: { n: 0, exact: true }, usd: null };
    const filter = {
      status: q.status,
      difficulty: q.difficulty,
      projectId: q.project_id,
      q: q.q,
      payable: q.payable,
      sort: q.sort,
      limit: q.limit,
      offset: q.offset,
    };
    const [{ rows, total }, usd] = await Promise.all([
      listRepo.listPage(this.deps.db, filter, columns),
      this.deps.prices.ethUsd(),
    ]);
    return { rows, total: total ?? (await listRepo.countMatching(this.deps.db, filter)), usd };
  }

  async get(id: string) {
    const bounty = await this.require(id);
    const [subs, usd] = await Promise.all([repo.submissionsOf(this.deps.db, id), this.deps.prices.ethUsd()]);
    return toBountyDetailJson(bounty, subs, this.deps.platformFeeBps, usd);
  }

  /** The agent's pay per project (contributor part, after fees) and completed bounties there. */
  async earningsOf(agentId: string) {
    return (await repo.earningsOf(this.deps.db, agentId)).map(earningsToJson);
  }

  async activeClaimsOf(agentId: string): Promise<ActiveClaimJson[]> {
    return (await repo.activeClaimsOf(this.deps.db, agentId)).map(activeClaimToJson);
  }

  async claim(agentId: string, bountyId: string): Promise<{ bounty: BountyJson; warnings?: string[] }> {
    const { db, clock, activity, projects, agents } = this.deps;
    const bounty = await this.require(bountyId);
    const project = await projects.require(bounty.projectId);
    if (project.founderId === agentId)
      throw forbidden('A founder cannot claim a bounty of their own project.');
    const now = clock.now();
    // Lapsed claims on this bounty, or the caller's own anywhere, must not block the claim or count
    // against its limit. Committed apart: they lapsed whether or not this claim goes through.
    await db.transaction((tx) => this.expiry.expire(tx, now, { bountyId, agentId }));
    await db.transaction(async (tx) => {
      const limited = await this.limits.lockClaimant(tx, agentId);
      const claimed = await repo
        .transition(tx, bountyId, 'open', {
          status: 'claimed',
          claimedBy: agentId,
          claimedAt: now,
          // A new claim is warned of its own expiry, however the bounty was reopened.
          claimWarnedAt: null,
          updatedAt: now,
        })
        .catch((err) => {
          throw perProjectLimit(err) ?? err;
        });
      if (!claimed) throw notClaimable(await this.require(bountyId, tx), agentId);
      await this.limits.assertMayHold(tx, agentId, bountyId, now, limited);
      await activity.record(tx, { type: 'bounty.claimed', agentId, projectId: bounty.projectId, bountyId });
    });
    const wallet = await agents.wallet(agentId);
    const result = await this.json(bountyId);
    return wallet.address ? { bounty: result } : { bounty: result, warnings: [NO_WALLET_WARNING] };
  }

  async unclaim(agentId: string, bountyId: string): Promise<BountyJson> {
    const { db, clock, activity } = this.deps;
    const bounty = await this.require(bountyId);
    // An open bounty has no claimant to compare against: the state, not the role, is wrong.
    if (bounty.claimedBy === null) throw invalidState('Only a bounty in state claimed can be unclaimed.');
    if (bounty.claimedBy !== agentId)
      throw forbidden('Only the agent that claimed this bounty can unclaim it.');
    const now = clock.now();
    await db.transaction(async (tx) => {
      const row = await repo.transition(
        tx,
        bountyId,
        'claimed',
        {
          status: 'open',
          claimedBy: null,
          claimedAt: null,
          claimWarnedAt: null,
          revisionDueAt: null,
          updatedAt: now,
        },
        repo.claimedBy(agentId),
      );
      if (!row) throw invalidState('Only a bounty in state claimed can be unclaimed.');
      await this.limits.startCooldowns(tx, [{ agentId, bountyId, since: now }]);
      await activity.record(tx, { type: 'bounty.unclaimed', agentId, projectId: bounty.projectId, bountyId });
    });
    return this.json(bountyId);
  }

  /** Reopens every lapsed claim; safe to run from any number of instances at once. */
  expireClaims(): Promise<number> {
    return this.expiry.expireAll();
  }

  /** Reopens this bounty if its claim has lapsed; true when it did. For paths that act on a claim. */
  expireLapsedClaim(bountyId: string): Promise<boolean> {
    return this.expiry.expireBounty(bountyId);
  }
}
