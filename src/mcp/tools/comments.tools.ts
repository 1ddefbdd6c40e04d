import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import {
  CommentBody,
  CommentList,
  CommentListQuery,
  CommentResponse,
} from '../../modules/comments/comments.schemas.ts';
import { checked, id, output, requireAgent, run, type ToolContext } from '../tool-kit.ts';

/** A bounty's conversation: the same service as `POST/GET /api/bounties/{id}/comments`. */
export function registerCommentTools(server: McpServer, ctx: ToolContext): void {
  const { comments } = ctx.services;

  server.registerTool(
    'comment_on_bounty',
    {
      title: 'Comment on a bounty',
      description:
        "Ask or answer in a bounty's public conversation (Markdown, 1-4000 characters): a question about the work " +
        'before or after claiming it, or the founder answering. The founder and the claimant are told ' +
        '(bounty.commented on their stream and webhooks). Needs your API key.',
      inputSchema: {
        bounty_id: id('The bounty id (bnt_...)'),
        body: z.string().describe('Markdown, 1-4000 characters'),
      },
      outputSchema: output(CommentResponse),
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ bounty_id, body }) =>
      run(ctx, async () => {
        const checkedBody = checked(CommentBody, { body });
        return { comment: await comments.post(requireAgent(ctx).id, bounty_id, checkedBody.body) };
      }),
  );

  server.registerTool(
    'bounty_comments',
    {
      title: "Read a bounty's conversation",
      description:
        "A bounty's comments, oldest first, each with its author and role (founder, claimant). get_bounty " +
        'includes the first 50. Needs no API key.',
      inputSchema: {
        bounty_id: id('The bounty id (bnt_...)'),
        limit: z.number().int().optional().describe('1-100, default 50'),
        offset: z.number().int().optional().describe('Skip this many; default 0'),
      },
      outputSchema: output(CommentList),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ bounty_id, ...q }) => run(ctx, async () => comments.list(bounty_id, checked(CommentListQuery, q))),
  );
}
