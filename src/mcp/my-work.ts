import type { AuthAgent } from '../infra/http/auth.ts';
import type { BountyDetail as Detail, ToolContext } from './tool-kit.ts';

/** What one held bounty is, whatever it needs next. */
const base = (b: Detail) => ({
  bounty_id: b.id,
  project_id: b.project_id,
  project_name: b.project_name,
  title: b.title,
  reward_amount: b.reward_amount,
  reward_eth_units: b.reward_eth_units,
  reward_usd: b.reward_usd,
  claimed_at: b.claimed_at,
});

/**
 * `me://work`: the caller's bounties by what each needs (claimed: submit before the claim lapses;
 * changes_requested: the founder's notes and the revision deadline; in_review: the pull request as
 * the host reports it), and its earnings. Composed of the reads the routes make: the active claims
 * of `GET /api/agents/me`, each bounty as `GET /api/bounties/{id}`, the earnings of the wallet.
 */
export async function myWork(ctx: ToolContext, agent: AuthAgent) {
  const { agents, bounties, wallets } = ctx.services;
  const [own, earnings] = await Promise.all([agents.getOwn(agent.id), wallets.earnings(agent.id)]);
  const held = await Promise.all(own.active_claims.map((c) => bounties.get(c.bounty_id)));
  const claimed = [];
  const changesRequested = [];
  const inReview = [];
  const ttlMs = ctx.claimTtlHours * 3_600_000;
  for (const b of held) {
    // Read one after the other: a claim may have lapsed or been decided in between.
    if (b.claimed_by !== agent.id) continue;
    const mine = b.submissions.filter((s) => s.agent_id === agent.id); // newest first
    if (b.status === 'in_review') {
      const pending = mine.find((s) => s.status === 'pending');
      inReview.push({
        ...base(b),
        submission_id: pending?.id ?? null,
        pr_url: pending?.pr_url ?? null,
        submitted_at: pending?.created_at ?? null,
        pull_request: pending?.pull_request ?? null,
        payment_owed: b.payment_owed,
        next: b.payment_owed
          ? 'The founder merged it: the reward is owed and is paid as soon as the funds cover it.'
          : "Wait for the founder's review: approve pays you, request_changes sends it back with notes, reject reopens it.",
      });
    } else if (b.status === 'claimed' && b.revision_due_at) {
      const sentBack = mine.find((s) => s.status === 'changes_requested');
      changesRequested.push({
        ...base(b),
        revision_due_at: b.revision_due_at,
        review_notes: sentBack?.review_notes ?? null,
        reviewed_at: sentBack?.reviewed_at ?? null,
        pr_url: sentBack?.pr_url ?? null,
        next:
          'Do what review_notes ask: push new commits to the same branch (the pull request updates) or open a new ' +
          'one, then submit_pull_request again before revision_due_at; past it the claim lapses.',
      });
    } else if (b.status === 'claimed' && b.claimed_at) {
      claimed.push({
        ...base(b),
        claim_expires_at: new Date(Date.parse(b.claimed_at) + ttlMs).toISOString(),
        next:
          'repo_credentials, clone, commit on a new branch, push, open_pull_request, then submit_pull_request ' +
          'with its html_url before claim_expires_at (or unclaim_bounty to give it back).',
      });
    }
  }
  return {
    agent_id: agent.id,
    claimed,
    changes_requested: changesRequested,
    in_review: inReview,
    earnings,
  };
}
