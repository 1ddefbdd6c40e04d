import { type Static, type TSchema, Type } from 'typebox';
import { Limit, Nullable, Offset, Timestamp } from '../../infra/http/schemas.ts';
import { AppError } from '../../lib/errors.ts';
import { PLAIN_TEXT_PATTERN } from '../../lib/text.ts';

export const BOUNTY_STATUSES = ['open', 'claimed', 'in_review', 'done'] as const;
export const DIFFICULTIES = ['easy', 'medium', 'hard', 'extreme'] as const;
export const SUBMISSION_STATUSES = ['pending', 'approved', 'rejected', 'changes_requested'] as const;
/** Orders of GET /api/bounties: `newest` (the default) and, with `q` only, `relevance`. */
export const BOUNTY_SORTS = ['newest', 'relevance'] as const;
/**
 * `sort=relevance` ranks at most this many matches, the newest (every match when no more match): 1
 * when the title holds every word of `q`, plus ts_rank over title and description. Ranking every
 * match would read every matching row (~10,000 for a word in 1% of a million bounties) to order 20;
 * no index here keeps ranks in order (`rum` is not installed). Finding the newest N matches of such a
 * word reads ~100 N rows: at a million bounties N = 50 keeps a relevance page within the keyword
 * page's p99 bound (N = 100 did not; N = 1000 measured ~6x, bench/README.md). Matches past the window
 * follow it newest first (rank -1), so paging reaches every match once at any depth.
 */
export const RELEVANCE_WINDOW = 50;
export type BountyStatus = (typeof BOUNTY_STATUSES)[number];
export type Difficulty = (typeof DIFFICULTIES)[number];
export type BountySort = (typeof BOUNTY_SORTS)[number];

export const BountyStatusSchema = Type.Enum(BOUNTY_STATUSES);
export const DifficultySchema = Type.Enum(DIFFICULTIES);

export const MAX_REWARD = 1_000_000_000;

/**
 * `type: [T, "null"]`, which OpenAPI 3.1 reads as Nullable's anyOf. Lists serialize these fields on
 * every row: fast-json-stringify writes a type array with a typeof check, where an anyOf costs a
 * schema validation (a date-time regex for claimed_at) per value.
 */
const OrNull = <T extends TSchema & { type: string }>(t: T) =>
  Type.Unsafe<Static<T> | null>({ ...t, type: [t.type, 'null'] });

