import type { FastifyInstance } from 'fastify';
import type { PullRequestReport } from '../../infra/db/schema.ts';
import { readReport } from '../../modules/reviews/pr-report.ts';
import { RejectBody } from '../../modules/reviews/reviews.schemas.ts';
import { payoutsOfFounder } from './console.repo.ts';
import { type DiffView, diffView } from './diff.ts';
import { tokenAmount } from './format.ts';
import { type ConsoleCtx, type ConsoleDeps, parseForm, registerAction, registerPage } from './kit.ts';
import { approvalAmounts, deadline, reportView } from './review-view.ts';

/** How long the page waits for the host's list of files before showing the rest without them. */
const FILES_TIMEOUT_MS = 5_000;

const timeout = (ms: number) =>
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref());

/**
 * The submission's pull request report: the one stored at submit (refreshed on the host's
 * webhooks), or for a submission made before reports existed, read from the host now (null when
 * it cannot say).
 */
async function reportOf(ctx: ConsoleCtx, prUrl: string, stored: PullRequestReport | null) {
  if (stored) return stored;
  // The queue is the founder's own: the viewer's statuses are the founder's.
  const founder = await ctx.services.directory.require(ctx.session.agentId);
  return readReport(ctx.repoHost, prUrl, founder.repoLogin).catch(() => null);
}

/** The pull request's diff from the host; null when the host could not give it (the page says so). */
async function diffOf(ctx: ConsoleCtx, prUrl: string, changedFiles: number | null): Promise<DiffView | null> {
  try {
    const files = await Promise.race([ctx.services.submissions.filesOf(prUrl), timeout(FILES_TIMEOUT_MS)]);
    return diffView(files, changedFiles);
  } catch {
    // The loader has no request logger; the page says the diff could not be read.
    return null;
  }
}

/**
 * What changed on a resubmission since the founder's last review, as a diff; null when it could
 * not be read (the page says so), undefined for a first submission or a commit the host lost.
 */
async function changesOf(ctx: ConsoleCtx, bountyId: string, submissionId: string) {
  try {
    const read = ctx.services.submissions.changesSince(ctx.session.agentId, bountyId, submissionId);
    const { changes } = await Promise.race([read, timeout(FILES_TIMEOUT_MS)]);
    return changes ? { diff: diffView(changes.files), commits: changes.total_commits } : undefined;
  } catch {
    return null;
  }
}

/** The most submissions the page shows: the queue's first page at its largest (the oldest). */
const QUEUE_PAGE = 100;

/**
 * The founder's review queue, as `GET /api/reviews` and MCP's `review_queue` give it (the same
 * service call: oldest submission first, amounts split by the payouts module), each submission
 * with what the page adds: its contributor's name, its diff, and how often the bounty was sent back.
 */
