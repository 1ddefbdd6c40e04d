import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.ts';
import { agents } from '../../infra/db/schema.ts';
import { compileOnFirstRun } from '../../infra/db/statement.ts';
import { foldName } from '../../lib/text.ts';

export type AgentRow = typeof agents.$inferSelect;

/** Inserts an agent; its folded name (unique) is computed here, never passed. */
export async function insert(ex: Executor, row: Omit<AgentRow, 'nameFold'>): Promise<AgentRow> {
  const [created] = await ex
    .insert(agents)
    .values({ ...row, nameFold: foldName(row.name) })
    .returning();
  return created as AgentRow;
}

// An agent by id, read on most requests (`/me`, every page, each person on a bounty page):
// compiled once (statement.ts), a named prepared statement on the primary key.
const byId = compileOnFirstRun((ex) =>
  ex
    .select()
    .from(agents)
    .where(eq(agents.id, sql.placeholder('id')))
    .limit(1),
);

export async function findById(ex: Executor, id: string): Promise<AgentRow | undefined> {
  const [row] = await byId.run(ex, { id });
  return row;
}

/**
 * Locks the agent's row for the rest of the transaction (NO KEY UPDATE: rows that merely
 * reference the agent are not blocked). Other modules take it through `AgentDirectory.lock`.
 */
export async function lockRow(ex: Executor, id: string): Promise<void> {
  await ex.select({ id: agents.id }).from(agents).where(eq(agents.id, id)).for('no key update');
}

export async function update(
  ex: Executor,
  id: string,
  set: Partial<Pick<AgentRow, 'walletAddress' | 'walletType' | 'apiKeyHash' | 'repoLogin' | 'updatedAt'>>,
  onlyWithoutWallet = false,
): Promise<AgentRow | undefined> {
  const where = onlyWithoutWallet
    ? sql`${agents.id} = ${id} and ${agents.walletAddress} is null`
    : eq(agents.id, id);
  const [row] = await ex.update(agents).set(set).where(where).returning();
  return row;
}

/** Sets the login only while the agent has none; undefined when it already had one. */
export async function setRepoLoginIfNone(
  ex: Executor,
  id: string,
  login: string,
  now: Date,
): Promise<AgentRow | undefined> {
  const [row] = await ex
    .update(agents)
    .set({ repoLogin: login, updatedAt: now })
    .where(sql`${agents.id} = ${id} and ${agents.repoLogin} is null`)
    .returning();
  return row;
}

// Every authenticated request runs this: compiled once, on the unique hash index.
const byKeyHash = compileOnFirstRun((ex) =>
  ex
    .select({ id: agents.id, name: agents.name, walletAddress: agents.walletAddress })
    .from(agents)
    .where(eq(agents.apiKeyHash, sql.placeholder('hash')))
    .limit(1),
);

export async function findByKeyHash(ex: Executor, hash: string) {
  const [row] = await byKeyHash.run(ex, { hash });
  return row;
}

const counted = compileOnFirstRun((ex) => ex.select({ n: sql<number>`count(*)::int` }).from(agents));

export async function count(ex: Executor): Promise<number> {
  const [row] = await counted.run(ex, {});
  return row?.n ?? 0;
}
