import { Type } from 'typebox';
import { Timestamp } from '../../infra/http/schemas.ts';
import { OPTIONAL_VISIBLE_TEXT_PATTERN } from '../../lib/text.ts';
import { Submission } from '../bounties/bounties.schemas.ts';

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
