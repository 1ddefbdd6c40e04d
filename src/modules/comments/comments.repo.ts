import { asc, count, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { agents, bountyComments } from '../../infra/db/schema.ts';
import { compileOnFirstRun, numberPlaceholder } from '../../infra/db/statement.ts';

export type CommentRow = typeof bountyComments.$inferSelect & { authorName: string };

export async function insert(ex: Executor, row: typeof bountyComments.$inferInsert): Promise<void> {
  await ex.insert(bountyComments).values(row);
}

// The conversation's reads, behind every bounty page: compiled once (statement.ts).
const page = compileOnFirstRun((ex) =>
  ex
    .select({
      id: bountyComments.id,
      bountyId: bountyComments.bountyId,
      authorId: bountyComments.authorId,
      body: bountyComments.body,
      createdAt: bountyComments.createdAt,
      authorName: agents.name,
    })
    .from(bountyComments)
    .innerJoin(agents, eq(agents.id, bountyComments.authorId))
    .where(eq(bountyComments.bountyId, sql.placeholder('bountyId')))
    .orderBy(asc(bountyComments.id))
    .limit(numberPlaceholder('limit'))
    .offset(numberPlaceholder('offset')),
);

/** The bounty's comments, oldest first (ids are UUIDv7), with each author's name. */
export function list(ex: Executor, bountyId: string, limit: number, offset: number): Promise<CommentRow[]> {
  return page.run(ex, { bountyId, limit, offset });
}

const counted = compileOnFirstRun((ex) =>
  ex
    .select({ n: count() })
    .from(bountyComments)
    .where(eq(bountyComments.bountyId, sql.placeholder('bountyId'))),
);

export async function countOf(ex: Executor, bountyId: string): Promise<number> {
  const [row] = await counted.run(ex, { bountyId });
  return Number(row?.n ?? 0);
}
