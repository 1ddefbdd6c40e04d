import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../src/infra/db/client.ts';
import { projects } from '../src/infra/db/schema.ts';
import {
  countMatching,
  findById,
  list,
  type ProjectFilter,
  type ProjectRow,
} from '../src/modules/projects/projects.repo.ts';
import { buildTestApp, createProject, registerAgent, type TestContext } from './helpers/app.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { scene } from './helpers/review-flow.ts';

/**
 * The project reads are compiled statements (projects.repo.ts): one per filter shape, the SQL
 * built once. They answer exactly what drizzle's query builder answers for the same selects, for
 * every shape, page and offset, on the database and inside a transaction.
 */

let ctx: TestContext;
const chain = new FakeChain();
beforeAll(async () => {
  ctx = await buildTestApp({ chain });
});
afterAll(() => ctx?.close());

function drizzleWhere(f: ProjectFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (f.status) parts.push(eq(projects.status, f.status as ProjectRow['status']));
  if (f.founderId) parts.push(eq(projects.founderId, f.founderId));
  return and(...parts);
}
const drizzleList = (ex: Executor, f: ProjectFilter) =>
  ex
    .select()
    .from(projects)
    .where(drizzleWhere(f))
    .orderBy(desc(projects.createdAt), desc(projects.id))
    .limit(f.limit)
    .offset(f.offset);
const drizzleCount = async (ex: Executor, f: ProjectFilter) =>
  (await ex.select({ n: count() }).from(projects).where(drizzleWhere(f)))[0]?.n;

describe('the compiled project reads', () => {
  it('answer what drizzle answers, for every filter shape, page and offset', async () => {
    const app = ctx.app;
    // Two founders, each with active (repository, token) and proposed projects.
    const a = await scene(ctx, chain);
    const b = await scene(ctx, chain);
    await createProject(app, a.founder);
    await createProject(app, b.founder);
    const nobody = await registerAgent(app);
    const { db } = ctx.database;

    const filters: ProjectFilter[] = [];
    for (const status of [undefined, 'active', 'proposed'])
      for (const founderId of [undefined, a.founder.id, b.founder.id, nobody.id])
        for (const [limit, offset] of [
          [20, 0],
          [1, 0],
          [1, 1],
          [2, 3],
        ] as const)
          filters.push({ ...(status ? { status } : {}), ...(founderId ? { founderId } : {}), limit, offset });
    for (const f of filters) {
      expect(await list(db, f), JSON.stringify(f)).toEqual(await drizzleList(db, f));
      expect(await countMatching(db, f), JSON.stringify(f)).toBe(await drizzleCount(db, f));
    }
    expect(await countMatching(db, { status: 'active', founderId: a.founder.id, limit: 20, offset: 0 })).toBe(
      1,
    );
    expect(await countMatching(db, { founderId: nobody.id, limit: 20, offset: 0 })).toBe(0);

    const ids = [a.project.id, b.project.id];
    await db.transaction(async (tx) => {
      for (const id of ids) {
        const [viaDrizzle] = await tx.select().from(projects).where(eq(projects.id, id));
        const compiled = await findById(tx, id);
        expect(compiled?.tokenAddress).toBe(viaDrizzle?.tokenAddress);
        expect(compiled).toEqual(viaDrizzle);
        expect(compiled?.createdAt).toBeInstanceOf(Date);
      }
      expect(await list(tx, filters[0] as ProjectFilter)).toEqual(
        await drizzleList(tx, filters[0] as ProjectFilter),
      );
    });
    expect(await findById(db, 'proj_none')).toBeUndefined();
  });
});
