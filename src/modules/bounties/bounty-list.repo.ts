import { and, count, desc, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { bounties, bountyCounts, projects } from '../../infra/db/schema.ts';
import type { BountyRow } from './bounties.repo.ts';

// The public list and search of bounties (GET /api/bounties, the board).

export interface BountyFilter {
  status?: string;
  difficulty?: string;
  projectId?: string;
  q?: string;
  payable?: boolean;
  limit: number;
  offset: number;
}

/**
 * Exactly the columns a listed bounty shows, named as in the JSON. Timestamps come as PostgreSQL's
 * text (the drivers are told not to parse them), which `isoTimestamp` turns into the API's form.
 */
const listed = {
  id: bounties.id,
  project_id: bounties.projectId,
  project_name: projects.name,
  title: bounties.title,
  description: bounties.description,
  reward_amount: bounties.rewardAmount,
  difficulty: bounties.difficulty,
  status: bounties.status,
  claimed_by: bounties.claimedBy,
  claimed_at: sql<string | null>`${bounties.claimedAt}`,
  payable: bounties.payable,
  created_at: sql<string>`${bounties.createdAt}`,
  updated_at: sql<string>`${bounties.updatedAt}`,
};

type Value<T> = T | Placeholder;

// plainto_tsquery ANDs the words, so every word of `q` must appear; 'simple' folds case without stemming.
const matches = (q: Value<string>) =>
  sql`${bounties.search} @@ plainto_tsquery('simple', regexp_replace(${q}, '[[:punct:]]+', ' ', 'g'))`;

interface Where {
  status?: Value<string>;
  difficulty?: Value<string>;
  projectId?: Value<string>;
  q?: Value<string>;
  payable?: Value<boolean>;
}

function where(f: Where): SQL | undefined {
  const parts: SQL[] = [];
  if (f.status !== undefined) parts.push(eq(bounties.status, f.status as BountyRow['status']));
  if (f.difficulty !== undefined)
    parts.push(eq(bounties.difficulty, f.difficulty as BountyRow['difficulty']));
  if (f.projectId !== undefined) parts.push(eq(bounties.projectId, f.projectId));
  if (f.q !== undefined) parts.push(matches(f.q));
  if (f.payable !== undefined) parts.push(eq(bounties.payable, f.payable));
  return and(...parts);
}

/**
 * The total of a list. Without a keyword or `payable` it sums at most 16 rows of bounty_counts; with
 * a keyword it counts the matches through the GIN index, with `payable` through
 * bounties_payable_status_created_at_idx (bounty_counts has no payable dimension).
 */
function totalOf(ex: Executor, f: Where) {
  if (f.q !== undefined || f.payable !== undefined)
    return ex.select({ n: count() }).from(bounties).where(where(f));
  const parts: SQL[] = [eq(bountyCounts.scope, f.projectId ?? '*')];
  if (f.status !== undefined) parts.push(eq(bountyCounts.status, f.status));
  if (f.difficulty !== undefined) parts.push(eq(bountyCounts.difficulty, f.difficulty));
  return ex
    .select({ n: sql<string>`coalesce(sum(${bountyCounts.n}), 0)` })
    .from(bountyCounts)
    .where(and(...parts));
}

/**
 * One statement per page: the page, newest first (created_at desc, then id desc, served by the
 * (…, created_at desc, id desc) indexes), each row carrying the list's total from a scalar subquery
 * that PostgreSQL runs once. One round trip instead of two.
 */
function pageQuery(ex: Executor, f: Where, limit: Value<number>, offset: Value<number>) {
  return ex
    .select({ ...listed, total: sql<string>`(${totalOf(ex, f)})` })
    .from(bounties)
    .innerJoin(projects, eq(projects.id, bounties.projectId))
    .where(where(f))
    .orderBy(desc(bounties.createdAt), desc(bounties.id))
    .limit(limit)
    .offset(offset);
}

type Page = Awaited<ReturnType<typeof pageQuery>>;
export type ListedRow = Omit<Page[number], 'total'>;
type Prepared = { execute: (values: Record<string, unknown>) => Promise<Page> };

/**
 * A statement depends only on which filters are present (at most 32 shapes), so each is built once
 * per database handle, its values bound at each call. Without a keyword it runs as a named prepared
 * statement: PostgreSQL parses it once per connection. With a keyword it stays unnamed (what
 * drizzle's own `execute` does: `prepare` without a name), so it is planned for each word: how
 * selective a word is decides between walking the created_at index and reading the GIN index, and a
 * generic plan, which cannot know it, would walk the whole index for a rare word.
 */
const prepared = new WeakMap<Executor, Map<string, Prepared>>();

function preparedFor(ex: Executor, f: BountyFilter): Prepared {
  const key = [f.status, f.difficulty, f.projectId, f.payable, f.q]
    .map((v) => (v === undefined ? 0 : 1))
    .join('');
  let shapes = prepared.get(ex);
  if (!shapes) {
    shapes = new Map();
    prepared.set(ex, shapes);
  }
  let query = shapes.get(key);
  if (!query) {
    const p = (name: string, present: unknown) => (present === undefined ? undefined : sql.placeholder(name));
    const shape: Where = {
      status: p('status', f.status),
      difficulty: p('difficulty', f.difficulty),
      projectId: p('projectId', f.projectId),
      payable: p('payable', f.payable),
      q: p('q', f.q),
    };
    const built = pageQuery(ex, shape, sql.placeholder('limit'), sql.placeholder('offset'));
    const name = f.q === undefined ? `bounty_list_${key}` : (undefined as unknown as string);
    query = built.prepare(name) as unknown as Prepared;
    shapes.set(key, query);
  }
  return query;
}

/** One page of the list and its total (null when the page is empty: `countMatching` then tells). */
export async function listPage(ex: Executor, f: BountyFilter): Promise<{ rows: Page; total: number | null }> {
  const rows = await preparedFor(ex, f).execute(f as unknown as Record<string, unknown>);
  const first = rows[0];
  return { rows, total: first ? Number(first.total) : null };
}

/** How many bounties match, for a page past the end (which carries no total). */
export async function countMatching(ex: Executor, f: BountyFilter): Promise<number> {
  const [row] = await totalOf(ex, f);
  return Number(row?.n ?? 0);
}

/**
 * PostgreSQL's timestamptz text ("2026-11-22 12:00:00.123+00" with DateStyle ISO) as the API's ISO
 * form. The common case (UTC session, whole milliseconds) is a slice; anything else goes through Date.
 */
export function isoTimestamp(text: string): string {
  if (text.length === 26 && text.endsWith('+00') && text.charCodeAt(19) === 46 /* . */)
    return `${text.slice(0, 10)}T${text.slice(11, 23)}Z`;
  return new Date(text).toISOString();
}
