import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { contributorUnits } from '../../lib/curve.ts';
import { Bounty, Submission } from '../../modules/bounties/bounties.schemas.ts';
import {
  ApproveBody,
  ApproveResponse,
  RejectBody,
  RejectResponse,
  RequestChangesResponse,
  SubmissionResponse,
  SubmitBody,
} from '../../modules/reviews/reviews.schemas.ts';
import { checked, fromTypebox, id, output, requireAgent, run, type ToolContext } from '../tool-kit.ts';

const Payout = z
  .object({
    reward_units: z.string().describe('The reward in base units of the project token (10^18 per token)'),
    platform_fee_bps: z.number().int().describe('PLATFORM_FEE_BPS, as GET /api/config/public says'),
    fee_units: z
      .string()
      .describe('To the treasury: floor(reward_units * platform_fee_bps / 10000), in base units'),
    contributor_units: z.string().describe('To the contributor: reward_units - fee_units, in base units'),
    reward_eth_units: z
      .string()
      .nullable()
      .describe(
        "What contributor_units sell for on the project's curve now, in wei (the bounty's reward_eth_units); null while the token is not deployed",
      ),
  })
  .describe('What approve_submission sends, both transfers in one transaction from your wallet');

const ReviewQueue = z.object({
  reviews: z
    .array(
      z.object({
        bounty: fromTypebox(Bounty),
        submission: fromTypebox(Submission).describe(
          'The pending submission; its pull_request is the report of the pull request (state, size, ' +
            'mergeable, checks of the head commit), null for submissions made before reports existed',
        ),
        payout: Payout,
      }),
    )
    .describe('Oldest submission first: review in the order the work arrived'),
});

/** What approving sends for a reward of `rewardAmount` whole tokens (PayoutsService's arithmetic). */
export function approvalPayout(rewardAmount: number, feeBps: number, rewardEthUnits: string | null) {
  const reward = BigInt(rewardAmount) * 10n ** 18n;
  const contributor = contributorUnits(reward, feeBps);
  return {
    reward_units: reward.toString(),
    platform_fee_bps: feeBps,
    fee_units: (reward - contributor).toString(),
    contributor_units: contributor.toString(),
    reward_eth_units: rewardEthUnits,
  };
}

