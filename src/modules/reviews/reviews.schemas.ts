import { type Static, Type } from 'typebox';
import { Limit, Nullable, Offset, Timestamp } from '../../infra/http/schemas.ts';
import { OPTIONAL_VISIBLE_TEXT_PATTERN } from '../../lib/text.ts';
import { Bounty, Submission } from '../bounties/bounties.schemas.ts';

export const SubmitBody = Type.Object(
  { pr_url: Type.String({ minLength: 1, maxLength: 500, description: '{repo_url}/pull/{number}' }) },
  { additionalProperties: false },
);
export const RejectBody = Type.Object(
  {
    review_notes: Type.String({
      minLength: 1,
      maxLength: 5000,
      // Not VISIBLE_TEXT_PATTERN: an empty note is refused once, by minLength.
      pattern: OPTIONAL_VISIBLE_TEXT_PATTERN,
      description: 'For the contributor; must hold a visible character (not only spaces)',
    }),
  },
  { additionalProperties: false },
);
export const ApproveBody = Type.Union([
  Type.Object(
    {
      review_notes: Type.Optional(
        Type.String({
          maxLength: 5000,
          pattern: OPTIONAL_VISIBLE_TEXT_PATTERN,
          description: 'Optional; when not empty it must hold a visible character (not only spaces)',
        }),
      ),
      merge: Type.Optional(
        Type.Boolean({
          default: false,
          description:
            'Merge the pull request on the repository host first, and pay once it is merged; 409 `not_mergeable` (nothing paid) when the host cannot merge it',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

export const SubmissionResponse = Type.Object({ submission: Submission });
export const RejectResponse = Type.Object({
  bounty_id: Type.String(),
  status: Type.Literal('open'),
  submission_id: Type.String(),
});
export const RequestChangesResponse = Type.Object({
  bounty_id: Type.String(),
  status: Type.Literal('claimed'),
  submission_id: Type.String({ description: 'The submission sent back, now changes_requested' }),
  revision_due_at: Timestamp,
});
export const ApproveResponse = Type.Object({
  bounty_id: Type.String(),
  status: Type.Literal('done'),
  submission_id: Type.String(),
  contributor_tx_hash: Type.String(),
  platform_fee_tx_hash: Type.String(),
});

export const ReviewQueueQuery = Type.Object(
  { limit: Limit, offset: Offset },
  { additionalProperties: false },
);
export type ReviewQueueQuery = Static<typeof ReviewQueueQuery>;

const Units = (description: string) =>
  Type.String({ pattern: '^[0-9]+$', description, examples: ['95000000000000000000'] });

export const ApprovalPayout = Type.Object(
  {
    contributor_units: Units(
      'To the contributor: the reward minus the fee, in base units of the project token',
    ),
    fee_units: Units('To the treasury: floor(reward * PLATFORM_FEE_BPS / 10000), in base units'),
  },
  {
    description:
      "What approving sends from your wallet, both in one transaction; the two add up to the reward (reward_amount * 10^18 base units). The bounty's reward_eth_units is what contributor_units sell for now",
  },
);

export const EarlierReview = Type.Object({
  id: Type.String({ description: 'The submission sent back' }),
  pr_url: Type.String(),
  review_notes: Nullable(Type.String({ description: 'What the founder asked to change' })),
  reviewed_at: Nullable(Timestamp),
  head_sha: Nullable(Type.String({ description: 'The head the founder reviewed then' })),
});
export type EarlierReviewJson = Static<typeof EarlierReview>;

export const ReviewItem = Type.Object({
  bounty: Bounty,
  submission: Type.Object(Submission.properties, {
    description:
      'The pending submission; its pull_request is the report of the pull request (state, size, mergeable, checks of the head commit, description; on a resubmission reviewed_head_sha, the head you last reviewed: GET /api/bounties/{id}/submissions/{submission_id}/changes shows what changed since), null for submissions made before reports existed',
  }),
  payout: ApprovalPayout,
  earlier_reviews: Type.Array(EarlierReview, {
    description:
      "This contributor's earlier submissions of the bounty that you sent back for changes, newest first, with your notes: empty for a first submission",
  }),
});
export type ReviewItemJson = Static<typeof ReviewItem>;

/** The most bounties `waiting` lists. */
export const WAITING_MAX = 100;

export const WaitingItem = Type.Object({
  bounty: Type.Object(Bounty.properties, {
    description: 'Claimed again by the same contributor until its revision_due_at',
  }),
  submission: Type.Object(Submission.properties, {
    description: 'The submission you sent back (changes_requested), with your review_notes',
  }),
});

export const ReviewQueueResponse = Type.Object({
  reviews: Type.Array(ReviewItem, {
    description: 'Oldest submission first: review in the order the work arrived',
  }),
  waiting: Type.Array(WaitingItem, {
    description: `Waiting for the contributor: bounties of your projects you sent back for changes, not submitted again yet, soonest revision deadline first (at most ${WAITING_MAX}); not paged`,
  }),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
export type ReviewQueueJson = Static<typeof ReviewQueueResponse>;

export const SubmissionChangesParams = Type.Object(
  { id: Type.String({ maxLength: 100 }), submission_id: Type.String({ maxLength: 100 }) },
  { additionalProperties: false },
);

export const ChangedFile = Type.Object({
  filename: Type.String(),
  status: Type.String({ description: 'added, removed, modified, renamed, ...' }),
  additions: Type.Integer(),
  deletions: Type.Integer(),
  patch: Nullable(
    Type.String({ description: 'The unified diff; null when the host sends none (binary, too large)' }),
  ),
});

export const SubmissionChangesResponse = Type.Object({
  submission_id: Type.String(),
  reviewed_head_sha: Nullable(
    Type.String({ description: 'The head you last reviewed (pull_request.reviewed_head_sha)' }),
  ),
  head_sha: Nullable(Type.String({ description: 'The head now (pull_request.head_sha)' })),
  changes: Nullable(
    Type.Object(
      {
        total_commits: Type.Integer({ description: 'Commits on head since the reviewed head' }),
        commits: Type.Array(
          Type.Object({
            sha: Type.String(),
            author_name: Nullable(Type.String()),
            message: Type.String(),
          }),
          { description: 'Oldest first; the host lists at most 250' },
        ),
        files: Type.Array(ChangedFile, {
          description: 'The diff from the reviewed head to head, file by file (at most 300)',
        }),
      },
      {
        description:
          'What changed since the reviewed head, as the repository host compares the two; null when the submission is not a resubmission (no reviewed head) or the host no longer has one of the two commits',
      },
    ),
  ),
});
export type SubmissionChangesJson = Static<typeof SubmissionChangesResponse>;
