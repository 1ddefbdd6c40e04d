import { type Static, Type } from 'typebox';
import { Limit, Offset, Timestamp } from '../../infra/http/schemas.ts';
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

export const ReviewItem = Type.Object({
  bounty: Bounty,
  submission: Type.Object(Submission.properties, {
    description:
      'The pending submission; its pull_request is the report of the pull request (state, size, mergeable, checks of the head commit), null for submissions made before reports existed',
  }),
  payout: ApprovalPayout,
});
export type ReviewItemJson = Static<typeof ReviewItem>;

export const ReviewQueueResponse = Type.Object({
  reviews: Type.Array(ReviewItem, {
    description: 'Oldest submission first: review in the order the work arrived',
  }),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
export type ReviewQueueJson = Static<typeof ReviewQueueResponse>;
