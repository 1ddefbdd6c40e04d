import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../src/infra/db/client.ts';
import { bounties, projects, submissions, tokenStates } from '../src/infra/db/schema.ts';
import { findById, submissionsOf, withProject } from '../src/modules/bounties/bounties.repo.ts';
import { buildTestApp, createBounty, registerAgent, type TestContext } from './helpers/app.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { approve, inReview, okJson, post, scene } from './helpers/review-flow.ts';

/**
 * A bounty and its submissions are read through compiled statements (bounties.repo.ts): the SQL
 * built once, the rows decoded by the columns' own mappers. They answer exactly what drizzle's
 * query builder answers for the same select, on rows with every kind of value (nulls, dates,
 * big numbers, a project with and without a curve), on the database and inside a transaction.
 */

let ctx: TestContext;
const chain = new FakeChain();
beforeAll(async () => {
  ctx = await buildTestApp({ chain });
});
afterAll(() => ctx?.close());

const drizzleBounty = async (ex: Executor, id: string) =>
  (
    await ex
      .select(withProject)
      .from(bounties)
      .innerJoin(projects, eq(projects.id, bounties.projectId))
      .leftJoin(tokenStates, eq(tokenStates.tokenAddress, projects.tokenAddress))
      .where(eq(bounties.id, id))
  )[0];
const drizzleSubmissions = (ex: Executor, id: string) =>
  ex
    .select()
    .from(submissions)
    .where(eq(submissions.bountyId, id))
    .orderBy(desc(submissions.createdAt), desc(submissions.id));

describe('the compiled bounty reads', () => {
  it('answer what drizzle answers, row for row and value for value', async () => {
    const s = await scene(ctx, chain, { funds: 10n ** 12n });
    const app = ctx.app;
    // A bounty in review again after changes were asked for; one paid; one open on each project.
    const { bounty: reviewed } = await inReview(app, s, { reward: 7 });
    okJson(
      await post(app, `/api/bounties/${reviewed.id}/request-changes`, s.founder, { review_notes: 'Again.' }),
    );
    // Sent back: a revision deadline, read the same both ways.
    const sentBack = await findById(ctx.database.db, reviewed.id);
    expect(sentBack?.revisionDueAt).toBeInstanceOf(Date);
    expect(sentBack).toEqual(await drizzleBounty(ctx.database.db, reviewed.id));
    const again = await app.inject({
      method: 'POST',
      url: `/api/bounties/${reviewed.id}/submit`,
      headers: s.dev.headers,
      payload: { pr_url: `${s.repoUrl}/pull/9001` },
    });
    expect(again.statusCode, again.body).toBe(201);
    const other = await registerAgent(app);
    const { bounty: paid } = await inReview(app, s, { reward: 123_456_789, dev: other });
    okJson(await approve(app, s.founder, paid.id));
    // A second project whose curve has been read (token_states), beside the first, whose has not.
    const s2 = await scene(ctx, chain, { funds: 10n ** 12n });
    await ctx.database.db.insert(tokenStates).values({
      tokenAddress: s2.tokenAddress,
      curveA: 10n ** 30n + 7n,
      curveB: 3n,
      supplyUnits: 42n * 10n ** 18n,
      blockNumber: 9n,
      updatedAt: new Date(),
    });
    const curved = await createBounty(app, s2.founder, s2.project.id);
    const open = await createBounty(app, s.founder, s.project.id);

    const { db } = ctx.database;
    const ids = [reviewed.id, paid.id, curved.id, open.id];
    for (const id of ids) {
      const compiled = await findById(db, id);
      expect(compiled).toBeDefined();
      expect(compiled).toEqual(await drizzleBounty(db, id));
      expect(await submissionsOf(db, id)).toEqual(await drizzleSubmissions(db, id));
    }
    await db.transaction(async (tx) => {
      for (const id of ids) {
        expect(await findById(tx, id)).toEqual(await drizzleBounty(tx, id));
        expect(await submissionsOf(tx, id)).toEqual(await drizzleSubmissions(tx, id));
      }
    });
    expect((await submissionsOf(db, reviewed.id)).map((x) => x.status)).toEqual([
      'pending',
      'changes_requested',
    ]);
    expect((await findById(db, open.id))?.curveA).toBeNull();
    expect((await findById(db, curved.id))?.curveA).toBe(10n ** 30n + 7n);
    expect((await findById(db, paid.id))?.createdAt).toBeInstanceOf(Date);
    expect(await findById(db, 'bnt_none')).toBeUndefined();
    expect(await submissionsOf(db, 'bnt_none')).toEqual([]);
  });
});
