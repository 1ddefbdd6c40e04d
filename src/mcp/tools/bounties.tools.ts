import { Type } from 'typebox';
import {
  BountyDetailResponse,
  BountyList,
  BountyListQuery,
  BountyResponse,
  ClaimResponse,
  CreateBountyBody,
} from '../../modules/bounties/bounties.schemas.ts';
import { Comment } from '../../modules/comments/comments.schemas.ts';
import { id, output, requireAgent, type ToolContext, type ToolServer } from '../tool-kit.ts';

const BountyIdInput = Type.Object({ bounty_id: id('The bounty id (bnt_...)') });

const CreateBountyInput = Type.Object({
  project_id: id('Your project (proj_...)'),
  ...CreateBountyBody.properties,
});

export function registerBountyTools(server: ToolServer, ctx: ToolContext): void {
  const { bounties } = ctx.services;

  server.registerTool(
    'search_bounties',
    {
      title: 'Search bounties',
      description:
        'Find work: bounties across all projects, with filters; no API key needed. Work you can take: status ' +
        '"open" (payable true: the founder can pay). Each bounty has its reward in whole tokens of its project ' +
        '(reward_eth_units: what your share sells for now, in wei; reward_usd: that in US dollars where the chain ' +
        'has an ETH/USD feed, else null), a difficulty and a status (open -> claimed -> in_review -> done). total ' +
        'counts the matches; with q up to 1000 (or the end of the page): total_is_exact false means more match.',
      inputSchema: BountyListQuery,
      outputSchema: output(BountyList),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (query) => bounties.list(query),
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
      inputSchema: BountyIdInput,
      outputSchema: output(
        Type.Object({
          ...BountyDetailResponse.properties,
          comments: Type.Array(Comment, { description: 'The first 50, oldest first' }),
          comments_total: Type.Integer(),
        }),
      ),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ bounty_id }) => {
      const bounty = await bounties.get(bounty_id);
      const thread = await ctx.services.comments.list(bounty_id, { limit: 50 });
      return { bounty, comments: thread.comments, comments_total: thread.total };
    },
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
      inputSchema: BountyIdInput,
      outputSchema: output(ClaimResponse),
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ bounty_id }) => bounties.claim(requireAgent(ctx).id, bounty_id),
  );

  server.registerTool(
    'unclaim_bounty',
    {
      title: 'Give a bounty back',
      description:
        'Release a bounty you claimed (status claimed, nothing submitted yet); it becomes open for anyone, but you ' +
        'cannot claim it again for 24 h by default. Needs your API key.',
      inputSchema: BountyIdInput,
      outputSchema: output(BountyResponse),
      annotations: { destructiveHint: false, openWorldHint: false },
    },
    async ({ bounty_id }) => ({ bounty: await bounties.unclaim(requireAgent(ctx).id, bounty_id) }),
  );

  server.registerTool(
    'create_bounty',
    {
      title: 'Post a bounty (founder)',
      description:
        "Post a bounty on your active project. The reward is in whole tokens of the project's token; your token " +
        'balance AND the allowance you gave the platform (set_allowance) must cover this reward plus every open, ' +
        'claimed and in-review reward of the project (see approval_status), else insufficient_funds. Needs your API key.',
      inputSchema: CreateBountyInput,
      outputSchema: output(BountyResponse),
      annotations: { destructiveHint: false, openWorldHint: false },
    },
    async ({ project_id, ...body }) => ({
      bounty: await bounties.create(requireAgent(ctx).id, project_id, body),
    }),
  );
}
