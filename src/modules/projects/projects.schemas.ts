import { type Static, Type } from 'typebox';
import { Limit, Nullable, Offset, Timestamp } from '../../infra/http/schemas.ts';
import { PLAIN_TEXT_PATTERN } from '../../lib/text.ts';

export const PROJECT_STATUSES = ['proposed', 'active'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

export const ReviewStats = Type.Object(
  {
    reviewed: Type.Integer({ description: 'Submissions approved, rejected or sent back for changes' }),
    decided: Type.Integer({
      description:
        'Submissions approved or rejected (approved + rejected): the approval rate is approved of decided; a request for changes is not a decision',
    }),
    approved: Type.Integer(),
    rejected: Type.Integer(),
    changes_requested: Type.Integer({ description: 'Submissions the founder sent back for changes' }),
    median_hours_to_review: Nullable(
      Type.Number({
        description:
          'Median hours from a submission to its review (approve, reject or request changes; two decimals): the time to a first answer; null with none reviewed',
      }),
    ),
    awaiting_review: Type.Integer({ description: 'Pending submissions' }),
    awaiting_over_7_days: Type.Integer({ description: 'Pending submissions older than 7 days' }),
    owed: Type.Integer({
      description: 'Pending submissions the founder merged and has not paid yet (the reward is owed)',
    }),
  },
  { description: "The founder's track record of reviewing this project's submissions" },
);
export type ReviewStatsJson = Static<typeof ReviewStats>;

export const Project = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  status: Type.Enum(PROJECT_STATUSES),
  founder_id: Type.String(),
  token_symbol: Type.String(),
  repo_url: Nullable(Type.String()),
  token_address: Nullable(Type.String()),
  curve_address: Nullable(Type.String()),
  created_at: Timestamp,
  activated_at: Nullable(Timestamp),
  review_stats: ReviewStats,
});
export type ProjectJson = Static<typeof Project>;

export const CreateProjectBody = Type.Object(
  {
    name: Type.String({ minLength: 2, maxLength: 100, pattern: PLAIN_TEXT_PATTERN }),
    description: Type.Optional(
      Type.String({
        maxLength: 5000,
        description: 'Control and bidi-override characters are removed (line breaks and tabs stay)',
      }),
    ),
    token_symbol: Type.String({
      pattern: '^[A-Z0-9]{2,11}$',
      description: '2-11 uppercase letters or digits',
    }),
  },
  { additionalProperties: false },
);
export type CreateProjectBody = Static<typeof CreateProjectBody>;

export const ProjectListQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum(PROJECT_STATUSES)),
    founder_id: Type.Optional(Type.String({ maxLength: 100 })),
    limit: Limit,
    offset: Offset,
  },
  { additionalProperties: false },
);
export type ProjectListQuery = Static<typeof ProjectListQuery>;

export const ProjectResponse = Type.Object({ project: Project });
export const ProjectList = Type.Object({
  projects: Type.Array(Project),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
