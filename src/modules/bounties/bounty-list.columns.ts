import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { bounties, projects, tokenStates } from '../../infra/db/schema.ts';
import type { BountyRow } from './bounties.repo.ts';

// What a page of the bounty list reads for each bounty: its values (the pages, MCP), or its JSON as
// the API answers it, written by PostgreSQL (GET /api/bounties), so that Node only joins the rows:
// no column decoding, no row objects, no per-field serialization. Measured under
// bench/list-bounties.ts --miss, those were most of a list request's own CPU (bench/README.md).

/**
 * A timestamptz as the API writes every timestamp (`Date.prototype.toISOString`): UTC, always three
 * digits of milliseconds (the columns keep milliseconds; finer digits would be cut, as Date cuts
 * them), and `Z`. Independent of the session's TimeZone and DateStyle.
 */
const iso = (column: AnyColumn) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * `iso`'s rule in Node, for rows read as values: PostgreSQL's timestamptz text ("2026-11-22
 * 12:00:00.123+00" with DateStyle ISO) as the API's ISO form. The common case (UTC session, whole
 * milliseconds) is a slice; anything else goes through Date.
 */
export function isoTimestamp(text: string): string {
  if (text.length === 26 && text.endsWith('+00') && text.charCodeAt(19) === 46 /* . */)
    return `${text.slice(0, 10)}T${text.slice(11, 23)}Z`;
  return new Date(text).toISOString();
}

/**
 * A JSON object of `fields` (named as in the API, in the API's order), written compactly by
 * row_to_json: strings escaped as JSON.stringify escapes them, integers and booleans bare, null.
 * `cut` drops its closing brace (`head`) or its opening one (`tail`), so Node can put the two
 * values only it computes between them.
 */
function jsonObject(fields: Record<string, unknown>, cut: 'head' | 'tail') {
  const columns = sql.join(
    Object.entries(fields).map(([name, value]) => sql`${value} as ${sql.identifier(name)}`),
    sql`, `,
  );
  const text = sql`row_to_json(o)::text`;
  const part = cut === 'head' ? sql`left(${text}, -1)` : sql`substr(${text}, 2)`;
  return sql<string>`(select ${part} from (select ${columns}) o)`;
}

/**
 * A listed bounty's fields, named and ordered as in the API (`Bounty` in bounties.schemas.ts): those
 * before the two values only Node computes (`head`, up to `payment_owed`) and those after them
 * (`tail`, from `revision_due_at`); `time` reads a timestamp.
 */
const fields = (time: (column: AnyColumn) => SQL) => ({
  head: {
    id: bounties.id,
    project_id: bounties.projectId,
    project_name: projects.name,
    title: bounties.title,
    description: bounties.description,
    reward_amount: bounties.rewardAmount,
    difficulty: bounties.difficulty,
    status: bounties.status,
    claimed_by: bounties.claimedBy,
    claimed_at: time(bounties.claimedAt),
    payable: bounties.payable,
    payment_owed: bounties.paymentOwed,
  },
  tail: {
    revision_due_at: time(bounties.revisionDueAt),
    created_at: time(bounties.createdAt),
    updated_at: time(bounties.updatedAt),
  },
});

/**
 * What the reward is quoted on (`reward_eth_units`): the reward and the project's curve as last read
 * (token_states), as one text, `reward:a:b:supply` (`quotedReward` in reward-quotes.ts keeps each
 * quote by it); null before the token's curve is read.
 */
const curve = {
  quote: sql<
    string | null
  >`(${bounties.rewardAmount} || ':' || ${tokenStates.curveA} || ':' || ${tokenStates.curveB} || ':' || ${tokenStates.supplyUnits})`,
};

/**
 * Exactly the columns a listed bounty shows, named as in the JSON. Timestamps come as PostgreSQL's
 * text (the drivers are told not to parse them), which `isoTimestamp` turns into the API's form.
 */
const asText = fields((column) => sql`${column}`);
const listed = { ...asText.head, ...curve, ...asText.tail };

/**
 * A listed bounty as the API's JSON: `head` and `tail` as JSON text, and the quote, from which Node
 * computes the reward's worth in wei (lib/curve.ts) and in dollars between them (`listedJsonText`),
 * so that the curve's arithmetic stays in one place.
 */
const asJson = fields(iso);
const listedJson = { head: jsonObject(asJson.head, 'head'), ...curve, tail: jsonObject(asJson.tail, 'tail') };

/** A page's rows as values (the pages, MCP) or as the API's JSON text. */
export const COLUMNS = { values: listed, json: listedJson };
export type Columns = keyof typeof COLUMNS;

/** The reward and the project's curve as last read (`reward:a:b:supply`), null before its token is deployed. */
interface CurveColumns {
  quote: string | null;
}
/** A row of `listed`: timestamps as PostgreSQL's text. */
export interface ListedRow extends CurveColumns {
  reward_amount: number;
  id: string;
  project_id: string;
  project_name: string;
  title: string;
  description: string;
  difficulty: BountyRow['difficulty'];
  status: BountyRow['status'];
  claimed_by: string | null;
  claimed_at: string | null;
  payable: boolean;
  payment_owed: boolean;
  revision_due_at: string | null;
  created_at: string;
  updated_at: string;
}
/** A row of `listedJson`: the bounty's JSON up to `payment_owed`, and from `revision_due_at` on. */
export interface ListedJsonRow extends CurveColumns {
  head: string;
  tail: string;
}
export interface Rows {
  values: ListedRow;
  json: ListedJsonRow;
}
