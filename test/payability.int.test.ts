import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activityEvents, projectFunds } from '../src/infra/db/schema.ts';
import { createBounty, registerAgent, type TestAgent } from './helpers/app.ts';
import { listOk } from './helpers/bounty-flows.ts';
import { appForFile, fundedProject } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { approve, claim, getBounty, inReview, okJson, post, scene } from './helpers/review-flow.ts';
import { newVault } from './helpers/wallets.ts';

const PAYABILITY = ['bounty.payable', 'bounty.unpayable'];

describe('bounty payability', () => {
  const chain = new FakeChain();
  const ctx = appForFile({ chain, vault: newVault() });

  const refresh = (projectId: string) => ctx.app.services.payability.refresh(projectId);

  /** The personal payability events of these bounties, oldest first. */
  async function payabilityEvents(bountyIds: string[]) {
    const rows = await ctx.database.db
      .select()
      .from(activityEvents)
      .where(and(inArray(activityEvents.bountyId, bountyIds), inArray(activityEvents.type, PAYABILITY)))
      .orderBy(activityEvents.id);
    return rows.map((r) => ({ type: r.type, bounty_id: r.bountyId, recipients: r.recipients, data: r.data }));
  }

  const payableOf = async (ids: string[]) =>
    Promise.all(ids.map(async (id) => (await getBounty(ctx.app, id)).payable as boolean));

  /** A founder (external wallet) with an active project and `funds` whole tokens of balance and allowance. */
  async function founderWith(funds: bigint) {
    const s = await scene(ctx, chain, { funds });
    const setFunds = (balance: bigint, allowance = balance) =>
      chain.setFunds(s.tokenAddress, s.founder.walletAddress as string, balance, allowance);
    return { ...s, setFunds };
  }

  it("records the flips of one refresh in the bounties' order, oldest first, however often they flip", async () => {
    const s = await founderWith(40n);
    const made = [];
    for (let i = 0; i < 4; i++)
      made.push(await createBounty(ctx.app, s.founder, s.project.id, { reward_amount: 10 }));
    const ids = made.map((b) => b.id);
    const inOrder = (some: string[]) => [...some].sort((x, y) => ids.indexOf(x) - ids.indexOf(y));
    // A flip writes a new version of each row it updates, so flipping some bounties and then others
    // reorders the table's rows; the flips (and their events) keep the bounties' order all the same.
    const recorded: string[] = [];
    for (const funds of [30n, 40n, 10n, 40n, 0n, 20n, 40n, 0n, 30n, 40n]) {
      s.setFunds(funds);
      const flipped = (await refresh(s.project.id)).map((f) => f.id);
      expect(flipped).toEqual(inOrder(flipped));
      recorded.push(...flipped);
    }
    expect((await payabilityEvents(ids)).map((e) => e.bounty_id)).toEqual(recorded);
  });

  it('covers older bounties first: a bounty beyond the funds is unpayable even if a newer, smaller one fits', async () => {
    const s = await founderWith(300n);
    const a = await createBounty(ctx.app, s.founder, s.project.id, { reward_amount: 100 });
    const b = await createBounty(ctx.app, s.founder, s.project.id, { reward_amount: 150 });
    const c = await createBounty(ctx.app, s.founder, s.project.id, { reward_amount: 50 });
    expect(await payableOf([a.id, b.id, c.id])).toEqual([true, true, true]);

    // The allowance, not the balance, is what falls short: min(balance, allowance) counts.
    s.setFunds(1_000n, 200n);
    await refresh(s.project.id);
    expect(await payableOf([a.id, b.id, c.id])).toEqual([true, false, false]);
    const [stored] = await ctx.database.db
      .select()
      .from(projectFunds)
      .where(eq(projectFunds.projectId, s.project.id));
    expect(stored).toMatchObject({ balanceUnits: 1_000n * 10n ** 18n, allowanceUnits: 200n * 10n ** 18n });

    // The list carries the flag and filters on it, with matching totals, alone and with other filters.
    const all = await listOk(ctx.app, { project_id: s.project.id });
    expect(all.bounties.map((x: { id: string; payable: boolean }) => [x.id, x.payable])).toEqual([
      [c.id, false],
      [b.id, false],
      [a.id, true],
    ]);
    const unpayable = await listOk(ctx.app, { project_id: s.project.id, payable: 'false' });
    expect(unpayable.bounties.map((x: { id: string }) => x.id)).toEqual([c.id, b.id]);
    expect(unpayable.total).toBe(2);
    const payable = await listOk(ctx.app, { project_id: s.project.id, payable: 'true', status: 'open' });
    expect(payable.bounties.map((x: { id: string }) => x.id)).toEqual([a.id]);
    expect(payable.total).toBe(1);
    const paged = await listOk(ctx.app, { project_id: s.project.id, payable: 'false', limit: 1, offset: 1 });
    expect(paged.bounties.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect(paged.total).toBe(2);
    const hard = await listOk(ctx.app, { project_id: s.project.id, payable: 'false', difficulty: 'hard' });
    expect(hard.total).toBe(0);
    // Across projects: every unpayable bounty anywhere, counted directly.
    const everywhere = await listOk(ctx.app, { payable: 'false', limit: 100 });
    expect(everywhere.total).toBe(everywhere.bounties.length);
    expect(everywhere.bounties.every((x: { payable: boolean }) => x.payable === false)).toBe(true);
    const bad = await ctx.app.inject({ method: 'GET', url: '/api/bounties?payable=maybe' });
    expect(bad.statusCode).toBe(400);
  });

  it('records bounty.unpayable and bounty.payable for the founder and the claimant only, on flips only', async () => {
    const s = await founderWith(300n);
    const a = await createBounty(ctx.app, s.founder, s.project.id, { reward_amount: 100 });
    const b = await createBounty(ctx.app, s.founder, s.project.id, { reward_amount: 150 });
    await claim(ctx.app, s.dev, b.id);
    expect(await payabilityEvents([a.id, b.id])).toEqual([]);

    s.setFunds(200n);
    await refresh(s.project.id);
    await refresh(s.project.id); // nothing changed: nothing recorded
    expect(await payabilityEvents([a.id, b.id])).toEqual([
      {
        type: 'bounty.unpayable',
        bounty_id: b.id,
        recipients: [s.founder.id, s.dev.id],
        data: { reward_amount: '150', spendable: '200', committed_before: '100' },
      },
    ]);

    s.setFunds(250n);
    await refresh(s.project.id);
    const events = await payabilityEvents([a.id, b.id]);
    expect(events).toHaveLength(2);
    expect(events[1]).toEqual({
      type: 'bounty.payable',
      bounty_id: b.id,
      recipients: [s.founder.id, s.dev.id],
      data: { reward_amount: '150', spendable: '250', committed_before: '100' },
    });
    expect(await payableOf([a.id, b.id])).toEqual([true, true]);

    // Personal events never reach the public feed.
    const feed = okJson(
      await ctx.app.inject({ method: 'GET', url: `/api/activity?project_id=${s.project.id}&limit=100` }),
    );
    const types = feed.activity.map((e: { type: string }) => e.type);
    expect(types).toContain('bounty.claimed');
    expect(types.filter((t: string) => PAYABILITY.includes(t))).toEqual([]);
  });

  it('records no event for a new bounty whose first value is unpayable, but does for its later flips', async () => {
    const s = await founderWith(100n);
    // The funds fall between the creation's funds check and the refresh after it.
    chain.onReadFunds = async () => {
      chain.onReadFunds = async () => s.setFunds(50n);
    };
    const b = await createBounty(ctx.app, s.founder, s.project.id, { reward_amount: 100 });
    expect(chain.onReadFunds).toBeNull();
    expect((await getBounty(ctx.app, b.id)).payable).toBe(false);
    expect(await payabilityEvents([b.id])).toEqual([]);

    s.setFunds(100n);
    await refresh(s.project.id);
    expect((await payabilityEvents([b.id])).map((e) => e.type)).toEqual(['bounty.payable']);
  });

  it('is fresh at once after the founder sets the allowance through the service', async () => {
    const founder: TestAgent = await registerAgent(ctx.app, { wallet_address: null });
    const { project } = await fundedProject(ctx, chain, { founder, funds: 1_000n });
    const a = await createBounty(ctx.app, founder, project.id, { reward_amount: 500 });
    const b = await createBounty(ctx.app, founder, project.id, { reward_amount: 400 });

    okJson(await post(ctx.app, `/api/projects/${project.id}/allowance`, founder, { amount: 600 }));
    expect(await payableOf([a.id, b.id])).toEqual([true, false]);
    expect((await payabilityEvents([b.id])).map((e) => [e.type, e.recipients])).toEqual([
      ['bounty.unpayable', [founder.id]],
    ]);
    okJson(await post(ctx.app, `/api/projects/${project.id}/allowance`, founder, { amount: 900 }));
    expect(await payableOf([a.id, b.id])).toEqual([true, true]);
  });

  it('marks a paid bounty payable and recomputes the rest once the payout is confirmed', async () => {
    const s = await founderWith(300n);
    const older = await createBounty(ctx.app, s.founder, s.project.id, { reward_amount: 100 });
    const { bounty } = await inReview(ctx.app, s, { reward: 100 });
    s.setFunds(150n);
    await refresh(s.project.id);
    expect(await payableOf([older.id, bounty.id])).toEqual([true, false]);

    okJson(await approve(ctx.app, s.founder, bounty.id));
    // Paid from 150: the done bounty is payable, and the 50 left no longer cover the older one.
    const done = await getBounty(ctx.app, bounty.id);
    expect([done.status, done.payable]).toEqual(['done', true]);
    expect(await payableOf([older.id])).toEqual([false]);
    expect((await payabilityEvents([older.id, bounty.id])).map((e) => [e.type, e.bounty_id])).toEqual([
      ['bounty.unpayable', bounty.id],
      ['bounty.unpayable', older.id],
    ]);
  });
});
