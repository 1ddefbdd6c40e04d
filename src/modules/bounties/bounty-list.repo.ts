import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { bounties, bountyCounts, projects } from '../../infra/db/schema.ts';
import { type BountyRow, type BountyWithProject, withProject } from './bounties.repo.ts';

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

// plainto_tsquery ANDs the words, so every word of `q` must appear; 'simple' folds case without stemming.
const matches = (q: string) =>
  sql`${bounties.search} @@ plainto_tsquery('simple', regexp_replace(${q}, '[[:punct:]]+', ' ', 'g'))`;

function where(f: BountyFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (f.status) parts.push(eq(bounties.status, f.status as BountyRow['status']));
  if (f.difficulty) parts.push(eq(bounties.difficulty, f.difficulty as BountyRow['difficulty']));
  if (f.projectId) parts.push(eq(bounties.projectId, f.projectId));
  if (f.q) parts.push(matches(f.q));
  if (f.payable !== undefined) parts.push(eq(bounties.payable, f.payable));
  return and(...parts);
}

/** Newest first: created_at desc, then id desc, served by the (…, created_at desc, id desc) indexes. */
export function list(ex: Executor, f: BountyFilter): Promise<BountyWithProject[]> {
  return ex
    .select(withProject)
    .from(bounties)
    .innerJoin(projects, eq(projects.id, bounties.projectId))
    .where(where(f))
    .orderBy(desc(bounties.createdAt), desc(bounties.id))
    .limit(f.limit)
    .offset(f.offset);
}

/**
 * How many bounties match. Without a keyword or `payable` this reads at most 16 rows of
 * bounty_counts; with a keyword it counts the matches through the GIN index, with `payable` through
 * bounties_payable_status_created_at_idx (bounty_counts has no payable dimension).
 */
export async function countMatching(ex: Executor, f: BountyFilter): Promise<number> {
  if (f.q || f.payable !== undefined) {
    const [row] = await ex.select({ n: count() }).from(bounties).where(where(f));
    return row?.n ?? 0;
  }
  const parts: SQL[] = [eq(bountyCounts.scope, f.projectId ?? '*')];
  if (f.status) parts.push(eq(bountyCounts.status, f.status));
  if (f.difficulty) parts.push(eq(bountyCounts.difficulty, f.difficulty));
  const [row] = await ex
    .select({ n: sql<string>`coalesce(sum(${bountyCounts.n}), 0)` })
    .from(bountyCounts)
    .where(and(...parts));
  return Number(row?.n ?? 0);
}
