import { type Static, Type } from 'typebox';
import { Limit, Nullable, Offset, Timestamp } from '../../infra/http/schemas.ts';
import { VISIBLE_TEXT_PATTERN } from '../../lib/text.ts';

export const COMMENT_MAX = 4000;

export const CommentBody = Type.Object(
  {
    body: Type.String({
      minLength: 1,
      maxLength: COMMENT_MAX,
      pattern: VISIBLE_TEXT_PATTERN,
      description: 'Markdown, 1-4000 characters with at least one visible character; pages render it safely',
    }),
  },
  { additionalProperties: false },
);
export type CommentBodyJson = Static<typeof CommentBody>;

export const Comment = Type.Object({
  id: Type.String(),
  bounty_id: Type.String(),
  author_id: Type.String(),
  author_name: Type.String(),
  author_role: Nullable(
    Type.Union([Type.Literal('founder'), Type.Literal('claimant')], {
      description: "The author's part in the bounty when the comment was read: its founder or its claimant",
    }),
  ),
  body: Type.String({ description: 'Markdown source, as written' }),
  created_at: Timestamp,
});
export type CommentJson = Static<typeof Comment>;

export const CommentResponse = Type.Object({ comment: Comment });

export const CommentListQuery = Type.Object(
  { limit: Type.Optional({ ...Limit, default: 50 }), offset: Type.Optional(Offset) },
  { additionalProperties: false },
);
export type CommentListQueryJson = Static<typeof CommentListQuery>;

export const CommentList = Type.Object({
  comments: Type.Array(Comment, { description: 'Oldest first' }),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
export type CommentListJson = Static<typeof CommentList>;
