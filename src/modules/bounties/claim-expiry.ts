import type { Executor } from '../../infra/db/client.ts';
import type { BountiesDeps } from './bounties.deps.ts';
import * as repo from './bounties.repo.ts';
import type { ClaimLimits } from './claim-limits.ts';
import { warnExpiringClaims } from './claim-warnings.ts';

const EXPIRY_BATCH = 500;

/**
 * Claims that lapsed (CLAIM_TTL_HOURS, or a revision deadline) reopen their bounty: in batches by
 * the job, for one bounty on paths that act on a claim, and before a claim so that lapsed claims
 * never block it. Each records `bounty.claim_expired` and starts the claimant's cooldown.
 */
export class ClaimExpiry {
  constructor(
    private readonly deps: BountiesDeps,
    private readonly limits: ClaimLimits,
  ) {}

  /** Every lapsed claim, then the ended cooldowns and the warnings of claims about to lapse. */
  async expireAll(): Promise<number> {
    const now = this.deps.clock.now();
    let total = 0;
    for (;;) {
      const n = await this.deps.db.transaction((tx) => this.expire(tx, now));
      total += n;
      if (n < EXPIRY_BATCH) break;
    }
    await this.limits.deleteEnded(this.deps.db, now);
    await warnExpiringClaims(this.deps, now, EXPIRY_BATCH);
    return total;
  }

  /** This bounty's claim, if it lapsed; true when it did. */
  async expireBounty(bountyId: string): Promise<boolean> {
    const now = this.deps.clock.now();
    const scope = { bountyId, agentId: '' };
    return (await this.deps.db.transaction((tx) => this.expire(tx, now, scope))) > 0;
  }

  /** One batch in `tx`: every lapsed claim, or only those of `scope` (its bounty, or its agent's). */
  async expire(tx: Executor, now: Date, scope?: { bountyId: string; agentId: string }): Promise<number> {
    const cutoff = new Date(now.getTime() - this.deps.claimTtlHours * 3_600_000);
    const expired = await repo.expireClaims(tx, cutoff, now, EXPIRY_BATCH, scope);
    await this.limits.startLapseCooldowns(tx, expired);
    for (const e of expired) {
      await this.deps.activity.record(tx, {
        type: 'bounty.claim_expired',
        agentId: e.claimed_by,
        projectId: e.project_id,
        bountyId: e.id,
        data: { claimed_at: new Date(e.claimed_at).toISOString() },
      });
    }
    return expired.length;
  }
}
