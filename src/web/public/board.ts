import type { ErrorObject } from 'ajv';
import type { Services } from '../../compose.ts';
import { toDetails } from '../../infra/http/validation.ts';
import {
  BOUNTY_STATUSES,
  BountyListQuery,
  type BountyListQuery as BountyListQueryT,
  DIFFICULTIES,
} from '../../modules/bounties/bounties.schemas.ts';
import type { ProjectJson } from '../../modules/projects/projects.schemas.ts';
import { validatorOnFirstUse } from '../first-use.ts';
import { age, formatEth, formatUsd, groupDigits, hours } from './format.ts';

/** The query parameters of GET /api/bounties; the board's URL takes exactly these. */
const FIELDS = ['q', 'status', 'difficulty', 'project_id', 'payable', 'sort', 'limit', 'offset'] as const;
/** The board's own status value for "every status" (the API's: no status at all). */
export const ANY_STATUS = 'any';

const LABELS: Record<string, string> = {
  q: 'Search',
  status: 'Status',
  difficulty: 'Difficulty',
  project_id: 'Project',
  payable: 'Payable',
  sort: 'Sort',
  limit: 'Per page',
  offset: 'Offset',
};

// The API's own schema and validator: the board accepts exactly what GET /api/bounties accepts.
const validator = validatorOnFirstUse(BountyListQuery, 'querystring');

/** What the filter form shows: the raw values, so a refused value is shown back as typed. */
export type BoardForm = Record<(typeof FIELDS)[number], string>;

export type BoardQuery =
  | { ok: true; form: BoardForm; query: BountyListQueryT }
  | { ok: false; form: BoardForm; problems: string[] };

/**
 * The board's URL as a bounty list query. Empty fields (a submitted form with nothing chosen) are
 * left out; without a status the board shows open bounties (the contract: open ones first), and
 * `status=any` shows every status. Other parameters (tracking tags) are ignored.
 */
export function parseBoardQuery(raw: Record<string, unknown>): BoardQuery {
  const form = Object.fromEntries(
    FIELDS.map((f) => {
      const v = raw[f];
      return [f, typeof v === 'string' ? v.trim() : Array.isArray(v) ? String(v[0] ?? '') : ''];
    }),
  ) as BoardForm;
  const candidate: Record<string, unknown> = {};
  for (const f of FIELDS) if (form[f] !== '') candidate[f] = form[f];
  if (candidate.status === undefined) candidate.status = 'open';
  if (candidate.status === ANY_STATUS) delete candidate.status;
  const validate = validator();
  if (!validate(candidate)) {
    const details = toDetails((validate.errors ?? []) as ErrorObject[], 'query');
    return {
      ok: false,
      form,
      problems: details.map((d) => `${LABELS[d.field] ?? d.field}: ${d.message}.`),
    };
  }
  // The API's 400 for sort=relevance without q, in the board's words.
  if (candidate.sort === 'relevance' && candidate.q === undefined)
    return {
      ok: false,
      form,
      problems: ['Sort: best match ranks search results; type words to search for.'],
    };
  return { ok: true, form, query: candidate as BountyListQueryT };
}

/** The board's URL for a form state with some fields changed (pagination links, the fragment). */
export function boardUrl(form: BoardForm, changes: Partial<Record<string, string>> = {}): string {
  const params = new URLSearchParams();
  const merged: Record<string, string> = { ...form, ...changes };
  for (const [k, v] of Object.entries(merged)) if (v !== '' && v !== undefined) params.set(k, v);
  const s = params.toString();
  return s ? `/?${s}` : '/';
}

export const statusOptions = [
  { value: '', label: 'Open' },
  ...BOUNTY_STATUSES.filter((s) => s !== 'open').map((s) => ({ value: s, label: statusLabel(s) })),
  { value: ANY_STATUS, label: 'Any status' },
];
export const difficultyOptions = [
  { value: '', label: 'Any difficulty' },
  ...DIFFICULTIES.map((d) => ({ value: d, label: d[0]?.toUpperCase() + d.slice(1) })),
];
export const sortOptions = [
  { value: '', label: 'Newest first' },
  { value: 'relevance', label: 'Best match' },
];
export const payableOptions = [
  { value: '', label: 'Payable or not' },
  { value: 'true', label: 'Payable only' },
  { value: 'false', label: 'Not payable only' },
];

/** A status in words for a badge: `changes_requested` is "Changes requested", never the code. */
export function statusLabel(s: string): string {
  const words = s.replaceAll('_', ' ');
  return (words[0]?.toUpperCase() ?? '') + words.slice(1);
}

export function reviewRecord(p: ProjectJson | undefined) {
  const r = p?.review_stats;
  if (!r || r.reviewed === 0) return { text: 'No reviews yet', median: null };
  // A request for changes is not a decision: the rate counts approvals of approve-or-reject.
  return {
    text: r.decided === 0 ? 'No decisions yet' : `${r.approved} of ${r.decided} decided approved`,
    median: `median ${hours(r.median_hours_to_review)}`,
  };
}

/**
 * One page of the board: the service's list (the same call GET /api/bounties makes), each row with
 * its project (token, review record) and the reward's worth on the curve now.
 */
export async function loadBoard(
  services: Pick<Services, 'bounties' | 'projects'>,
  query: BountyListQueryT,
  now: Date,
) {
  const list = await services.bounties.list(query);
  const ids = [...new Set(list.bounties.map((b) => b.project_id))];
  const projects = new Map((await services.projects.getMany(ids)).map((p) => [p.id, p]));
  const rows = list.bounties.map((b) => {
    const p = projects.get(b.project_id);
    // The API's own quote: the contributor's share, sold on the curve as last read.
    const wei = b.reward_eth_units === null ? null : BigInt(b.reward_eth_units);
    return {
      ...b,
      token_symbol: p?.token_symbol ?? '',
      reward: groupDigits(b.reward_amount),
      eth: wei === null ? null : formatEth(wei),
      usd: formatUsd(b.reward_usd),
      age: age(new Date(b.created_at), now),
      status_label: statusLabel(b.status),
      review: reviewRecord(p),
    };
  });
  const { total, limit, offset } = list;
  return {
    rows,
    total,
    from: total === 0 ? 0 : offset + 1,
    to: offset + rows.length,
    prevOffset: offset > 0 ? Math.max(0, offset - limit) : null,
    nextOffset: offset + limit < total ? offset + limit : null,
  };
}
