import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt,
  type SQL,
  sql,
} from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../src/infra/db/client.ts';
import {
  activityEvents,
  agents,
  agentWebhooks,
  bounties,
  bountyComments,
  bountyCounts,
  holderScans,
  projects,
  submissions,
  tokenBalances,
  tokenStates,
  walletIntents,
  walletKeys,
} from '../src/infra/db/schema.ts';
import { compileSelect } from '../src/infra/db/statement.ts';
import * as activityRepo from '../src/modules/activity/activity.repo.ts';
import * as webhooksRepo from '../src/modules/agent-webhooks/agent-webhooks.repo.ts';
import * as agentsRepo from '../src/modules/agents/agents.repo.ts';
import * as bountiesRepo from '../src/modules/bounties/bounties.repo.ts';
import * as commentsRepo from '../src/modules/comments/comments.repo.ts';
import * as holdingsRepo from '../src/modules/holdings/holdings.repo.ts';
import * as projectsRepo from '../src/modules/projects/projects.repo.ts';
import * as queueRepo from '../src/modules/reviews/review-queue.repo.ts';
import * as txRepo from '../src/modules/transactions/transactions.repo.ts';
import * as walletsRepo from '../src/modules/wallets/wallets.repo.ts';
import * as consoleRepo from '../src/web/console/console.repo.ts';
import { buildTestApp, createBounty, registerAgent, type TestContext } from './helpers/app.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { approve, inReview, okJson, post, type Scene, scene } from './helpers/review-flow.ts';

/**
 * The everyday reads compiled once (statement.ts: the review queue, the conversation, the activity
 * feed, the wallet's transactions, the project figures and the dashboard's counts) answer exactly
 * what drizzle's query builder answers for the same selects: the same rows, in the same order,
 * value for value (nested objects, nulls of a left join, dates, big numbers), on the database and
 * inside a transaction. The drizzle side below is each read as it was written before.
 */

let ctx: TestContext;
const chain = new FakeChain();
beforeAll(async () => {
  ctx = await buildTestApp({ chain });
});
afterAll(() => ctx?.close());

const { search: _search, approvalLeaseOwner: _owner, ...bountyColumns } = getTableColumns(bounties);
const queueBounty = {
  ...bountyColumns,
  projectName: projects.name,
  curveA: tokenStates.curveA,
  curveB: tokenStates.curveB,
  supplyUnits: tokenStates.supplyUnits,
};
const pendingOf = (founderId: string) =>
  and(eq(projects.founderId, founderId), eq(submissions.status, 'pending'));

