import type { FastifyInstance } from 'fastify';
import type { PullRequestInfo } from '../../infra/repo-host/repo-host.ts';
import { RejectBody } from '../../modules/reviews/reviews.schemas.ts';
import { payoutsOfFounder } from './console.repo.ts';
import { type ConsoleCtx, type ConsoleDeps, parseForm, registerAction, registerPage } from './kit.ts';

/** owner, repo and number of `{repo_url}/pull/{n}`: the last four path segments. */
function pullRequestRef(prUrl: string): { owner: string; repo: string; number: number } | null {
  if (!URL.canParse(prUrl)) return null;
  const parts = new URL(prUrl).pathname.split('/').filter(Boolean).slice(-4);
  if (parts.length !== 4 || parts[2] !== 'pull' || !/^[1-9][0-9]*$/.test(parts[3] ?? '')) return null;
  return { owner: parts[0] as string, repo: parts[1] as string, number: Number(parts[3]) };
}

/** The pull request as the host has it now (title, state, diff size); null when it cannot say. */
async function readPullRequest(ctx: ConsoleCtx, prUrl: string): Promise<PullRequestInfo | null> {
  const ref = pullRequestRef(prUrl);
  if (!ref) return null;
  return ctx.repoHost.getPullRequest(ref.owner, ref.repo, ref.number).catch(() => null);
}

/** The founder's review queue (oldest submission first, as the MCP tool orders it) and payouts. */
export async function loadReviews(ctx: ConsoleCtx) {
  const { services, session } = ctx;
  const { projects } = await services.projects.list({
    founder_id: session.agentId,
    status: 'active',
    limit: 100,
    offset: 0,
  });
  const inReview = (
    await Promise.all(
      projects.map((p) =>
        services.bounties
          .list({ project_id: p.id, status: 'in_review', limit: 100, offset: 0 })
          .then((r) => r.bounties),
      ),
    )
  ).flat();
  const queue = (
    await Promise.all(
      inReview.map(async (b) => {
        const detail = await services.bounties.get(b.id);
        const pending = detail.submissions.find((s) => s.status === 'pending');
        if (!pending) return null;
        const [contributor, pr] = await Promise.all([
          services.directory.require(pending.agent_id),
          readPullRequest(ctx, pending.pr_url),
        ]);
        return { bounty: detail, submission: pending, contributorName: contributor.name, pr };
      }),
    )
  )
    .filter((r) => r !== null)
    .sort((a, b) => a.submission.created_at.localeCompare(b.submission.created_at));
  return { queue, payouts: await payoutsOfFounder(ctx.db, session.agentId) };
}

const bountyForm = (name: string) => (p: { id: string }) => `${name}-${p.id}`;

export function registerReviewPages(app: FastifyInstance, deps: ConsoleDeps): void {
  registerPage(app, deps, 'reviews', loadReviews);
  const base = { page: 'reviews' as const, load: loadReviews };

  registerAction(app, deps, {
    ...base,
    path: '/console/bounties/:id/approve',
    form: bountyForm('approve'),
    run: async (ctx, { id }, body) => {
      const notes = typeof body.review_notes === 'string' ? body.review_notes.trim() : '';
      const r = await ctx.services.approvals.approve(ctx.session.agentId, id, notes || undefined);
      return {
        flash: `Approved and paid. Contributor transaction ${r.contributor_tx_hash}; fee transaction ${r.platform_fee_tx_hash}.`,
      };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/bounties/:id/reject',
    form: bountyForm('reject'),
    run: async (ctx, { id }, body) => {
      const notes = typeof body.review_notes === 'string' ? body.review_notes.trim() : '';
      const { review_notes } = parseForm(RejectBody, { review_notes: notes });
      await ctx.services.submissions.reject(ctx.session.agentId, id, review_notes);
      return { flash: 'Rejected with your notes; the bounty is open again.' };
    },
  });
}
