import type { Db } from '../../infra/db/client.ts';
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
