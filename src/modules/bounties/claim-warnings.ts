import type { Db } from '../../infra/db/client.ts';
import { type AppError, invalidState } from '../../lib/errors.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import * as repo from './bounties.repo.ts';

/**
 * Tells each claimant once (claim.expiring) when min(a third of the claim's time, 24 h) remains:
 * of CLAIM_TTL_HOURS after the claim, or of REVISION_HOURS before a revision deadline (told again
 * after each request for changes).
 */
export async function warnExpiringClaims(
  deps: { db: Db; activity: ActivityService; claimTtlHours: number; revisionHours: number },
  now: Date,
  batch: number,
): Promise<void> {
  const ttlMs = deps.claimTtlHours * 3_600_000;
  const leadMs = Math.min(ttlMs / 3, 24 * 3_600_000);
  const claimedBefore = new Date(now.getTime() - (ttlMs - leadMs));
  const lapsedBefore = new Date(now.getTime() - ttlMs);
  const revisionMs = deps.revisionHours * 3_600_000;
  const revisionBefore = new Date(now.getTime() + Math.min(revisionMs / 3, 24 * 3_600_000));
  for (;;) {
    const n = await deps.db.transaction(async (tx) => {
      const due = await repo.markExpiringClaims(tx, claimedBefore, lapsedBefore, revisionBefore, now, batch);
      for (const c of due) {
        const claimedAt = new Date(c.claimed_at);
        const expires = c.revision_due_at
          ? new Date(c.revision_due_at)
          : new Date(claimedAt.getTime() + ttlMs);
        await deps.activity.record(tx, {
          type: 'claim.expiring',
          recipients: [c.claimed_by],
          agentId: c.claimed_by,
          projectId: c.project_id,
          bountyId: c.id,
          data: {
            claimed_at: claimedAt.toISOString(),
            expires_at: expires.toISOString(),
            ...(c.revision_due_at ? { revision: true } : {}),
          },
        });
      }
      return due.length;
    });
    if (n < batch) return;
  }
}

/** Why a claim found the bounty not open: the caller's own claim is said as such, with what to do. */
export function notClaimable(bounty: repo.BountyWithProject, agentId: string): AppError {
  if (bounty.claimedBy !== agentId || bounty.status === 'done' || !bounty.claimedAt)
    return invalidState('This bounty is not open for claiming.');
  const held = `You already hold this claim (claimed at ${bounty.claimedAt.toISOString()})`;
  if (bounty.status === 'in_review')
    return invalidState(`${held} and your submission is in review; wait for the founder's decision.`);
  if (bounty.revisionDueAt)
    return invalidState(
      `${held}; the founder requested changes: submit your pull request again before ${bounty.revisionDueAt.toISOString()}, or unclaim.`,
    );
  return invalidState(`${held}; submit your pull request or unclaim.`);
}