/** Each read as drizzle's query builder ran it, before it was compiled. */
const drizzle = {
  queuePage: (ex: Executor, founderId: string, limit: number, offset: number) =>
    ex
      .select({ bounty: queueBounty, submission: submissions })
      .from(submissions)
      .innerJoin(bounties, eq(bounties.id, submissions.bountyId))
      .innerJoin(projects, eq(projects.id, bounties.projectId))
      .leftJoin(tokenStates, eq(tokenStates.tokenAddress, projects.tokenAddress))
      .where(pendingOf(founderId))
      .orderBy(asc(submissions.createdAt), asc(submissions.id))
      .limit(limit)
      .offset(offset),
  queueTotal: async (ex: Executor, founderId: string) => {
    const [row] = await ex
      .select({ n: count() })
      .from(submissions)
      .innerJoin(bounties, eq(bounties.id, submissions.bountyId))
      .innerJoin(projects, eq(projects.id, bounties.projectId))
      .where(pendingOf(founderId));
    return Number(row?.n ?? 0);
  },
  waiting: (ex: Executor, founderId: string, limit: number) =>
    ex
      .select({ bounty: queueBounty })
      .from(bounties)
      .innerJoin(projects, eq(projects.id, bounties.projectId))
      .leftJoin(tokenStates, eq(tokenStates.tokenAddress, projects.tokenAddress))
      .where(
        and(
          eq(projects.founderId, founderId),
          eq(bounties.status, 'claimed'),
          isNotNull(bounties.revisionDueAt),
        ),
      )
      .orderBy(asc(bounties.revisionDueAt), asc(bounties.id))
      .limit(limit),
  sentBack: (ex: Executor, bountyIds: string[]) =>
    ex
      .select()
      .from(submissions)
      .where(and(inArray(submissions.bountyId, bountyIds), eq(submissions.status, 'changes_requested')))
      .orderBy(desc(submissions.createdAt), desc(submissions.id)),
  comments: (ex: Executor, bountyId: string, limit: number, offset: number) =>
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
      .where(eq(bountyComments.bountyId, bountyId))
      .orderBy(asc(bountyComments.id))
      .limit(limit)
      .offset(offset),
  commentCount: async (ex: Executor, bountyId: string) => {
    const [row] = await ex
      .select({ n: count() })
      .from(bountyComments)
      .where(eq(bountyComments.bountyId, bountyId));
    return Number(row?.n ?? 0);
  },
  feed: (ex: Executor, f: activityRepo.ActivityFilter) => {
    const where: SQL[] = [isNull(activityEvents.recipients)];
    if (f.before) where.push(lt(activityEvents.id, f.before));
    if (f.type) where.push(eq(activityEvents.type, f.type));
    if (f.projectId) where.push(eq(activityEvents.projectId, f.projectId));
    if (f.agentId) where.push(eq(activityEvents.agentId, f.agentId));
    return ex
      .select()
      .from(activityEvents)
      .where(and(...where))
      .orderBy(desc(activityEvents.id))
      .limit(f.limit);
  },
  intents: (ex: Executor, agentId: string, limit: number) =>
    ex
      .select()
      .from(walletIntents)
      .where(eq(walletIntents.agentId, agentId))
      .orderBy(desc(walletIntents.createdAt), desc(walletIntents.id))
      .limit(limit),
  intent: async (ex: Executor, id: string) =>
    (await ex.select().from(walletIntents).where(eq(walletIntents.id, id)))[0],
  projectsByIds: (ex: Executor, ids: string[]) => ex.select().from(projects).where(inArray(projects.id, ids)),
  reviewStats: (ex: Executor, projectIds: string[], staleBefore: Date) => {
    const reviewed = sql`${submissions.status} in ('approved', 'rejected', 'changes_requested')`;
    const pending = sql`${submissions.status} = 'pending'`;
    return ex
      .select({
        projectId: bounties.projectId,
        approved: sql<number>`(count(*) filter (where ${submissions.status} = 'approved'))::int`,
        rejected: sql<number>`(count(*) filter (where ${submissions.status} = 'rejected'))::int`,
        changesRequested: sql<number>`(count(*) filter (where ${submissions.status} = 'changes_requested'))::int`,
        medianHours: sql<number | null>`percentile_cont(0.5) within group (
          order by (extract(epoch from ${submissions.reviewedAt} - ${submissions.createdAt}) / 3600)::float8
        ) filter (where ${reviewed})`,
        awaitingReview: sql<number>`(count(*) filter (where ${pending}))::int`,
        awaitingOver7Days: sql<number>`(count(*) filter (where ${pending}
          and ${submissions.createdAt} < ${staleBefore.toISOString()}::timestamptz))::int`,
        owed: sql<number>`(count(*) filter (where ${pending} and ${submissions.founderMerged}))::int`,
      })
      .from(submissions)
      .innerJoin(bounties, eq(bounties.id, submissions.bountyId))
      .where(inArray(bounties.projectId, projectIds))
      .groupBy(bounties.projectId);
  },
};

/** Rows of a grouped query, in a stable order (GROUP BY promises none). */
const byProject = <T extends { projectId: string }>(rows: T[]) =>
  [...rows].sort((a, b) => a.projectId.localeCompare(b.projectId));

/** A check on the database, then inside a transaction (the compiled read runs on its driver). */
const both = async (check: (ex: Executor) => Promise<void>) => {
  await check(ctx.database.db);
  await ctx.database.db.transaction(async (tx) => check(tx));
};

let s: Scene;
let s2: Scene;
let ids: { bounties: string[]; waiting: string; reviewed: string };

