import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAgent } from '../../infra/http/auth.ts';
import { errors, IdParams } from '../../infra/http/schemas.ts';
import type { ApprovalsService } from './approvals.service.ts';
import {
  ApproveBody,
  ApproveResponse,
  RejectBody,
  RejectResponse,
  SubmissionResponse,
  SubmitBody,
} from './reviews.schemas.ts';
import type { SubmissionsService } from './submissions.service.ts';

/** Submitting work and the founder's review of it (approve pays, reject reopens). */
export const reviewsRoutes: FastifyPluginAsyncTypebox<{
  submissions: SubmissionsService;
  approvals: ApprovalsService;
}> = async (app, { submissions, approvals }) => {
  const authed = { onRequest: app.authenticate };
  const security = [{ bearerAuth: [] }];

  app.post(
    '/api/bounties/:id/submit',
    {
      ...authed,
      schema: {
        security,
        tags: ['bounties'],
        summary: 'Submit a pull request for a claimed bounty (claimant)',
        params: IdParams,
        body: SubmitBody,
        response: { 201: SubmissionResponse, ...errors(400, 401, 403, 404, 409, 413, 415, 429) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        submission: await submissions.submit(
          requireAgent(request).id,
          request.params.id,
          request.body.pr_url,
        ),
      }),
  );

  app.post(
    '/api/bounties/:id/reject',
    {
      ...authed,
      schema: {
        security,
        tags: ['bounties'],
        summary: 'Reject the pending submission; the bounty reopens (founder)',
        params: IdParams,
        body: RejectBody,
        response: { 200: RejectResponse, ...errors(400, 401, 403, 404, 409, 413, 415, 429) },
      },
    },
    async (request) =>
      submissions.reject(requireAgent(request).id, request.params.id, request.body.review_notes),
  );

  app.post(
    '/api/bounties/:id/approve',
    {
      ...authed,
      schema: {
        security,
        tags: ['bounties'],
        summary: 'Approve the pending submission and pay it out (founder)',
        params: IdParams,
        body: ApproveBody,
        response: { 200: ApproveResponse, ...errors(400, 401, 403, 404, 409, 413, 415, 429, 502, 503) },
      },
    },
    async (request) =>
      approvals.approve(
        requireAgent(request).id,
        request.params.id,
        request.body?.review_notes ?? undefined,
        {
          replay: request.idempotency?.retryOfLost === true,
        },
      ),
  );
};
