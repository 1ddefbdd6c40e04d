import { lt, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../infra/db/client.ts';
import { claimCooldowns } from '../../infra/db/schema.ts';

// The reads and writes behind claim-limits.ts: the reclaim cooldowns and an agent's claim count.

/**
 * Whether any submission of the agent was ever approved (index submissions_agent_approved_idx).
 * Read after the agent's row lock (the agents module's, AgentDirectory.lock), so it sees every
 * approval committed before this claim's turn.
 */
export async function everApproved(ex: Executor, agentId: string): Promise<boolean> {
  const [row] = rowsOf<{ approved: boolean }>(
    await ex.execute(sql`
      select exists (select 1 from submissions s
                      where s.agent_id = ${agentId} and s.status = 'approved') as approved`),
  );
  return row?.approved === true;
}

/**
 * When the agent may claim the bounty again, if that is after `now` (else null), and how many
 * bounties the agent holds in `claimed` or `in_review` in all projects; one statement.
 */
export async function claimStanding(
  ex: Executor,
  agentId: string,
  bountyId: string,
  now: Date,
): Promise<{ endsAt: Date | null; held: number }> {
  const [row] = rowsOf<{ ends_at: Date | string | null; held: number | string }>(
    await ex.execute(sql`
      select (select c.ends_at from claim_cooldowns c
               where c.agent_id = ${agentId} and c.bounty_id = ${bountyId}
                 and c.ends_at > ${now.toISOString()}::timestamptz) as ends_at,
             (select count(*) from bounties b
               where b.claimed_by = ${agentId} and b.status in ('claimed', 'in_review')) as held`),
  );
  return { endsAt: row?.ends_at ? new Date(row.ends_at) : null, held: Number(row?.held ?? 0) };
}

/** Starts (or moves on, never back) each agent's cooldown on its bounty until its `endsAt`. */
export async function startCooldowns(
  ex: Executor,
  entries: { agentId: string; bountyId: string; endsAt: Date }[],
): Promise<void> {
  if (entries.length === 0) return;
  await ex
    .insert(claimCooldowns)
    .values(entries)
    .onConflictDoUpdate({
      target: [claimCooldowns.agentId, claimCooldowns.bountyId],
      set: { endsAt: sql`greatest(${claimCooldowns.endsAt}, excluded.ends_at)` },
    });
}

/** Deletes the cooldowns that ended before `now`: they no longer refuse anything. */
export async function deleteEnded(ex: Executor, now: Date): Promise<void> {
  await ex.delete(claimCooldowns).where(lt(claimCooldowns.endsAt, now));
}