describe('the compiled everyday reads', () => {
  beforeAll(async () => {
    const app = ctx.app;
    s = await scene(ctx, chain, { funds: 10n ** 12n });
    s2 = await scene(ctx, chain, { funds: 10n ** 12n });
    // The second project's curve has been read (token_states), the first's has not.
    await ctx.database.db.insert(tokenStates).values({
      tokenAddress: s2.tokenAddress,
      curveA: 10n ** 30n + 7n,
      curveB: 3n,
      supplyUnits: 42n * 10n ** 18n,
      blockNumber: 9n,
      updatedAt: new Date(),
    });
    // In review on both projects; one sent back and waiting for its revision; one paid.
    const { bounty: a } = await inReview(app, s, { reward: 7 });
    const { bounty: b } = await inReview(app, s2, { reward: 123_456_789 });
    // One active claim per project per agent: each of these is another agent's.
    const { bounty: c } = await inReview(app, s, { reward: 11, dev: await registerAgent(app) });
    okJson(await post(app, `/api/bounties/${c.id}/request-changes`, s.founder, { review_notes: 'Again.' }));
    const other = await registerAgent(app);
    const { bounty: d } = await inReview(app, s, { reward: 99, dev: other });
    okJson(await approve(app, s.founder, d.id));
    const { bounty: e } = await inReview(app, s2, { reward: 5, dev: other });
    okJson(await post(app, `/api/bounties/${e.id}/reject`, s2.founder, { review_notes: 'No.' }));
    const open = await createBounty(app, s.founder, s.project.id);
    for (const [who, text] of [
      [s.dev, 'A question, with "quotes" and a \\ and é😀'],
      [s.founder, 'An answer.'],
      [other, 'Me too.'],
    ] as const)
      okJson(await post(app, `/api/bounties/${a.id}/comments`, who, { body: text }), 201);
    ids = { bounties: [a.id, b.id, c.id, d.id, e.id, open.id], waiting: c.id, reviewed: a.id };
  });

  it('the review queue: its page, total, revisions waiting and earlier rounds', async () => {
    await both(async (ex) => {
      for (const founder of [s.founder.id, s2.founder.id, 'agt_none'])
        for (const [limit, offset] of [
          [20, 0],
          [1, 0],
          [1, 1],
          [5, 3],
        ] as const) {
          const page = await queueRepo.pageOf(ex, founder, limit, offset);
          expect(page).toEqual(await drizzle.queuePage(ex, founder, limit, offset));
          expect(await queueRepo.totalOf(ex, founder)).toBe(await drizzle.queueTotal(ex, founder));
          expect(await queueRepo.waitingOf(ex, founder, limit)).toEqual(
            await drizzle.waiting(ex, founder, limit),
          );
        }
      expect(await queueRepo.sentBackOf(ex, ids.bounties)).toEqual(await drizzle.sentBack(ex, ids.bounties));
      expect(await queueRepo.sentBackOf(ex, [ids.waiting, 'bnt_none'])).toEqual(
        await drizzle.sentBack(ex, [ids.waiting, 'bnt_none']),
      );
    });
    const db = ctx.database.db;
    // What the comparison covered: both curves, a waiting revision, an earlier round.
    const page = await queueRepo.pageOf(db, s2.founder.id, 20, 0);
    expect(page[0]?.bounty.curveA).toBe(10n ** 30n + 7n);
    expect(page[0]?.submission.createdAt).toBeInstanceOf(Date);
    expect((await queueRepo.pageOf(db, s.founder.id, 20, 0))[0]?.bounty.curveA).toBeNull();
    expect((await queueRepo.waitingOf(db, s.founder.id, 10)).map((r) => r.bounty.id)).toEqual([ids.waiting]);
    expect(await queueRepo.sentBackOf(db, ids.bounties)).toHaveLength(1);
  });

  it('the conversation, its count, and the dashboard counts', async () => {
    await both(async (ex) => {
      for (const id of [...ids.bounties, 'bnt_none'])
        for (const [limit, offset] of [
          [50, 0],
          [2, 1],
          [1, 5],
        ] as const) {
          expect(await commentsRepo.list(ex, id, limit, offset)).toEqual(
            await drizzle.comments(ex, id, limit, offset),
          );
          expect(await commentsRepo.countOf(ex, id)).toBe(await drizzle.commentCount(ex, id));
        }
      expect(await agentsRepo.count(ex)).toBe(
        (await ex.select({ n: sql<number>`count(*)::int` }).from(agents))[0]?.n,
      );
      expect(await bountiesRepo.sumApprovedFeeUnits(ex)).toBeGreaterThan(0n);
      for (const scope of ['*', s.project.id, 'prj_none'])
        expect(await bountiesRepo.countsByStatus(ex, scope)).toEqual(
          await ex
            .select({
              status: bountyCounts.status,
              n: sql<string>`sum(${bountyCounts.n})`,
              rewards: sql<string>`sum(${bountyCounts.rewardSum})`,
            })
            .from(bountyCounts)
            .where(eq(bountyCounts.scope, scope))
            .groupBy(bountyCounts.status),
        );
    });
    expect(await commentsRepo.list(ctx.database.db, ids.reviewed, 50, 0)).toHaveLength(3);
  });

  it('the activity feed, every combination of its filters', async () => {
    const db = ctx.database.db;
    const all = await drizzle.feed(db, { limit: 500 });
    expect(all.length).toBeGreaterThan(10);
    const middle = all[Math.floor(all.length / 2)] as (typeof all)[number];
    const withProject = all.find((e) => e.projectId && e.agentId) as (typeof all)[number];
    await both(async (ex) => {
      for (let shape = 0; shape < 16; shape++) {
        const f: activityRepo.ActivityFilter = {
          limit: shape % 3 === 0 ? 3 : 50,
          ...(shape & 1 ? { before: middle.id } : {}),
          ...(shape & 2 ? { type: withProject.type } : {}),
          ...(shape & 4 ? { projectId: withProject.projectId as string } : {}),
          ...(shape & 8 ? { agentId: withProject.agentId as string } : {}),
        };
        const expected = await drizzle.feed(ex, f);
        expect(await activityRepo.list(ex, f), `shape ${shape}`).toEqual(expected);
      }
    });
  });

  it("the wallet's transactions and one transaction", async () => {
    const db = ctx.database.db;
    // An agent's requests as the engine records them: one refused before it was sent (nulls), one
    // confirmed (a block, a JSON result), one failed, at the same instant as another (ordered by id
    // then). All final, so the transaction engine's passes leave them as they are while we read.
    const at = new Date('2026-11-29T10:00:00.123Z');
    const intent = (id: string, nonce: number, more: Partial<typeof walletIntents.$inferInsert>) => ({
      id,
      agentId: s.dev.id,
      requestKey: `key-${id}`,
      kind: 'sponsored_sell',
      projectId: s.project.id,
      holder: s.dev.walletAddress as string,
      signer: s.founder.walletAddress as string,
      nonce,
      toAddress: s.tokenAddress,
      data: '0x',
      valueUnits: 10n ** 20n + 1n,
      gas: 200_000n,
      createdAt: at,
      updatedAt: at,
      final: true,
      ...more,
    });
    await db.insert(walletIntents).values([
      intent('wtx_reads_1', 0, { status: 'failed', counted: false }),
      intent('wtx_reads_2', 1, {
        status: 'confirmed',
        txHash: `0x${'ab'.repeat(32)}`,
        blockNumber: 2n ** 40n,
        result: { tx_hash: '0xab', tokens: '12.5', nested: { ok: true } },
        createdAt: new Date(at.getTime() + 1),
      }),
      intent('wtx_reads_3', 2, { status: 'failed', errorCode: 'reverted', errorMessage: 'No "gas".' }),
    ]);
    const owners = await db
      .selectDistinct({ agentId: walletIntents.agentId })
      .from(walletIntents)
      .where(isNotNull(walletIntents.agentId));
    expect(owners.map((o) => o.agentId)).toContain(s.dev.id);
    await both(async (ex) => {
      for (const { agentId } of [...owners, { agentId: 'agt_none' }])
        for (const limit of [1, 20]) {
          const rows = await txRepo.intentsOf(ex, agentId as string, limit);
          expect(rows).toEqual(await drizzle.intents(ex, agentId as string, limit));
          for (const row of rows)
            expect(await txRepo.findIntent(ex, row.id)).toEqual(await drizzle.intent(ex, row.id));
        }
      expect(await txRepo.findIntent(ex, 'wi_none')).toBeUndefined();
    });
    expect((await txRepo.intentsOf(db, s.dev.id, 20)).map((r) => r.id)).toEqual([
      'wtx_reads_2',
      'wtx_reads_3',
      'wtx_reads_1',
    ]);
    expect((await txRepo.findIntent(db, 'wtx_reads_2'))?.result).toEqual({
      tx_hash: '0xab',
      tokens: '12.5',
      nested: { ok: true },
    });
  });

  it("the projects' review figures and several projects at once", async () => {
    const projectIds = [s.project.id, s2.project.id, 'prj_none'];
    await both(async (ex) => {
      for (const staleBefore of [new Date(Date.now() + 86_400_000), new Date(0)]) {
        const stats = byProject(await projectsRepo.reviewStats(ex, projectIds, staleBefore));
        expect(stats).toEqual(byProject(await drizzle.reviewStats(ex, projectIds, staleBefore)));
        expect(stats).toHaveLength(2);
      }
      const now = new Date();
      expect(await projectsRepo.reviewStats(ex, [s.project.id], now)).toEqual(
        await drizzle.reviewStats(ex, [s.project.id], now),
      );
      const rows = await projectsRepo.findByIds(ex, projectIds);
      expect(byProject(rows.map((r) => ({ ...r, projectId: r.id })))).toEqual(
        byProject((await drizzle.projectsByIds(ex, projectIds)).map((r) => ({ ...r, projectId: r.id }))),
      );
    });
    const [stats] = await projectsRepo.reviewStats(ctx.database.db, [s.project.id], new Date());
    expect(stats).toMatchObject({ approved: 1, changesRequested: 1, awaitingReview: 1 });
    expect(typeof stats?.medianHours).toBe('number');
  });
});

