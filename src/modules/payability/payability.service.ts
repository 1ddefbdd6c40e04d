import type { FastifyBaseLogger } from 'fastify';
import type { Chain, TokenFunds } from '../../infra/chain/chain.ts';
import { unitsToTokens } from '../../infra/chain/chain.ts';
import type { Db } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { JoinQueue } from '../../lib/join-queue.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { BountyState, PayableFlip } from '../bounties/bounty-state.ts';
import type { HoldingsService } from '../holdings/holdings.service.ts';
import * as repo from './payability.repo.ts';

export interface PayabilityDeps {
  db: Db;
  clock: Clock;
  chain: Pick<Chain, 'readFunds'>;
  activity: ActivityService;
  /** The flags live on the bounties, which their module recomputes from the funds stored here. */
  bounties: Pick<BountyState, 'recomputePayable'>;
  /** What wallets hold (the holdings module): told of the holders a change moved tokens for. */
  holdings?: Pick<HoldingsService, 'afterAction'>;
  log: FastifyBaseLogger;
}

export interface RefreshOptions {
  /** Brand-new bounties: their first value is not a change, so no event for them. */
  quiet?: string[];
  /** The project as the caller read it in the transaction it just committed: spares reading it again. */
  project?: repo.WatchedProject;
  /** Wallets the change moved this project's tokens to or from (the founder's is added): their holdings are read again. */
  holders?: string[];
}

/** A refresh waiting to start: its bounties without events, and the project as a caller read it. */
interface Pending {
  quiet: Set<string>;
  project: repo.WatchedProject | null;
}

const NO_FUNDS: TokenFunds = { balanceUnits: 0n, allowanceUnits: 0n };

/**
 * Keeps `bounties.payable` fresh: reads the founder's funds on the project token, stores them in
 * project_funds and recomputes every live bounty's flag in one transaction, recording
 * `bounty.unpayable` / `bounty.payable` for the founder and the claimant of each bounty that
 * flipped. Called after the service's own wallet actions, bounty creation and payouts, and by the
 * chain watcher for what happens on chain.
 */
export class PayabilityService {
  /** Per project: one refresh at a time, and a request made while one waits to start joins it. */
  private readonly queue = new JoinQueue<Pending, PayableFlip[]>(
    (projectId, p) => this.run(projectId, p.quiet, p.project),
    (into, more) => {
      for (const id of more.quiet) into.quiet.add(id);
      // A joiner that brings no project may follow a change to it: the refresh reads it then.
      if (!more.project) into.project = null;
    },
  );

  constructor(private readonly deps: PayabilityDeps) {}

  /**
   * Refreshes one project; resolves with the bounties that flipped. Refreshes of one project run
   * one at a time in an instance, and a request made while one waits to start joins it: that one
   * reads the funds after the request anyway, so a burst of changes costs one read.
   */
  refresh(projectId: string, opts: RefreshOptions = {}): Promise<PayableFlip[]> {
    return this.queue.run(projectId, { quiet: new Set(opts.quiet ?? []), project: opts.project ?? null });
  }

  /**
   * For callers that just committed a change (a wallet action, a new bounty, a payout): refreshes
   * after their transaction, so it never holds their locks, and never fails their request; a
   * failed read is logged and the chain watcher or the next change catches up.
   */
  async afterChange(projectId: string, opts: RefreshOptions = {}): Promise<void> {
    try {
      await this.refresh(projectId, opts);
      if (opts.holders && this.deps.holdings) {
        const founder = opts.project?.founderAddress;
        await this.deps.holdings.afterAction(projectId, founder ? [...opts.holders, founder] : opts.holders);
      }
    } catch (err) {
      this.deps.log.warn({ err, projectId }, 'refreshing bounty payability or holdings failed');
    }
  }

  /** Every active project, one after the other; for the watcher's first run. */
  async refreshAll(): Promise<void> {
    for (const p of await repo.watchedProjects(this.deps.db)) await this.afterChange(p.projectId);
  }

  private async run(
    projectId: string,
    quiet: Set<string>,
    known: repo.WatchedProject | null,
  ): Promise<PayableFlip[]> {
    const { db, clock, chain, activity } = this.deps;
    const project = known ?? (await repo.watchedProjects(db, projectId))[0];
    if (!project) return [];
    const readAt = clock.now();
    // A founder without a wallet can pay nothing: every live bounty is unpayable.
    const funds = project.founderAddress
      ? await chain.readFunds(project.tokenAddress, project.founderAddress)
      : NO_FUNDS;
    return db.transaction(async (tx) => {
      await repo.storeFunds(tx, projectId, funds, readAt);
      const flips = await this.deps.bounties.recomputePayable(tx, projectId);
      for (const f of flips) {
        if (quiet.has(f.id)) continue;
        await activity.record(tx, {
          type: f.payable ? 'bounty.payable' : 'bounty.unpayable',
          agentId: project.founderId,
          projectId,
          bountyId: f.id,
          recipients: f.claimedBy ? [project.founderId, f.claimedBy] : [project.founderId],
          data: {
            reward_amount: f.rewardAmount,
            spendable: unitsToTokens(BigInt(f.spendableUnits)),
            committed_before: f.committedBefore,
          },
        });
      }
      return flips;
    });
  }
}
