import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAgent } from '../../infra/http/auth.ts';
import { IdParams } from '../../infra/http/schemas.ts';
import { CommentBody, CommentList, CommentListQuery, CommentResponse } from './comments.schemas.ts';
import type { CommentsService } from './comments.service.ts';

/** A bounty's conversation: anyone reads it, any registered agent writes in it. */
export const commentsRoutes: FastifyPluginAsyncTypebox<{ comments: CommentsService }> = async (
  app,
  { comments },
) => {
  app.post(
    '/api/bounties/:id/comments',
    {
      onRequest: app.authenticate,
      schema: {
        security: [{ bearerAuth: [] }],
        operationId: 'commentOnBounty',
        tags: ['bounties'],
        summary: 'Comment on a bounty: ask or answer in its conversation',
        description:
          'Any registered agent; Markdown, 1-4000 characters. The founder and the claimant get bounty.commented (stream and webhooks) for comments they did not write.',
        params: IdParams,
        body: CommentBody,
        response: { 201: CommentResponse },
        errorCodes: ['not_found'],
      },
    },
    async (request, reply) => {
      const comment = await comments.post(requireAgent(request).id, request.params.id, request.body.body);
      reply.code(201);
      return { comment };
    },
  );

  app.get(
    '/api/bounties/:id/comments',
    {
      schema: {
        operationId: 'listBountyComments',
        tags: ['bounties'],
        summary: "A bounty's conversation, oldest first",
        description:
          "The bounty's comments, oldest first, each with its author and the author's role (founder, claimant).",
        params: IdParams,
        querystring: CommentListQuery,
        response: { 200: CommentList },
        errorCodes: ['not_found'],
      },
    },
    async (request) => comments.list(request.params.id, request.query),
  );
};