describe('the reads behind every signed-in request and page', () => {
  it("an agent by id and by key hash, its active claims, the feed's newest events", async () => {
    const db = ctx.database.db;
    const people = [s.founder, s.dev, s2.founder];
    await both(async (ex) => {
      for (const a of people) {
        const row = await agentsRepo.findById(ex, a.id);
        expect(row).toEqual((await ex.select().from(agents).where(eq(agents.id, a.id)).limit(1))[0]);
        const hash = row?.apiKeyHash as string;
        expect(await agentsRepo.findByKeyHash(ex, hash)).toEqual(
          (
            await ex
              .select({ id: agents.id, name: agents.name, walletAddress: agents.walletAddress })
              .from(agents)
              .where(eq(agents.apiKeyHash, hash))
              .limit(1)
          )[0],
        );
        expect(await bountiesRepo.activeClaimsOf(ex, a.id)).toEqual(
          await ex
            .select({
              id: bounties.id,
              projectId: bounties.projectId,
              title: bounties.title,
              status: bounties.status,
              claimedAt: bounties.claimedAt,
            })
            .from(bounties)
            .where(and(eq(bounties.claimedBy, a.id), inArray(bounties.status, ['claimed', 'in_review'])))
            .orderBy(desc(bounties.claimedAt)),
        );
      }
      expect(await agentsRepo.findById(ex, 'agent_none')).toBeUndefined();
      expect(await agentsRepo.findByKeyHash(ex, 'none')).toBeUndefined();
      const [newest] = await ex.select().from(activityEvents).orderBy(desc(activityEvents.id)).limit(1);
      expect(await activityRepo.latestId(ex)).toBe(newest?.id);
    });
    // The scene's dev has one claim open (in review); the feed's last ready event is a real one.
    expect((await bountiesRepo.activeClaimsOf(db, s.dev.id)).map((c) => c.id)).toEqual([ids.reviewed]);
    const ready = await activityRepo.latestReady(db);
    expect(ready.id).toBe(await activityRepo.latestId(db));
    expect(BigInt(ready.txid)).toBeGreaterThan(0n);
  });
});

