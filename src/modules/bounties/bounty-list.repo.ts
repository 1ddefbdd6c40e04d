import { and, count, desc, eq, type Placeholder, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { bounties, bountyCounts, bountyWords, projects, tokenStates } from '../../infra/db/schema.ts';
import { type CompiledSelect, compileSelect } from '../../infra/db/statement.ts';
import type { BountyRow } from './bounties.repo.ts';
import { RELEVANCE_WINDOW } from './bounties.schemas.ts';
import { COLUMNS, type Columns, type Rows } from './bounty-list.columns.ts';

// The public list and search of bounties (GET /api/bounties, the board).

export interface BountyFilter {
  status?: string;
  difficulty?: string;
  projectId?: string;
  q?: string;
  payable?: boolean;
  /** `relevance` only with `q` (the service refuses it without). */
  sort?: 'newest' | 'relevance';
  limit: number;
  offset: number;
}

type Value<T> = T | Placeholder;

// Punctuation separates words, as in the search vector; plainto_tsquery ANDs them ('simple': no stemming).
const spaced = (q: Value<string>) => sql`regexp_replace(${q}, '[[:punct:]]+', ' ', 'g')`;
const tsquery = (q: Value<string>) => sql`plainto_tsquery('simple', ${spaced(q)})`;
const matches = (q: Value<string>) => sql`${bounties.search} @@ ${tsquery(q)}`;

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
 * Keyword totals are counted exactly up to this many matches (or up to the end of the requested
 * page, when that is further); beyond it the answer says "more than this" (`total_is_exact:
 * false`), as GitHub's "1,000+" does. The bound limits the rows read, not the GIN index's work: it
 * lists every match first (~6 ms for a word in 1% of a million bounties), hence `wordTotal`.
 */
export const KEYWORD_TOTAL_BOUND = 1000;

/** A list's total: exact, or (`exact: false`) a lower bound that more bounties match. */
export interface Total {
  n: number;
  exact: boolean;
}

const countCap = (f: { limit: number; offset: number }) => Math.max(KEYWORD_TOTAL_BOUND, f.offset + f.limit);

/**
 * The total of a list. Without a keyword or `payable` it sums at most 16 rows of bounty_counts; with
 * `payable` it counts through bounties_payable_status_created_at_idx (bounty_counts has no payable
 * dimension); with a keyword it counts at most `cap + 1` matches through the GIN index, except a
 * keyword of one word and no other filter, whose total is that word's row of bounty_words.
 */
function totalOf(ex: Executor, f: Where, cap: number) {
  if (f.q !== undefined) {
    const matching = ex
      .select({ one: sql`1`.as('one') })
      .from(bounties)
      .where(where(f))
      .limit(literal(cap + 1))
      .as('matches');
    const counted = ex.select({ n: count() }).from(matching);
    const alone = f.status === undefined && f.difficulty === undefined && f.projectId === undefined;
    return alone && f.payable === undefined ? wordTotal(ex, f.q, counted) : counted;
  }
  if (f.payable !== undefined) return ex.select({ n: count() }).from(bounties).where(where(f));
  const parts: SQL[] = [eq(bountyCounts.scope, f.projectId ?? '*')];
  if (f.status !== undefined) parts.push(eq(bountyCounts.status, f.status));
  if (f.difficulty !== undefined) parts.push(eq(bountyCounts.difficulty, f.difficulty));
  return ex
    .select({ n: sql<string>`coalesce(sum(${bountyCounts.n}), 0)` })
    .from(bountyCounts)
    .where(and(...parts));
}

/**
 * The total of a keyword alone: one distinct word among `q`'s (to_tsvector lists exactly the lexemes
 * plainto_tsquery ANDs) is matched by the bounties bounty_words counts for it, one index lookup;
 * several words, or none, are counted through the GIN index (`counted`, run only in its branch).
 */
function wordTotal(ex: Executor, q: Value<string>, counted: SQLWrapper) {
  const words = sql`(select tsvector_to_array(to_tsvector('simple', ${spaced(q)})) as w) words`;
  const word = sql`(select ${bountyWords.n} from ${bountyWords} where ${bountyWords.word} = words.w[1])`;
  return ex
    .select({
      n: sql<string>`case when cardinality(words.w) = 1 then coalesce(${word}, 0) else (${counted}) end`,
    })
    .from(words);
}

function totalFrom(counted: number, f: BountyFilter): Total {
  if (f.q === undefined) return { n: counted, exact: true };
  const cap = countCap(f);
  return counted > cap ? { n: cap, exact: false } : { n: counted, exact: true };
}

/**
 * LIMIT and OFFSET as literals, never parameters. With parameters PostgreSQL estimates a generic
 * plan as if a tenth of the table were fetched, finds it dearer than a custom plan for LIMIT 20,
 * and so plans every execution of the prepared statement again: measured at 100k rows, that made
 * the first page about 7x slower than the same statement with literals, whose generic plan is
 * cached. Drizzle's `limit`/`offset` take a number (sent as a parameter) or any object it embeds
 * as SQL, hence the cast; the values are the route's validated integers, checked again here.
 */
function literal(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a row count: ${n}`);
  return sql.raw(String(n)) as unknown as number;
}

const newest = [desc(bounties.createdAt), desc(bounties.id)];

/**
 * The ids of one page's candidates under `sort=relevance`, in order (rank desc, created_at desc, id
 * desc): the window's best `offset + limit`, and past the window the matches after it, newest first.
 */
function ranked(ex: Executor, f: Where & { q: Value<string> }, limit: number, offset: number) {
  const end = offset + limit;
  const window = ex
    .select({
      id: bounties.id,
      created_at: bounties.createdAt,
      title: bounties.title,
      search: bounties.search,
    })
    .from(bounties)
    .where(where(f))
    .orderBy(...newest)
    .limit(literal(RELEVANCE_WINDOW))
    .as('w');
  const titleWords = sql`to_tsvector('simple', regexp_replace(${window.title}, '[[:punct:]]+', ' ', 'g'))`;
  const rank = sql<number>`((${titleWords} @@ ${tsquery(f.q)})::int + ts_rank(${window.search}, ${tsquery(f.q)}))::real`;
  const best = ex
    .select({ id: window.id, created_at: window.created_at, rank: rank.as('rank') })
    .from(window)
    .orderBy(sql`rank desc`, desc(window.created_at), desc(window.id))
    .limit(literal(Math.min(end, RELEVANCE_WINDOW)));
  if (end <= RELEVANCE_WINDOW) return best.as('ranked');
  const rest = ex
    .select({ id: bounties.id, created_at: bounties.createdAt, rank: sql<number>`(-1)::real`.as('rank') })
    .from(bounties)
    .where(where(f))
    .orderBy(...newest)
    .limit(literal(end - RELEVANCE_WINDOW))
    .offset(literal(RELEVANCE_WINDOW));
  return best.unionAll(rest).as('ranked');
}

/**
 * One statement per page: the page, newest first (created_at desc, then id desc, served by the
 * (…, created_at desc, id desc) indexes) or by relevance (`ranked`), each row carrying the list's
 * total from a scalar subquery that PostgreSQL runs once. One round trip instead of two.
 */
function pageQuery(
  ex: Executor,
  f: Where,
  limit: number,
  offset: number,
  sort: BountyFilter['sort'],
  columns: (typeof COLUMNS)[Columns],
) {
  const selection = { ...columns, total: sql<string>`(${totalOf(ex, f, countCap({ limit, offset }))})` };
  if (sort === 'relevance' && f.q !== undefined) {
    const r = ranked(ex, { ...f, q: f.q }, limit, offset);
    return ex
      .select(selection)
      .from(r)
      .innerJoin(bounties, eq(bounties.id, r.id))
      .innerJoin(projects, eq(projects.id, bounties.projectId))
      .leftJoin(tokenStates, eq(tokenStates.tokenAddress, projects.tokenAddress))
      .orderBy(desc(r.rank), desc(r.created_at), desc(r.id))
      .limit(literal(limit))
      .offset(literal(offset));
  }
  return ex
    .select(selection)
    .from(bounties)
    .innerJoin(projects, eq(projects.id, bounties.projectId))
    .leftJoin(tokenStates, eq(tokenStates.tokenAddress, projects.tokenAddress))
    .where(where(f))
    .orderBy(...newest)
    .limit(literal(limit))
    .offset(literal(offset));
}

type Page<C extends Columns> = (Rows[C] & { total: string })[];
type Statement = CompiledSelect<Rows[Columns] & { total: string }>;
/** `count()` is a number; bounty_counts' `sum` comes as numeric text. */
type CountStatement = CompiledSelect<{ n: number | string }>;

/** First pages of these sizes are named statements; any other page is planned on its own. */
const NAMED_SIZES = new Set([10, 20, 50, 100]);
/** Compiled statements kept per database handle; past this many (deep pages), the cache starts over. */
const MAX_STATEMENTS = 256;

/**
 * A statement depends on which filters are present (at most 32 shapes) and on its page; each is
 * compiled once (`compileSelect`), so no request builds SQL. A first page of a common size without
 * a keyword is a named prepared statement: PostgreSQL parses and plans it once per connection (at
 * most 16 x 4 for each of the two column sets). With a keyword it stays unnamed, so it is planned
 * for each word: how selective a word is decides between walking the created_at index and reading
 * the GIN index, and a generic plan, which cannot know it, would walk the whole index for a rare
 * word. Deeper pages and other sizes are unnamed too, so that paging never grows the number of
 * statements a connection keeps. The count of a page past the end (`countMatching`) is kept the
 * same way, per filter shape (`countStatementFor`).
 */
const compiled = new WeakMap<Executor, Map<string, Statement | CountStatement>>();

/** The statement kept under `key` for `ex`, compiled by `compile` on its first use. */
function kept<S extends Statement | CountStatement>(ex: Executor, key: string, compile: () => S): S {
  let statements = compiled.get(ex);
  if (!statements) {
    statements = new Map();
    compiled.set(ex, statements);
  }
  const cached = statements.get(key);
  if (cached) return cached as S;
  const statement = compile();
  if (statements.size >= MAX_STATEMENTS) statements.clear();
  statements.set(key, statement);
  return statement;
}

/** Which filters are present, one bit each (built per request: no arrays, no joins). */
const shapeBits = (f: BountyFilter) =>
  (f.status === undefined ? 0 : 1) |
  (f.difficulty === undefined ? 0 : 2) |
  (f.projectId === undefined ? 0 : 4) |
  (f.payable === undefined ? 0 : 8) |
  (f.q === undefined ? 0 : f.sort === 'relevance' ? 48 : 16);

/** The filters `f` has, as placeholders named after them (a statement's values are the filter). */
function placeholders(f: BountyFilter): Where {
  const p = (name: string, present: unknown) => (present === undefined ? undefined : sql.placeholder(name));
  return {
    status: p('status', f.status),
    difficulty: p('difficulty', f.difficulty),
    projectId: p('projectId', f.projectId),
    payable: p('payable', f.payable),
    q: p('q', f.q),
  };
}

function statementFor(ex: Executor, f: BountyFilter, columns: Columns): Statement {
  const named = f.q === undefined && f.offset === 0 && NAMED_SIZES.has(f.limit);
  return kept(ex, `${columns}${shapeBits(f)}_${f.limit}_${f.offset}`, () =>
    compileSelect(pageQuery(ex, placeholders(f), f.limit, f.offset, f.sort, COLUMNS[columns]), named),
  );
}

/**
 * The total alone: without a keyword one named statement per filter shape (its count has no bound,
 * so any depth past the end is the same statement), with one unnamed and one per bound.
 */
function countStatementFor(ex: Executor, f: BountyFilter): CountStatement {
  const cap = countCap(f);
  const named = f.q === undefined;
  // The order (the relevance bit, 32) does not change a count.
  return kept(ex, `count${shapeBits(f) & ~32}${named ? '' : `_${cap}`}`, () =>
    compileSelect(totalOf(ex, placeholders(f), cap), named),
  );
}

/**
 * One page of the list and its total (null when the page is empty: `countMatching` then tells), its
 * rows as values or (`json`) as the API's JSON text.
 */
export async function listPage<C extends Columns>(
  ex: Executor,
  f: BountyFilter,
  columns: C,
): Promise<{ rows: Page<C>; total: Total | null }> {
  const values = f as unknown as Record<string, unknown>;
  // The statement was compiled for `columns`: its rows are that set's rows.
  const rows = (await statementFor(ex, f, columns).run(ex, values)) as unknown as Page<C>;
  const first = rows[0];
  return { rows, total: first ? totalFrom(Number(first.total), f) : null };
}

/** How many bounties match, for a page past the end (which carries no total). */
export async function countMatching(ex: Executor, f: BountyFilter): Promise<Total> {
  const [row] = await countStatementFor(ex, f).run(ex, f as unknown as Record<string, unknown>);
  return totalFrom(Number(row?.n ?? 0), f);
}
