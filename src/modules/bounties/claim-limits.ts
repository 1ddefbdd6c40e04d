import type { Executor } from '../../infra/db/client.ts';
import { uniqueViolation } from '../../infra/db/errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { AgentDirectory } from '../agents/agent-directory.ts';
import type { ExpiredClaim } from './bounties.repo.ts';
import * as repo from './claim-limits.repo.ts';

export interface ClaimLimitsConfig {
  claimTtlHours: number;
  /** RECLAIM_COOLDOWN_HOURS; 0 turns the cooldown off. */
  reclaimCooldownHours: number;
  /** NEW_AGENT_MAX_CLAIMS. */
  newAgentMaxClaims: number;
  /** The agents module's row lock on an agent (BountiesDeps.agents, wired in compose.ts). */
  agents: Pick<AgentDirectory, 'lock'>;
}

/**
 * What keeps free accounts from sitting on bounties (the contract's "Closed to abuse"): an agent
 * that gave a bounty back, or let its claim or revision deadline lapse, may not claim that bounty
 * again for RECLAIM_COOLDOWN_HOURS (else unclaim and claim again renews a claim for ever, and a
 * lapsed revision is answered by claiming again with the same pull request); and an agent never
 * approved holds at most NEW_AGENT_MAX_CLAIMS active claims in all projects (else a few new
 * accounts hold every open bounty). Each check runs inside the claim's transaction.
 */
export class ClaimLimits {
  constructor(private readonly config: ClaimLimitsConfig) {}

  /**
   * Before the bounty moves: locks the agent's row until the claim commits (the agents module's
   * lock), so two claims by one agent at once count each other (the claims of one agent only wait
   * on each other); then answers whether the claim limit applies, that is whether the agent was
   * never approved.
   */
  async lockClaimant(tx: Executor, agentId: string): Promise<boolean> {
    await this.config.agents.lock(tx, agentId);
    return !(await repo.everApproved(tx, agentId));
  }

  /**
   * After the bounty moved to the caller (a refusal rolls the claim back): 409 reclaim_cooldown
   * while the caller's cooldown on it runs, 409 claim_limit when `limited` and the caller now holds
   * more than it may. The cooldown is read after the move on purpose: the move waited for
   * whichever transaction reopened the bounty (an unclaim, a lapse) to commit, and that one wrote
   * the cooldown, so this read sees it even when the two raced.
   */
  async assertMayHold(tx: Executor, agentId: string, bountyId: string, now: Date, limited: boolean) {
    const { endsAt, held } = await repo.claimStanding(tx, agentId, bountyId, now);
    if (endsAt) {
      throw new AppError(
        'reclaim_cooldown',
        `You gave this bounty back, or your claim on it lapsed, less than ${this.config.reclaimCooldownHours} hours ago: you may claim it again from ${endsAt.toISOString()}.`,
      );
    }
    const max = this.config.newAgentMaxClaims;
    // `held` counts this claim too.
    if (limited && held > max) {
      throw new AppError(
        'claim_limit',
        `Until a submission of yours is approved you may hold at most ${max} active claims in all projects, and you hold ${held - 1}: submit or unclaim one first.`,
      );
    }
  }

  /**
   * In the transaction that reopened the bounties: each agent may not claim its bounty again
   * until RECLAIM_COOLDOWN_HOURS after `since` (when it gave the bounty back, or its claim lapsed).
   */
  async startCooldowns(tx: Executor, entries: { agentId: string; bountyId: string; since: Date }[]) {
    const ms = this.config.reclaimCooldownHours * 3_600_000;
    if (ms === 0) return;
    const rows = entries.map((e) => ({
      agentId: e.agentId,
      bountyId: e.bountyId,
      endsAt: new Date(e.since.getTime() + ms),
    }));
    await repo.startCooldowns(tx, rows);
  }

  /**
   * In the transaction that reopened them: the cooldown of lapsed claims runs from the lapse itself
   * (the revision deadline, or CLAIM_TTL_HOURS after the claim), however late a sweep finds it.
   */
  startLapseCooldowns(tx: Executor, expired: ExpiredClaim[]) {
    const ttlMs = this.config.claimTtlHours * 3_600_000;
    const lapsedAt = (e: ExpiredClaim) =>
      e.revision_due_at ? new Date(e.revision_due_at) : new Date(new Date(e.claimed_at).getTime() + ttlMs);
    const entries = expired.map((e) => ({ agentId: e.claimed_by, bountyId: e.id, since: lapsedAt(e) }));
    return this.startCooldowns(tx, entries);
  }

  /** For the claim sweep: cooldowns that ended are dropped, so the table holds only running ones. */
  deleteEnded(ex: Executor, now: Date): Promise<void> {
    return repo.deleteEnded(ex, now);
  }
}

/**
 * One active claim per agent per project is the unique index bounties_one_active_claim_key, so
 * concurrent claims cannot both win; a claim that violates it gets this 409 (undefined for any
 * other error).
 */
export function perProjectLimit(err: unknown): AppError | undefined {
  if (uniqueViolation(err) !== 'bounties_one_active_claim_key') return undefined;
  return new AppError(
    'claim_limit',
    'You already have an active claim on this project; finish or unclaim it first.',
  );
}
