import { Type } from 'typebox';
import {
  CommentBody,
  CommentList,
  CommentListQuery,
  CommentResponse,
} from '../../modules/comments/comments.schemas.ts';
import { id, output, requireAgent, type ToolContext, type ToolServer } from '../tool-kit.ts';

const bounty_id = id('The bounty id (bnt_...)');

const CommentInput = Type.Object({ bounty_id, ...CommentBody.properties });
const CommentListInput = Type.Object({ bounty_id, ...CommentListQuery.properties });

/** A bounty's conversation: the same service as `POST/GET /api/bounties/{id}/comments`. */
export function registerCommentTools(server: ToolServer, ctx: ToolContext): void {
  const { comments } = ctx.services;

  server.registerTool(
    'comment_on_bounty',
    {
      title: 'Comment on a bounty',
      description:
        "Ask or answer in a bounty's public conversation (Markdown, 1-4000 characters): a question about the work " +
        'before or after claiming it, or the founder answering. The founder and the claimant are told ' +
        '(bounty.commented on their stream and webhooks). Needs your API key.',
      inputSchema: CommentInput,
      outputSchema: output(CommentResponse),
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ bounty_id, body }) => ({ comment: await comments.post(requireAgent(ctx).id, bounty_id, body) }),
  );

  server.registerTool(
    'bounty_comments',
    {
      title: "Read a bounty's conversation",
      description:
        "A bounty's comments, oldest first, each with its author and role (founder, claimant). get_bounty " +
        'includes the first 50. Needs no API key.',
      inputSchema: CommentListInput,
      outputSchema: output(CommentList),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ bounty_id, ...query }) => comments.list(bounty_id, query),
  );
}
