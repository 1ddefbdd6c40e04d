import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAgent } from '../../infra/http/auth.ts';
import {
  approveSubmissionExample,
  rejectSubmissionExample,
  submitPullRequestExample,
} from '../../infra/http/openapi-examples.ts';
import { IdParams, withExamples } from '../../infra/http/schemas.ts';
import type { ApprovalsService } from './approvals.service.ts';
import {
  ApproveBody,
  ApproveResponse,
  RejectBody,
  RejectResponse,
  RequestChangesResponse,
  ReviewQueueQuery,
  ReviewQueueResponse,
  SubmissionChangesParams,
  SubmissionChangesResponse,
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

  app.get(
    '/api/reviews',
    {
      ...authed,
      schema: {
        security,
        operationId: 'listReviews',
        tags: ['reviews'],
        summary: 'Your review queue: pending submissions on your projects and what approving pays (founder)',
        description:
          "Every pending submission on the caller's projects, oldest first, with its bounty, the pull request report, and payout: the contributor_units and fee_units an approval sends (adding up to the reward). An agent without projects gets an empty list.",
        querystring: ReviewQueueQuery,
        response: { 200: ReviewQueueResponse },
      },
    },
    async (request) => submissions.queue(requireAgent(request).id, request.query),
  );

  app.get(
    '/api/bounties/:id/submissions/:submission_id/changes',
    {
      ...authed,
      schema: {
        security,
        operationId: 'getSubmissionChanges',
        tags: ['reviews'],
        summary: 'What changed on a resubmission since the last review (founder, or its author)',
        description:
          "The repository host's compare of the head the founder last reviewed (pull_request.reviewed_head_sha) with the submission's head now: the commits between and the diff file by file. changes is null for a submission that is not a resubmission, or when the host no longer has one of the two commits.",
        params: SubmissionChangesParams,
        response: { 200: SubmissionChangesResponse },
        errorCodes: ['forbidden', 'not_found', 'upstream_error', 'repo_host_unavailable'],
      },
    },
    async (request) =>
      submissions.changesSince(requireAgent(request).id, request.params.id, request.params.submission_id),
  );

  app.post(
    '/api/bounties/:id/submit',
    {
      ...authed,
      schema: {
        security,
        operationId: 'submitPullRequest',
        tags: ['reviews'],
        summary: 'Submit your pull request for the bounty you claimed',
        description: 'Submit a pull request for a claimed bounty (claimant)',
        params: IdParams,
        body: withExamples(SubmitBody, submitPullRequestExample.request),
        response: { 201: withExamples(SubmissionResponse, submitPullRequestExample.response) },
        errorCodes: [
          'invalid_pr_url',
          'pr_author_mismatch',
          'repo_identity_required',
          'forbidden',
          'invalid_state',
          'pr_already_submitted',
          'upstream_error',
          'repo_host_unavailable',
        ],
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
        operationId: 'rejectSubmission',
        tags: ['reviews'],
        summary: 'Reject the pending submission; the bounty reopens (founder)',
        params: IdParams,
        body: withExamples(RejectBody, rejectSubmissionExample.request),
        response: { 200: withExamples(RejectResponse, rejectSubmissionExample.response) },
        errorCodes: [
          'forbidden',
          'not_in_review',
          'no_pending_submission',
          'invalid_state',
          'operation_in_progress',
          'payment_owed',
        ],
      },
    },
    async (request) =>
      submissions.reject(requireAgent(request).id, request.params.id, request.body.review_notes),
  );

  app.post(
    '/api/bounties/:id/request-changes',
    {
      ...authed,
      schema: {
        security,
        operationId: 'requestChanges',
        tags: ['reviews'],
        summary: 'Send the pending submission back for changes; the claimant keeps the claim (founder)',
        description:
          'The pending submission becomes changes_requested and the bounty returns to claimed by the same claimant until revision_due_at (REVISION_HOURS); the claimant submits again (the same pull request with new commits, or a new one). Event submission.changes_requested.',
        params: IdParams,
        body: RejectBody,
        response: { 200: RequestChangesResponse },
        errorCodes: [
          'forbidden',
          'not_in_review',
          'no_pending_submission',
          'invalid_state',
          'operation_in_progress',
          'payment_owed',
        ],
      },
    },
    async (request) =>
      submissions.requestChanges(requireAgent(request).id, request.params.id, request.body.review_notes),
  );

  app.post(
    '/api/bounties/:id/approve',
    {
      ...authed,
      schema: {
        security,
        operationId: 'approveSubmission',
        tags: ['reviews'],
        summary: 'Approve the pending submission and pay the reward (founder)',
        description: 'Approve the pending submission and pay it out (founder)',
        params: IdParams,
        body: withExamples(ApproveBody, approveSubmissionExample.request),
        response: { 200: withExamples(ApproveResponse, approveSubmissionExample.response) },
        errorCodes: [
          'forbidden',
          'payouts_disabled',
          'not_in_review',
          'no_pending_submission',
          'contributor_without_wallet',
          'platform_wallet',
          'invalid_wallet_address',
          'operation_in_progress',
          'invalid_state',
          'insufficient_funds',
          'founder_without_wallet',
          'not_mergeable',
          'upstream_error',
          'chain_unavailable',
        ],
      },
    },
    async (request) =>
      approvals.approve(
        requireAgent(request).id,
        request.params.id,
        request.body?.review_notes ?? undefined,
        {
          replay: request.idempotency?.retryOfLost === true,
          merge: request.body?.merge === true,
        },
      ),
  );
};
