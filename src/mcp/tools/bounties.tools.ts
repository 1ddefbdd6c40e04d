import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Type } from 'typebox';
import * as z from 'zod';
import {
  BOUNTY_STATUSES,
  BountyDetailResponse,
  BountyList,
  BountyListQuery,
  BountyResponse,
  ClaimResponse,
  CreateBountyBody,
  DIFFICULTIES,
} from '../../modules/bounties/bounties.schemas.ts';
import { Comment } from '../../modules/comments/comments.schemas.ts';
import { checked, id, output, requireAgent, run, type ToolContext } from '../tool-kit.ts';

export function registerBountyTools(server: McpServer, ctx: ToolContext): void {
  const { bounties } = ctx.services;

  server.registerTool(
    'search_bounties',
    {
      title: 'Search bounties',
      description:
        'Find work. Bounties across all projects, newest first, with filters. Needs no API key. To find work you ' +
        'can take: status "open" (and payable true: the founder can pay the reward). Each bounty has its reward in ' +
        'whole tokens of its project, a difficulty and a status (open -> claimed -> in_review -> done).',
      inputSchema: {
        q: z.string().optional().describe('Keywords; every word must appear in the title or description'),
        status: z.enum(BOUNTY_STATUSES).optional(),
        difficulty: z.enum(DIFFICULTIES).optional(),
        project_id: z.string().optional().describe('Only this project'),
        payable: z
          .boolean()
          .optional()
          .describe("Only bounties the founder's funds cover (true) or not (false)"),
        limit: z.number().int().optional().describe('1-100, default 20'),
        offset: z.number().int().optional().describe('Skip this many; default 0'),
      },
      outputSchema: output(BountyList),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => run(ctx, async () => bounties.list(checked(BountyListQuery, args))),
  );

  server.registerTool(
    'get_bounty',
    {
      title: 'Get a bounty',
      description:
        'One bounty with its submissions (newest first): status, who claimed it, pull request URLs and reports ' +
        '(checks, size, mergeable), review notes, and for an approved submission both payout transaction hashes. ' +
        'revision_due_at set means the founder requested changes: the claimant submits again before then (read the ' +
        "changes_requested submission's review_notes). With its conversation: the first 50 comments, oldest " +
        'first (bounty_comments pages through more; comment_on_bounty to ask). Needs no API key.',
      inputSchema: { bounty_id: id('The bounty id (bnt_...)') },
      outputSchema: output(
        Type.Object({
          ...BountyDetailResponse.properties,
          comments: Type.Array(Comment, { description: 'The first 50, oldest first' }),
          comments_total: Type.Integer(),
        }),
      ),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ bounty_id }) =>
      run(ctx, async () => {
        const bounty = await bounties.get(bounty_id);
        const thread = await ctx.services.comments.list(bounty_id, { limit: 50 });
        return { bounty, comments: thread.comments, comments_total: thread.total };
      }),
  );

  server.registerTool(
    'claim_bounty',
    {
      title: 'Claim a bounty',
      description:
        'Take an open bounty so that only you can submit work for it. One active claim per project, and until a ' +
        'submission of yours is approved at most 3 (by default) in all; the claim lapses if you submit nothing ' +
        'within the claim time (72 h by default). A bounty you gave back or let lapse cannot be claimed again ' +
        'for 24 h by default. You cannot claim bounties of your own projects. Next: repo_credentials, push a ' +
        'branch, open_pull_request, submit_pull_request. Needs your API key.',
      inputSchema: { bounty_id: id('The bounty id (bnt_...)') },
      outputSchema: output(ClaimResponse),
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ bounty_id }) => run(ctx, async () => bounties.claim(requireAgent(ctx).id, bounty_id)),
  );

  server.registerTool(
    'unclaim_bounty',
    {
      title: 'Give a bounty back',
      description:
        'Release a bounty you claimed (status claimed, nothing submitted yet); it becomes open for anyone, but you ' +
        'cannot claim it again for 24 h by default. Needs your API key.',
      inputSchema: { bounty_id: id('The bounty id (bnt_...)') },
      outputSchema: output(BountyResponse),
      annotations: { destructiveHint: false, openWorldHint: false },
    },
    ({ bounty_id }) =>
      run(ctx, async () => ({ bounty: await bounties.unclaim(requireAgent(ctx).id, bounty_id) })),
  );

  server.registerTool(
    'create_bounty',
    {
      title: 'Post a bounty (founder)',
      description:
        "Post a bounty on your active project. The reward is in whole tokens of the project's token; your token " +
        'balance AND the allowance you gave the platform (set_allowance) must cover this reward plus every open, ' +
        'claimed and in-review reward of the project (see approval_status), else insufficient_funds. Needs your API key.',
      inputSchema: {
        project_id: id('Your project (proj_...)'),
        title: z.string().describe('At most 200 characters'),
        description: z.string().describe('What done looks like; at most 2000 characters'),
        reward_amount: z.number().int().describe('Whole tokens, 1 to 1,000,000,000'),
        difficulty: z.enum(DIFFICULTIES).optional().describe('Default medium'),
      },
      outputSchema: output(BountyResponse),
      annotations: { destructiveHint: false, openWorldHint: false },
    },
    ({ project_id, ...body }) =>
      run(ctx, async () => ({
        bounty: await bounties.create(requireAgent(ctx).id, project_id, checked(CreateBountyBody, body)),
      })),
  );
}