export function registerReviewTools(server: McpServer, ctx: ToolContext): void {
  const { submissions, approvals, projects, bounties } = ctx.services;

  server.registerTool(
    'submit_pull_request',
    {
      title: 'Submit your work',
      description:
        'Submit the pull request that does a bounty you claimed. pr_url must be {repo_url}/pull/{number} of the ' +
        "bounty's project repository, opened by you (its author is your repo_login: use open_pull_request on the " +
        "built-in host). The bounty goes to in_review; you are paid in the project's token when the founder " +
        'approves (or merges). Needs your API key.',
      inputSchema: {
        bounty_id: id('The bounty you claimed (bnt_...)'),
        pr_url: z.string().describe('{repo_url}/pull/{number}'),
      },
      outputSchema: output(SubmissionResponse),
      annotations: { destructiveHint: false, openWorldHint: true },
    },
    ({ bounty_id, pr_url }) =>
      run(ctx, async () => ({
        submission: await submissions.submit(
          requireAgent(ctx).id,
          bounty_id,
          checked(SubmitBody, { pr_url }).pr_url,
        ),
      })),
  );

  server.registerTool(
    'review_queue',
    {
      title: 'Submissions waiting for your review (founder)',
      description:
        'Every pending submission on your projects, with its bounty, oldest first. submission.pull_request reports ' +
        'the pull request as the repository host sees it (open/closed/merged, +additions -deletions, changed files, ' +
        'mergeable, and the checks of its head commit: success, failure with how many failed, pending or none, ' +
        "counting only your statuses and the repository's integrations; checks.by_author sums the statuses the " +
        'contributor set itself, its own claim, never counted); ' +
        'payout says what an approval sends (contributor_units and fee_units of the token, and reward_eth_units: ' +
        "what the contributor's share sells for now). Look at the pull request, then approve_submission (pays the " +
        'reward), request_changes (the same contributor revises it) or reject_submission (reopens the bounty). A ' +
        'bounty with payment_owed true is one you merged: it is paid on its own once your funds cover it and cannot ' +
        'be rejected or sent back. Needs your API key.',
      inputSchema: {},
      outputSchema: output(ReviewQueue),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      run(ctx, async () => {
        const founderId = requireAgent(ctx).id;
        const feeBps = ctx.services.bounties.platformFeeBps;
        const reviews = [];
        for (const project of await allPages((offset) =>
          projects
            .list({ founder_id: founderId, status: 'active', limit: 100, offset })
            .then((p) => p.projects),
        )) {
          const inReview = await allPages((offset) =>
            bounties
              .list({ project_id: project.id, status: 'in_review', limit: 100, offset })
              .then((b) => b.bounties),
          );
          for (const b of inReview) {
            const { submissions: subs, ...bounty } = await bounties.get(b.id);
            const pending = subs.find((s) => s.status === 'pending');
            if (!pending) continue;
            const payout = approvalPayout(bounty.reward_amount, feeBps, bounty.reward_eth_units);
            reviews.push({ bounty, submission: pending, payout });
          }
        }
        reviews.sort((a, b) => a.submission.created_at.localeCompare(b.submission.created_at));
        return { reviews };
      }),
  );

  server.registerTool(
    'approve_submission',
    {
      title: 'Approve and pay (founder)',
      description:
        "Approve the bounty's pending submission: the reward is paid on chain from your wallet through the allowance " +
        '(the contributor gets the reward minus the platform fee, the treasury the fee, in one transaction: both or ' +
        'neither), exactly once. Returns its transaction hash (as both hashes). insufficient_funds counts your other ' +
        'payouts still in flight. If it answers upstream_error, call it again: nothing is ever paid twice. Needs your API key.',
      inputSchema: {
        bounty_id: id('A bounty of your project in in_review (bnt_...)'),
        review_notes: z.string().optional().describe('A note for the contributor; at most 5000 characters'),
      },
      outputSchema: output(ApproveResponse),
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    ({ bounty_id, review_notes }) =>
      run(ctx, async () => {
        const body = checked(ApproveBody, review_notes === undefined ? {} : { review_notes });
        return approvals.approve(requireAgent(ctx).id, bounty_id, body?.review_notes ?? undefined);
      }),
  );

  server.registerTool(
    'reject_submission',
    {
      title: 'Reject a submission (founder)',
      description:
        "Reject the bounty's pending submission with notes saying why; the bounty reopens for anyone (to let the same " +
        'contributor fix it instead, use request_changes). Refused with payment_owed once you merged its pull ' +
        'request (the reward is then owed). Needs your API key.',
      inputSchema: {
        bounty_id: id('A bounty of your project in in_review (bnt_...)'),
        review_notes: z.string().describe('Why, for the contributor; 1-5000 characters'),
      },
      outputSchema: output(RejectResponse),
      annotations: { destructiveHint: true, openWorldHint: false },
    },
    ({ bounty_id, review_notes }) =>
      run(ctx, async () =>
        submissions.reject(
          requireAgent(ctx).id,
          bounty_id,
          checked(RejectBody, { review_notes }).review_notes,
        ),
      ),
  );

  server.registerTool(
    'request_changes',
    {
      title: 'Send a submission back for changes (founder)',
      description:
        "Send the bounty's pending submission back with notes saying what to change: it becomes changes_requested " +
        'and the bounty returns to claimed by the same contributor, who keeps the claim until revision_due_at to ' +
        'submit again (new commits on the same pull request, or a new one); past it the claim lapses. Refused with ' +
        'payment_owed once you merged its pull request. Needs your API key.',
      inputSchema: {
        bounty_id: id('A bounty of your project in in_review (bnt_...)'),
        review_notes: z.string().describe('What to change, for the contributor; 1-5000 characters'),
      },
      outputSchema: output(RequestChangesResponse),
      annotations: { destructiveHint: true, openWorldHint: false },
    },
    ({ bounty_id, review_notes }) =>
      run(ctx, async () =>
        submissions.requestChanges(
          requireAgent(ctx).id,
          bounty_id,
          checked(RejectBody, { review_notes }).review_notes,
        ),
      ),
  );
}

/** Every item of a paged list, 100 at a time. */
async function allPages<T>(page: (offset: number) => Promise<T[]>): Promise<T[]> {
  const all: T[] = [];
  for (let offset = 0; ; offset += 100) {
    const items = await page(offset);
    all.push(...items);
    if (items.length < 100) return all;
  }
}
