import { and, asc, desc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { activityEvents, bounties } from '../src/infra/db/schema.ts';
import { createBounty, registerAgent, type TestAgent } from './helpers/app.ts';
import { activeProject, activity, claim, ok, UnitsChain, unclaim } from './helpers/bounty-flows.ts';
import { appForFile, listening } from './helpers/builders.ts';
import { SseClient } from './helpers/sse.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;

// The warning comes when min(a third of the claim's time, 24 h) remains.
describe.each([
  { ttlHours: 3, leadHours: 1 },
  { ttlHours: 120, leadHours: 24 },
])('claim.expiring with CLAIM_TTL_HOURS=$ttlHours', ({ ttlHours, leadHours }) => {
  const chain = new UnitsChain();
  const clients: SseClient[] = [];

  const ctx = appForFile({ chain, env: { CLAIM_TTL_HOURS: String(ttlHours) } });
  const base = listening(ctx);
  afterAll(async () => {
    for (const c of clients) c.close();
  });

  const stream = async (agent: TestAgent | null) => {
    const c = await SseClient.open(base(), '/api/events?types=claim.expiring', agent ? agent.headers : {});
    clients.push(c);
    return c;
  };
  const sweep = () => ctx.app.services.bounties.expireClaims();
  const warnings = (bountyId: string) =>
    ctx.database.db
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.type, 'claim.expiring'), eq(activityEvents.bountyId, bountyId)))
      .orderBy(asc(activityEvents.id));
  const warnedAt = async (bountyId: string) =>
    (await ctx.database.db.select().from(bounties).where(eq(bounties.id, bountyId)))[0]?.claimWarnedAt;

  it('warns the claimant once, only them, and warns a new claim again', async () => {
    const p = await activeProject(ctx, chain);
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    const dev = await registerAgent(ctx.app);
    const other = await registerAgent(ctx.app);
    const [devStream, otherStream, anon] = [await stream(dev), await stream(other), await stream(null)];

    ok(await claim(ctx.app, dev, b.id));
    const claimedAt = ctx.clock.now();
    ctx.clock.advance((ttlHours - leadHours) * HOUR - MINUTE);
    await sweep();
    expect(await warnings(b.id)).toEqual([]);

    ctx.clock.advance(MINUTE);
    const warnedNow = ctx.clock.now();
    await sweep();
    await sweep(); // once: a second sweep (or another instance's) finds it warned
    const [warning, ...more] = await warnings(b.id);
    expect(more).toEqual([]);
    expect(warning).toMatchObject({
      agentId: dev.id,
      projectId: p.project.id,
      recipients: [dev.id],
      data: {
        claimed_at: claimedAt.toISOString(),
        expires_at: new Date(claimedAt.getTime() + ttlHours * HOUR).toISOString(),
      },
    });
    expect(await warnedAt(b.id)).toEqual(warnedNow);
    const received = await devStream.waitForId(warning?.id as string);
    expect(received.data).toMatchObject({ type: 'claim.expiring', bounty_id: b.id, agent_id: dev.id });
    // Personal: not in the public feed.
    expect((await activity(ctx.app, { type: 'bounty.claimed' })).length).toBeGreaterThan(0);
    expect((await activity(ctx.app)).map((e) => e.id)).not.toContain(warning?.id);

    // The claim lapses: expired, and the mark is cleared with it.
    ctx.clock.advance(leadHours * HOUR + 1); // a claim lapses once strictly older than its time
    expect(await sweep()).toBe(1);
    expect(await warnedAt(b.id)).toBeNull();

    // A new claim is warned of its own expiry (its lapsed claimant may claim again once
    // RECLAIM_COOLDOWN_HOURS, 24, passed).
    ctx.clock.advance(24 * HOUR);
    ok(await claim(ctx.app, dev, b.id));
    ctx.clock.advance((ttlHours - leadHours) * HOUR);
    await sweep();
    expect(await warnings(b.id)).toHaveLength(2);

    // Unclaim clears the mark too; claiming again is warned again.
    ok(await unclaim(ctx.app, dev, b.id));
    expect(await warnedAt(b.id)).toBeNull();
    ctx.clock.advance(24 * HOUR);
    ok(await claim(ctx.app, dev, b.id));
    ctx.clock.advance((ttlHours - leadHours) * HOUR);
    await sweep();
    const all = await warnings(b.id);
    expect(all).toHaveLength(3);
    await devStream.waitForId(all[2]?.id as string);
    expect(devStream.ids).toEqual(all.map((w) => w.id));

    // The others' streams never saw them: their next message is one of their own.
    await ctx.database.db.transaction((tx) =>
      ctx.app.services.activity.record(tx, { type: 'claim.expiring', recipients: [other.id] }),
    );
    const [own] = await ctx.database.db
      .select({ id: activityEvents.id })
      .from(activityEvents)
      .where(eq(activityEvents.type, 'claim.expiring'))
      .orderBy(desc(activityEvents.id))
      .limit(1);
    // One bus batch reaches every stream of the instance in the same tick.
    await otherStream.waitForId(own?.id as string);
    expect(otherStream.ids).toEqual([own?.id]);
    expect(anon.ids).toEqual([]);
  });

  it('does not warn a claim that has already lapsed; it expires instead', async () => {
    const p = await activeProject(ctx, chain);
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    const dev = await registerAgent(ctx.app);
    ok(await claim(ctx.app, dev, b.id));
    ctx.clock.advance(ttlHours * HOUR + MINUTE);
    await sweep();
    expect((await ctx.database.db.select().from(bounties).where(eq(bounties.id, b.id)))[0]?.status).toBe(
      'open',
    );
    expect(await warnings(b.id)).toEqual([]);
  });
});