describe("the console's reads, earnings and webhooks", () => {
  it('answer what drizzle answers', async () => {
    const db = ctx.database.db;
    const at = new Date('2026-11-29T11:00:00.000Z');
    const hook = (id: string, types: string[] | null, createdAt: Date) => ({
      id,
      agentId: s.dev.id,
      url: `https://hooks.example/${id}`,
      types,
      secret: `whsec_${id}`,
      verifiedAt: types ? at : null,
      createdAt,
      updatedAt: createdAt,
    });
    await db
      .insert(agentWebhooks)
      .values([hook('wh_reads_2', ['bounty.created', 'bounty.claimed'], at), hook('wh_reads_1', null, at)]);
    const paid = await db
      .select({ agentId: submissions.agentId })
      .from(submissions)
      .where(eq(submissions.status, 'approved'));
    const agentIds = [...new Set([s.dev.id, s.founder.id, ...paid.map((p) => p.agentId)])];
    await both(async (ex) => {
      for (const agentId of agentIds) {
        expect(await bountiesRepo.earningsOf(ex, agentId)).toEqual(
          await ex
            .select({
              projectId: projects.id,
              projectName: projects.name,
              tokenSymbol: projects.tokenSymbol,
              earnedUnits: sql<string>`coalesce(sum(${submissions.rewardUnits} - ${submissions.feeUnits}), 0)::text`,
              completed: count(),
            })
            .from(submissions)
            .innerJoin(bounties, eq(bounties.id, submissions.bountyId))
            .innerJoin(projects, eq(projects.id, bounties.projectId))
            .where(and(eq(submissions.agentId, agentId), eq(submissions.status, 'approved')))
            .groupBy(projects.id, projects.name, projects.tokenSymbol)
            .orderBy(projects.name),
        );
        expect(await webhooksRepo.listOf(ex, agentId)).toEqual(
          await ex
            .select()
            .from(agentWebhooks)
            .where(eq(agentWebhooks.agentId, agentId))
            .orderBy(agentWebhooks.createdAt, agentWebhooks.id),
        );
      }
    });
    for (const agentId of agentIds)
      for (const limit of [1, 50])
        expect(await consoleRepo.submissionsOf(db, agentId, limit)).toEqual(
          await db
            .select({
              id: submissions.id,
              bountyId: submissions.bountyId,
              bountyTitle: bounties.title,
              projectName: projects.name,
              tokenSymbol: projects.tokenSymbol,
              prUrl: submissions.prUrl,
              status: submissions.status,
              reviewNotes: submissions.reviewNotes,
              contributorTxHash: submissions.contributorTxHash,
              platformFeeTxHash: submissions.platformFeeTxHash,
              rewardUnits: submissions.rewardUnits,
              feeUnits: submissions.feeUnits,
              createdAt: submissions.createdAt,
            })
            .from(submissions)
            .innerJoin(bounties, eq(bounties.id, submissions.bountyId))
            .innerJoin(projects, eq(projects.id, bounties.projectId))
            .where(eq(submissions.agentId, agentId))
            .orderBy(desc(submissions.createdAt), desc(submissions.id))
            .limit(limit),
        );
    // What the comparison covered: earnings of a paid contributor, both webhooks with their types,
    // the founder's payout with its leg.
    expect(paid.length).toBeGreaterThan(0);
    expect((await bountiesRepo.earningsOf(db, paid[0]?.agentId as string))[0]?.completed).toBe(1);
    expect((await webhooksRepo.listOf(db, s.dev.id)).map((w) => [w.id, w.types])).toEqual([
      ['wh_reads_1', null],
      ['wh_reads_2', ['bounty.created', 'bounty.claimed']],
    ]);
    const [payout] = await consoleRepo.payoutsOfFounder(db, s.founder.id);
    expect(payout?.legs.length).toBeGreaterThan(0);
    expect(payout?.legs.every((l) => l.payoutId === payout.id)).toBe(true);
    expect(await consoleRepo.payoutsOfFounder(db, 'agent_none')).toEqual([]);
  });
});

