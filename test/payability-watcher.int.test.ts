import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityEvents, chainCursors } from '../src/infra/db/schema.ts';
import { WATCHER_CURSOR } from '../src/modules/payability/chain-watcher.ts';
import { buildTestApp, createBounty, randomAddress, type TestContext } from './helpers/app.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { getBounty, scene } from './helpers/review-flow.ts';

/** The chain watcher on the fake chain, driven by hand: logs, lease and cursor. */
describe('payability chain watcher', () => {
  let ctx: TestContext;
  let chain: FakeChain;
  const others: TestContext[] = [];
  beforeAll(async () => {
    chain = new FakeChain();
    ctx = await buildTestApp({ chain });
  });
  afterAll(async () => {
    for (const o of others) await o.close();
    await ctx?.close();
  });

  /** Another instance of the deployment: same database, chain and clock. */
  async function instance() {
    const o = await buildTestApp({ chain, database: ctx.database, clock: ctx.clock });
    others.push(o);
    return o;
  }

  const cursor = async () => {
    const [row] = await ctx.database.db
      .select()
      .from(chainCursors)
      .where(eq(chainCursors.name, WATCHER_CURSOR));
    return row;
  };
  const unpayableEvents = async (bountyId: string) =>
    (
      await ctx.database.db
        .select()
        .from(activityEvents)
        .where(and(eq(activityEvents.bountyId, bountyId), eq(activityEvents.type, 'bounty.unpayable')))
    ).length;

  it('follows Approval and Transfer logs of founders, from a cursor stored under a lease', async () => {
    const s = await scene(ctx, chain, { funds: 500n });
    const bounty = await createBounty(ctx.app, s.founder, s.project.id, { reward_amount: 400 });
    const founder = s.founder.walletAddress as string;
    const watcher = ctx.app.services.chainWatcher;

    // First run: the cursor starts at the head, nothing before it is read.
    chain.approveOnChain(s.tokenAddress, founder, 100n);
    const first = await watcher.poll();
    expect(first).toMatchObject({ status: 'polled', projects: [] });
    expect((await cursor())?.blockNumber).toBe(Number(chain.headBlock));
    expect((await cursor())?.leaseOwner).toBe(watcher.owner);
    // ... but every project's funds were read once, so the flag is right anyway.
    expect((await getBounty(ctx.app, bounty.id)).payable).toBe(false);

    chain.approveOnChain(s.tokenAddress, founder, 500n);
    // Transfers between others on the same token touch no project.
    chain.transferOnChain(s.tokenAddress, randomAddress(), randomAddress(), 0n);
    const head = chain.headBlock;
    const second = await watcher.poll();
    expect(second).toEqual({
      status: 'polled',
      fromBlock: head - 1n,
      toBlock: head,
      projects: [s.project.id],
    });
    expect((await getBounty(ctx.app, bounty.id)).payable).toBe(true);
    expect((await cursor())?.blockNumber).toBe(Number(head));
    expect(await watcher.poll()).toMatchObject({ status: 'polled', projects: [] });

    // The founder sends tokens away on chain: the balance falls below the reward.
    chain.transferOnChain(s.tokenAddress, founder, randomAddress(), 200n);
    expect(await watcher.poll()).toMatchObject({ projects: [s.project.id] });
    expect((await getBounty(ctx.app, bounty.id)).payable).toBe(false);
    // One from the first run's read, one now.
    expect(await unpayableEvents(bounty.id)).toBe(2);
  });

  it('polls only in the lease holder; another instance takes over when the lease lapses, from the cursor', async () => {
    const s = await scene(ctx, chain, { funds: 500n });
    const bounty = await createBounty(ctx.app, s.founder, s.project.id, { reward_amount: 400 });
    const a = ctx.app.services.chainWatcher;
    await a.poll();
    const b = (await instance()).app.services.chainWatcher;
    chain.approveOnChain(s.tokenAddress, s.founder.walletAddress as string, 0n);
    const from = (await cursor())?.blockNumber as number;
    expect(await b.poll()).toEqual({ status: 'standby' });
    expect((await getBounty(ctx.app, bounty.id)).payable).toBe(true);
    expect((await cursor())?.blockNumber).toBe(from);

    // A stops polling (stalled); once its lease lapses B holds it and reads what A never did.
    ctx.clock.advance(31_000);
    expect(await b.poll()).toMatchObject({
      status: 'polled',
      fromBlock: BigInt(from + 1),
      projects: [s.project.id],
    });
    expect((await getBounty(ctx.app, bounty.id)).payable).toBe(false);
    expect((await cursor())?.leaseOwner).toBe(b.owner);
    expect(await a.poll()).toEqual({ status: 'standby' });
  });

  it('resumes from the stored cursor in a new instance after the holder shuts down', async () => {
    const s = await scene(ctx, chain, { funds: 500n });
    const bounty = await createBounty(ctx.app, s.founder, s.project.id, { reward_amount: 400 });
    const holder = await instance();
    // Whoever holds the lease now, this instance takes it over on its poll after the lapse.
    ctx.clock.advance(31_000);
    await holder.app.services.chainWatcher.poll();
    expect((await cursor())?.leaseOwner).toBe(holder.app.services.chainWatcher.owner);
    await holder.close();
    others.splice(others.indexOf(holder), 1);
    expect((await cursor())?.leaseOwner).toBeNull();

    // While no instance runs, the founder revokes the allowance.
    const stopped = (await cursor())?.blockNumber as number;
    chain.approveOnChain(s.tokenAddress, s.founder.walletAddress as string, 0n);
    const next = (await instance()).app.services.chainWatcher;
    // The lease was given up at shutdown: no wait for it to lapse.
    expect(await next.poll()).toMatchObject({
      status: 'polled',
      fromBlock: BigInt(stopped + 1),
      projects: [s.project.id],
    });
    expect((await getBounty(ctx.app, bounty.id)).payable).toBe(false);
    expect(await unpayableEvents(bounty.id)).toBe(1);
  });
});
