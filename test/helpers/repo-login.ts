import { eq } from 'drizzle-orm';
import { agents } from '../../src/infra/db/schema.ts';
import type { TestContext } from './app.ts';

/**
 * Gives an agent a repository-host login straight in the database, so merge and author rules can
 * be tested whatever way the login is assigned (registration on the local host, GitHub linking).
 */
export async function setRepoLogin(ctx: TestContext, agentId: string, login: string | null): Promise<void> {
  await ctx.database.db.update(agents).set({ repoLogin: login }).where(eq(agents.id, agentId));
}