describe("the wallet's stored reads", () => {
  it('holdings, curve states, deployed tokens, scans and wallet keys answer what drizzle answers', async () => {
    const db = ctx.database.db;
    const holder = (s.dev.walletAddress as string).toLowerCase();
    const now = new Date('2026-11-29T12:00:00.000Z');
    // A balance on each project's token (one curve read, one not) and a zero one, left out.
    await db.insert(tokenBalances).values([
      {
        tokenAddress: s.tokenAddress,
        holder,
        balanceUnits: 10n ** 21n + 3n,
        blockNumber: 7n,
        updatedAt: now,
      },
      { tokenAddress: s2.tokenAddress, holder, balanceUnits: 5n, blockNumber: 8n, updatedAt: now },
      { tokenAddress: s2.tokenAddress, holder: '0xzero', balanceUnits: 0n, blockNumber: 8n, updatedAt: now },
    ]);
    await db.insert(holderScans).values({ holder, scannedAt: now });
    const projectIds = [s.project.id, s2.project.id, 'prj_none'];
    await both(async (ex) => {
      for (const h of [holder, '0xzero', '0xnone']) {
        expect(await holdingsRepo.holdingsOf(ex, h)).toEqual(
          await ex
            .select({
              projectId: projects.id,
              projectName: projects.name,
              tokenSymbol: projects.tokenSymbol,
              tokenAddress: tokenBalances.tokenAddress,
              balanceUnits: tokenBalances.balanceUnits,
              a: tokenStates.curveA,
              b: tokenStates.curveB,
              supplyUnits: tokenStates.supplyUnits,
            })
            .from(tokenBalances)
            .innerJoin(projects, eq(projects.tokenAddress, tokenBalances.tokenAddress))
            .leftJoin(tokenStates, eq(tokenStates.tokenAddress, tokenBalances.tokenAddress))
            .where(and(eq(tokenBalances.holder, h), gt(tokenBalances.balanceUnits, 0n)))
            .orderBy(projects.name),
        );
        expect(await holdingsRepo.isScanned(ex, h)).toBe(h === holder);
      }
      const states = await holdingsRepo.statesOfProjects(ex, projectIds);
      expect(states).toEqual(
        await ex
          .select({
            projectId: projects.id,
            a: tokenStates.curveA,
            b: tokenStates.curveB,
            supplyUnits: tokenStates.supplyUnits,
          })
          .from(projects)
          .innerJoin(tokenStates, eq(tokenStates.tokenAddress, projects.tokenAddress))
          .where(inArray(projects.id, projectIds)),
      );
      expect(states.map((x) => x.projectId)).toEqual([s2.project.id]);
      expect(byProject(await holdingsRepo.deployedTokens(ex))).toEqual(
        byProject(
          await ex
            .select({
              projectId: projects.id,
              tokenAddress: projects.tokenAddress,
              curveAddress: projects.curveAddress,
            })
            .from(projects)
            .where(
              and(
                eq(projects.status, 'active'),
                isNotNull(projects.tokenAddress),
                isNotNull(projects.curveAddress),
              ),
            ),
        ),
      );
      for (const a of [s.dev, s.founder, { id: 'agent_none' }])
        expect(await walletsRepo.findByAgent(ex, a.id)).toEqual(
          (await ex.select().from(walletKeys).where(eq(walletKeys.agentId, a.id)).limit(1))[0],
        );
    });
    const held = await holdingsRepo.holdingsOf(db, holder);
    expect(held.map((x) => [x.balanceUnits, x.a])).toContainEqual([10n ** 21n + 3n, null]);
    expect(held.map((x) => [x.balanceUnits, x.a])).toContainEqual([5n, 10n ** 30n + 7n]);
  });
});

describe('rows in nested objects (rowMapper)', () => {
  it('maps a nested selection as drizzle does, a left-joined table with no row as null', async () => {
    const build = (ex: Executor) =>
      ex
        .select({
          id: bounties.id,
          reward: { amount: bounties.rewardAmount, at: bounties.createdAt },
          curve: tokenStates,
          mixed: { name: projects.name, a: tokenStates.curveA },
          extra: { n: sql<number>`1 + 1`.mapWith(Number) },
        })
        .from(bounties)
        .innerJoin(projects, eq(projects.id, bounties.projectId))
        .leftJoin(tokenStates, eq(tokenStates.tokenAddress, projects.tokenAddress))
        .orderBy(bounties.id);
    await both(async (ex) => {
      type Row = Awaited<ReturnType<typeof build>>[number];
      const compiled = await compileSelect<Row>(build(ex), true).run(ex, {});
      expect(compiled).toEqual(await build(ex));
      expect(compiled.some((r) => r.curve === null)).toBe(true);
      expect(compiled.some((r) => r.curve?.curveA === 10n ** 30n + 7n)).toBe(true);
      expect(compiled.every((r) => r.mixed !== null && r.extra.n === 2)).toBe(true);
    });
  });
});
