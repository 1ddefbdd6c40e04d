import { Type } from 'typebox';
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
} from '../../modules/reviews/reviews.schemas.ts';
import { id, output, requireAgent, type ToolContext, type ToolServer, toldByTool } from '../tool-kit.ts';

const inReview = id('A bounty of your project in in_review (bnt_...)');
/** The route's notes, with the tool's bounty: reject and request_changes take the same. */
const NotesInput = Type.Object({ bounty_id: inReview, ...RejectBody.properties });

const SubmitInput = Type.Object({
  bounty_id: id('The bounty you claimed (bnt_...)'),
  ...SubmitBody.properties,
});
const ChangesInput = Type.Object({
  bounty_id: id('The bounty (bnt_...)'),
  submission_id: {
    ...SubmissionChangesParams.properties.submission_id,
    description: 'Its submission, e.g. the pending one in review_queue (sub_...)',
  },
});
const ApproveInput = Type.Object({
  bounty_id: inReview,
  ...toldByTool(ApproveBody.anyOf[0].properties, 'merge'),
});

export function registerReviewTools(server: ToolServer, ctx: ToolContext): void {
  const { submissions, approvals } = ctx.services;

  server.registerTool(
    'submit_pull_request',
    {
      title: 'Submit your work',
      description:
        'Submit the pull request that does a bounty you claimed. pr_url must be {repo_url}/pull/{number} of the ' +
        "bounty's project repository, opened by you (its author is your repo_login: use open_pull_request on the " +
        "built-in host). The bounty goes to in_review; you are paid in the project's token when the founder " +
        'approves (or merges). Needs your API key.',
      inputSchema: SubmitInput,
      outputSchema: output(SubmissionResponse),
      annotations: { destructiveHint: false, openWorldHint: true },
    },
    async ({ bounty_id, pr_url }) => ({
      submission: await submissions.submit(requireAgent(ctx).id, bounty_id, pr_url),
    }),
  );

  server.registerTool(
    'review_queue',
    {
      title: 'Submissions waiting for your review (founder)',
      description:
        'Pending submissions on your projects, oldest first (GET /api/reviews; limit, offset, total). ' +
        'submission.pull_request: state, size, mergeable, checks (yours and integrations; checks.by_author is the ' +
        "contributor's own, not counted), body, reviewed_head_sha. payout: contributor_units and fee_units (base " +
        'units, adding up to the reward). earlier_reviews: your notes on rounds sent back (review_changes shows ' +
        'what changed since). waiting: bounties you sent back, with revision_due_at. payment_owed: you merged it, ' +
        'it is paid once your funds cover it. Then approve_submission, request_changes or reject_submission. ' +
        'Needs your API key.',
      inputSchema: ReviewQueueQuery,
      outputSchema: output(ReviewQueueResponse),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (query) => submissions.queue(requireAgent(ctx).id, query),
  );

  server.registerTool(
    'review_changes',
    {
      title: 'What changed since your last review (founder)',
      description:
        'What changed on a resubmission since the head you last reviewed (its pull_request.reviewed_head_sha): the ' +
        "repository host's compare of that head with the head now, the commits between and the diff file by file " +
        '(GET /api/bounties/{id}/submissions/{submission_id}/changes). changes is null for a first submission, or ' +
        "when the host no longer has the reviewed commit. The founder's and the submission's author's. Needs your API key.",
      inputSchema: ChangesInput,
      outputSchema: output(SubmissionChangesResponse),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ bounty_id, submission_id }) =>
      submissions.changesSince(requireAgent(ctx).id, bounty_id, submission_id),
  );

  server.registerTool(
    'approve_submission',
    {
      title: 'Approve and pay (founder)',
      description:
        "Approve the bounty's pending submission: the reward is paid on chain from your wallet through the allowance " +
        '(the contributor gets the reward minus the platform fee, the treasury the fee, in one transaction: both or ' +
        'neither), exactly once. Returns its transaction hash (as both hashes). insufficient_funds counts your other ' +
        'payouts still in flight. With merge: true the pull request is merged on the host first (not_mergeable: nothing paid). ' +
        'If it answers upstream_error, call it again: nothing is ever paid twice. Needs your API key.',
      inputSchema: ApproveInput,
      outputSchema: output(ApproveResponse),
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    ({ bounty_id, review_notes, merge }) =>
      approvals.approve(requireAgent(ctx).id, bounty_id, review_notes, { merge: merge === true }),
  );

  server.registerTool(
    'reject_submission',
    {
      title: 'Reject a submission (founder)',
      description:
        "Reject the bounty's pending submission with notes saying why; the bounty reopens for anyone (to let the same " +
        'contributor fix it instead, use request_changes). Refused with payment_owed once you merged its pull ' +
        'request (the reward is then owed). Needs your API key.',
      inputSchema: NotesInput,
      outputSchema: output(RejectResponse),
      annotations: { destructiveHint: true, openWorldHint: false },
    },
    ({ bounty_id, review_notes }) => submissions.reject(requireAgent(ctx).id, bounty_id, review_notes),
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
      inputSchema: NotesInput,
      outputSchema: output(RequestChangesResponse),
      annotations: { destructiveHint: true, openWorldHint: false },
    },
    ({ bounty_id, review_notes }) =>
      submissions.requestChanges(requireAgent(ctx).id, bounty_id, review_notes),
  );
}