export async function loadReviews(ctx: ConsoleCtx) {
  const { services, session, config } = ctx;
  const [{ projects }, page] = await Promise.all([
    services.projects.list({ founder_id: session.agentId, status: 'active', limit: 100, offset: 0 }),
    services.submissions.queue(session.agentId, { limit: QUEUE_PAGE, offset: 0 }),
  ]);
  const symbols = new Map(projects.map((p) => [p.id, p.token_symbol]));
  const now = ctx.clock.now();
  const revisionDue = deadline(new Date(now.getTime() + config.revisionHours * 3_600_000), now);
  const queue = await Promise.all(
    page.reviews.map(async ({ bounty, submission, payout, earlier_reviews }) => {
      const [contributor, report, detail] = await Promise.all([
        services.directory.require(submission.agent_id),
        reportOf(ctx, submission.pr_url, submission.pull_request),
        services.bounties.get(bounty.id),
      ]);
      const [diff, changes] = await Promise.all([
        diffOf(ctx, submission.pr_url, report?.changed_files ?? null),
        report?.reviewed_head_sha ? changesOf(ctx, bounty.id, submission.id) : undefined,
      ]);
      return {
        bounty,
        submission,
        contributorName: contributor.name,
        report: report ? reportView(report) : null,
        diff,
        pay: approvalAmounts(payout, bounty.reward_eth_units, bounty.reward_usd),
        symbol: symbols.get(bounty.project_id) ?? 'tokens',
        // Earlier rounds of this bounty: how often it was sent back already.
        rounds: detail.submissions.filter((s) => s.status === 'changes_requested').length,
        // This contributor's rounds, newest first, with the founder's notes.
        earlier: earlier_reviews,
        description: report?.body ?? null,
        reviewedHead: report?.reviewed_head_sha ?? null,
        changes,
      };
    }),
  );
  // Sent back for changes: the contributor revising, each with its deadline and the notes sent.
  const sentBack = await Promise.all(
    page.waiting.map(async ({ bounty, submission }) => ({
      bounty,
      submission,
      contributorName: (await services.directory.require(submission.agent_id)).name,
      due: bounty.revision_due_at ? deadline(bounty.revision_due_at, now) : null,
    })),
  );
  const payouts = (await payoutsOfFounder(ctx.db, session.agentId)).map((p) => ({
    ...p,
    toContributor: tokenAmount(p.contributorUnits),
    fee: tokenAmount(p.feeUnits),
  }));
  // console-live.js re-fetches the queue on the events of these projects.
  const liveProjects = projects.map((p) => p.id);
  return {
    queue,
    // How many wait in all; past QUEUE_PAGE the page shows the oldest and says so.
    waiting: page.total,
    sentBack,
    revisionDue,
    revisionHours: config.revisionHours,
    payouts,
    liveProjects,
  };
}

const bountyForm = (name: string) => (p: { id: string }) => `${name}-${p.id}`;
const notesOf = (body: Record<string, unknown>) =>
  typeof body.review_notes === 'string' ? body.review_notes.trim() : '';

export function registerReviewPages(app: FastifyInstance, deps: ConsoleDeps): void {
  registerPage(app, deps, 'reviews', loadReviews);
  const base = { page: 'reviews' as const, load: loadReviews };

  registerAction(app, deps, {
    ...base,
    path: '/console/bounties/:id/approve',
    form: bountyForm('approve'),
    run: async (ctx, { id }, body) => {
      const notes = notesOf(body);
      const merge = body.merge === 'true';
      const r = await ctx.services.approvals.approve(ctx.session.agentId, id, notes || undefined, { merge });
      return {
        flash:
          r.contributor_tx_hash === r.platform_fee_tx_hash
            ? `${merge ? 'Merged, approved' : 'Approved'} and paid: the contributor's share and the platform fee in one transaction, ${r.contributor_tx_hash}.`
            : `${merge ? 'Merged, approved' : 'Approved'} and paid. Contributor transaction ${r.contributor_tx_hash}; fee transaction ${r.platform_fee_tx_hash}.`,
      };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/bounties/:id/request-changes',
    form: bountyForm('changes'),
    run: async (ctx, { id }, body) => {
      const { review_notes } = parseForm(RejectBody, { review_notes: notesOf(body) });
      const r = await ctx.services.submissions.requestChanges(ctx.session.agentId, id, review_notes);
      const due = deadline(r.revision_due_at, ctx.clock.now());
      return {
        flash: `Changes requested with your notes. The contributor keeps the claim until ${due.text} to submit again.`,
      };
    },
  });

  registerAction(app, deps, {
    ...base,
    path: '/console/bounties/:id/reject',
    form: bountyForm('reject'),
    run: async (ctx, { id }, body) => {
      const { review_notes } = parseForm(RejectBody, { review_notes: notesOf(body) });
      await ctx.services.submissions.reject(ctx.session.agentId, id, review_notes);
      return { flash: 'Rejected with your notes; the bounty is open again.' };
    },
  });
}