export const Bounty = Type.Object({
  id: Type.String(),
  project_id: Type.String(),
  project_name: Type.String(),
  title: Type.String(),
  description: Type.String(),
  reward_amount: Type.Integer({ minimum: 1, description: 'Whole tokens of the project token.' }),
  difficulty: DifficultySchema,
  status: BountyStatusSchema,
  claimed_by: OrNull(Type.String()),
  claimed_at: OrNull(Timestamp),
  payable: Type.Boolean({
    description:
      "The founder's min(balance, allowance) on the project token covers this reward together with the " +
      "rewards of the project's older open, claimed and in-review bounties. A done bounty is true.",
  }),
  payment_owed: Type.Boolean({
    description:
      'The founder merged the pending submission: its reward is owed (reject and request-changes are ' +
      '409 payment_owed) and the service pays it on its own as soon as the founder can cover it',
  }),
  reward_eth_units: OrNull(
    Type.String({
      description:
        "What the contributor's share of the reward (after the platform fee) sells for on the project's curve now, in wei; null while the token is not deployed",
      examples: ['4749988125004'],
    }),
  ),
  reward_usd: OrNull(
    Type.String({
      pattern: '^[0-9]+\\.[0-9]{2}$',
      description:
        'reward_eth_units in US dollars at the ETH/USD price feed of the chain (ETH_USD_FEED_ADDRESS, read at most once a minute), rounded half-up to the cent; null without a feed, without a usable price (a non-positive answer, a round older than 24 h, a failed read) or without reward_eth_units',
      examples: ['12.34'],
    }),
  ),
  revision_due_at: OrNull(
    Type.String({
      format: 'date-time',
      description:
        'The founder requested changes: the claimant keeps the claim until then for a new submission (then it lapses as any claim does); null otherwise',
    }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type BountyJson = Static<typeof Bounty>;

const checksTally = {
  state: Type.Enum(['success', 'failure', 'pending', 'none'] as const),
  total: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0 }),
};

export const ChecksReport = Type.Object(
  {
    ...checksTally,
    by_author: Type.Object(checksTally, {
      description:
        "The statuses the pull request's author set on the head commit, summed the same way: the contributor's own claim, never counted above",
    }),
  },
  {
    description:
      "The head commit's check runs and the statuses set by the founder or the repository's integrations (apps, bots, the platform), as GitHub sums them on a pull request; statuses anyone else set are not counted",
  },
);
export type ChecksReportJson = Static<typeof ChecksReport>;

export const PullRequestReport = Type.Object(
  {
    number: Type.Integer(),
    title: Type.String(),
    author: Type.String({ description: "The author's repository-host login" }),
    state: Type.Enum(['open', 'closed', 'merged'] as const),
    head_sha: Nullable(Type.String()),
    additions: Nullable(Type.Integer()),
    deletions: Nullable(Type.Integer()),
    changed_files: Nullable(Type.Integer()),
    mergeable: Nullable(Type.Boolean({ description: 'Merges cleanly into its base; null while unknown' })),
    body: Nullable(
      Type.String({ description: "The pull request's description (Markdown); null when empty or not read" }),
    ),
    reviewed_head_sha: Nullable(
      Type.String({
        description:
          'The head the founder last reviewed: on a resubmission, the head the submission before it was sent back at (compare it with head_sha to see what changed since); on a submission sent back, the head it was sent back at; null otherwise',
      }),
    ),
    checks: ChecksReport,
  },
  {
    description:
      'The pull request as the repository host reports it: read at submit, refreshed when the host reports new commits, checks, a close or a merge',
  },
);

export const Submission = Type.Object({
  id: Type.String(),
  bounty_id: Type.String(),
  agent_id: Type.String(),
  pr_url: Type.String(),
  status: Type.Enum(SUBMISSION_STATUSES),
  review_notes: Nullable(Type.String()),
  contributor_tx_hash: Nullable(Type.String()),
  platform_fee_tx_hash: Nullable(Type.String()),
  created_at: Timestamp,
  reviewed_at: Nullable(Timestamp),
  merged_at: Nullable(Timestamp),
  merged_by: Nullable(Type.String({ description: "The merger's repository-host login" })),
  founder_merged: Type.Boolean({
    description: 'The founder merged it: the reward is owed, and reject is refused until it is paid',
  }),
  pull_request: Nullable(PullRequestReport),
});
export type SubmissionJson = Static<typeof Submission>;

export const CreateBountyBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200, pattern: PLAIN_TEXT_PATTERN }),
    description: Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        'What done looks like. Control and bidi-override characters are removed (line breaks and tabs stay)',
    }),
    reward_amount: Type.Integer({ minimum: 1, maximum: MAX_REWARD }),
    difficulty: Type.Optional(DifficultySchema),
  },
  { additionalProperties: false },
);
export type CreateBountyBody = Static<typeof CreateBountyBody>;

export const BountyListQuery = Type.Object(
  {
    status: Type.Optional(BountyStatusSchema),
    difficulty: Type.Optional(DifficultySchema),
    project_id: Type.Optional(Type.String({ maxLength: 100 })),
    payable: Type.Optional(
      Type.Boolean({ description: 'Only bounties whose reward the founder can pay (or cannot)' }),
    ),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Words that must all appear in the title or description',
      }),
    ),
    sort: Type.Optional(
      Type.Enum(BOUNTY_SORTS, {
        description:
          '`newest` (default) or `relevance` (needs `q`, else 400): titles holding every word first, then ' +
          `ts_rank; ties newest first, then id. Ranks the newest ${RELEVANCE_WINDOW} matches (all when no more match); ` +
          'later ones follow, newest first',
      }),
    ),
    limit: Limit,
    offset: Offset,
  },
  { additionalProperties: false },
);
export type BountyListQuery = Static<typeof BountyListQuery>;

/** What `sort=relevance` without `q` is told (the API's 400, the board's notice). */
export const RELEVANCE_NEEDS_Q = 'sort=relevance needs q: it ranks the matches of a keyword search';
export const relevanceNeedsQ = () =>
  new AppError('validation_error', 'The request query is invalid.', [
    { field: 'sort', message: RELEVANCE_NEEDS_Q },
  ]);

export const BountyResponse = Type.Object({ bounty: Bounty });
export const BountyDetailResponse = Type.Object({
  bounty: Type.Object({
    ...Bounty.properties,
    submissions: Type.Array(Submission),
  }),
});
export const ClaimResponse = Type.Object({
  bounty: Bounty,
  warnings: Type.Optional(Type.Array(Type.String())),
});
export const BountyList = Type.Object({
  bounties: Type.Array(Bounty),
  total: Type.Integer({
    description:
      'How many bounties match. With a keyword (`q`) they are counted up to 1000, or up to the end of the requested page when that is further: past it, `total` is that bound and `total_is_exact` is false (more match, as in "1,000+")',
  }),
  total_is_exact: Type.Boolean({
    description: 'false when more than `total` bounties match (keyword search past its counting bound)',
  }),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
