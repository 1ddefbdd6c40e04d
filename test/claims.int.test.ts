import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createBounty,
  expectAuthRequired,
  expectError,
  registerAgent,
  type TestAgent,
} from './helpers/app.ts';
import {
  type ActiveProject,
  activeClaims,
  activeProject,
  activity,
  approve,
  type BountyBody,
  claim,
  getBounty,
  ISO_MS,
  listOk,
  ok,
  reject,
  submit,
  UnitsChain,
  unclaim,
} from './helpers/bounty-flows.ts';
import { appForFile } from './helpers/builders.ts';

const HOUR = 3_600_000;
const TTL_HOURS = 1;
const UNKNOWN_BOUNTY = `bnt_${'0'.repeat(32)}`;

const chain = new UnitsChain();
let pr = 0;

const ctx = appForFile({ chain, env: { CLAIM_TTL_HOURS: String(TTL_HOURS) } });

const bountyOf = async (id: string) =>
  ok<{ bounty: BountyBody & { submissions: unknown[]; payment_owed: boolean } }>(await getBounty(ctx.app, id))
    .bounty;
const claimOk = async (agent: TestAgent, id: string) =>
  ok<{ bounty: BountyBody; warnings?: string[] }>(await claim(ctx.app, agent, id));
const eventsFor = async (type: string, bountyId: string) =>
  (await activity(ctx.app, { type })).filter((e) => e.bounty_id === bountyId);

describe('POST /api/bounties/{id}/claim', () => {
  let p: ActiveProject;
  beforeAll(async () => {
    p = await activeProject(ctx, chain);
  });

  it('moves an open bounty to claimed and names the claimant', async () => {
    const b = await createBounty(ctx.app, p.founder, p.project.id, { title: 'Claim me', reward_amount: 40 });
    const before = await bountyOf(b.id);
    const dev = await registerAgent(ctx.app);
    const at = ctx.clock.tick();
    const body = ok<Record<string, unknown>>(await claim(ctx.app, dev, b.id));
    // A wallet holder gets no warnings key at all.
    expect(Object.keys(body)).toEqual(['bounty']);
    const claimed = body.bounty as BountyBody;
    const { submissions: _s, ...rest } = before;
    expect(claimed).toEqual({
      ...rest,
      status: 'claimed',
      claimed_by: dev.id,
      claimed_at: at.toISOString(),
      updated_at: at.toISOString(),
    });
    expect(claimed.claimed_at).toMatch(ISO_MS);

    expect(await bountyOf(b.id)).toMatchObject({
      status: 'claimed',
      claimed_by: dev.id,
      claimed_at: at.toISOString(),
    });
    expect(await activeClaims(ctx.app, dev)).toEqual([
      {
        bounty_id: b.id,
        project_id: p.project.id,
        title: 'Claim me',
        status: 'claimed',
        claimed_at: at.toISOString(),
      },
    ]);
    const events = await eventsFor('bounty.claimed', b.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ agent_id: dev.id, project_id: p.project.id, bounty_id: b.id });
  });

  it('adds a warnings array for an agent without a wallet', async () => {
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    const walletless = await registerAgent(ctx.app, { wallet_address: null });
    expect(walletless.walletAddress).toBeNull();
    const body = await claimOk(walletless, b.id);
    expect(body.bounty).toMatchObject({ id: b.id, status: 'claimed', claimed_by: walletless.id });
    expect(Array.isArray(body.warnings)).toBe(true);
    expect(body.warnings?.length).toBeGreaterThan(0);
    for (const w of body.warnings ?? []) {
      expect(typeof w).toBe('string');
      expect(w.length).toBeGreaterThan(0);
    }
  });

  it('refuses the founder of the project with 403 and leaves the bounty open', async () => {
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    expectError(await claim(ctx.app, p.founder, b.id), 403, 'forbidden');
    expect(await bountyOf(b.id)).toMatchObject({ status: 'open', claimed_by: null, claimed_at: null });
    expect(await eventsFor('bounty.claimed', b.id)).toEqual([]);
  });

  it('lets a founder claim bounties of projects they do not found', async () => {
    const other = await activeProject(ctx, chain);
    const b = await createBounty(ctx.app, other.founder, other.project.id);
    expect((await claimOk(p.founder, b.id)).bounty.claimed_by).toBe(p.founder.id);
  });

  it('answers 409 invalid_state when the bounty is not open', async () => {
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    const dev = await registerAgent(ctx.app);
    const rival = await registerAgent(ctx.app);
    const claimedAt = (await claimOk(dev, b.id)).bounty.claimed_at;
    // Claimed: by someone else, and again by the claimant, who is told it already holds it.
    expect(expectError(await claim(ctx.app, rival, b.id), 409, 'invalid_state').message).toBe(
      'This bounty is not open for claiming.',
    );
    expect(expectError(await claim(ctx.app, dev, b.id), 409, 'invalid_state').message).toBe(
      `You already hold this claim (claimed at ${claimedAt}); submit your pull request or unclaim.`,
    );
    expect(await bountyOf(b.id)).toMatchObject({ status: 'claimed', claimed_by: dev.id });
    // In review.
    ok(await submit(ctx.app, dev, b.id, p.repoUrl, ++pr), 201);
    expectError(await claim(ctx.app, rival, b.id), 409, 'invalid_state');
    expect(expectError(await claim(ctx.app, dev, b.id), 409, 'invalid_state').message).toBe(
      `You already hold this claim (claimed at ${claimedAt}) and your submission is in review; wait for the founder's decision.`,
    );
    // Done.
    ok(await approve(ctx.app, p.founder, b.id));
    expectError(await claim(ctx.app, rival, b.id), 409, 'invalid_state');
    expect(await bountyOf(b.id)).toMatchObject({ status: 'done', claimed_by: dev.id });
    expect(await eventsFor('bounty.claimed', b.id)).toHaveLength(1);
  });

  it('tells a claimant sent back for changes that it holds the claim, and until when', async () => {
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    const dev = await registerAgent(ctx.app);
    const claimedAt = (await claimOk(dev, b.id)).bounty.claimed_at;
    ok(await submit(ctx.app, dev, b.id, p.repoUrl, ++pr), 201);
    const sentBack = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${b.id}/request-changes`,
      headers: p.founder.headers,
      payload: { review_notes: 'Add a test.' },
    });
    const due = ok<{ revision_due_at: string }>(sentBack).revision_due_at;
    expect(expectError(await claim(ctx.app, dev, b.id), 409, 'invalid_state').message).toBe(
      `You already hold this claim (claimed at ${claimedAt}); the founder requested changes: ` +
        `submit your pull request again before ${due}, or unclaim.`,
    );
  });

  it('answers 404 not_found for unknown and malformed bounty ids', async () => {
    const dev = await registerAgent(ctx.app);
    for (const id of [UNKNOWN_BOUNTY, 'nope', p.project.id, 'x'.repeat(300)]) {
      expectError(await claim(ctx.app, dev, id), 404, 'not_found');
    }
  });

  it('needs a valid API key', async () => {
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    await expectAuthRequired(ctx.app, 'POST', `/api/bounties/${b.id}/claim`);
    expect((await bountyOf(b.id)).status).toBe('open');
  });

  describe('one active claim per agent per project', () => {
    it('answers 409 claim_limit for a second claim on the same project', async () => {
      const dev = await registerAgent(ctx.app);
      const first = await createBounty(ctx.app, p.founder, p.project.id);
      const second = await createBounty(ctx.app, p.founder, p.project.id);
      await claimOk(dev, first.id);
      expectError(await claim(ctx.app, dev, second.id), 409, 'claim_limit');
      expect(await bountyOf(second.id)).toMatchObject({ status: 'open', claimed_by: null });
      expect((await activeClaims(ctx.app, dev)).map((c) => c.bounty_id)).toEqual([first.id]);
    });

    it('allows a claim on another project at the same time', async () => {
      const dev = await registerAgent(ctx.app);
      const q = await activeProject(ctx, chain);
      const onP = await createBounty(ctx.app, p.founder, p.project.id);
      const onQ = await createBounty(ctx.app, q.founder, q.project.id);
      await claimOk(dev, onP.id);
      await claimOk(dev, onQ.id);
      expect((await activeClaims(ctx.app, dev)).map((c) => c.bounty_id).sort()).toEqual(
        [onP.id, onQ.id].sort(),
      );
    });

    it('allows the next claim after an unclaim', async () => {
      const dev = await registerAgent(ctx.app);
      const first = await createBounty(ctx.app, p.founder, p.project.id);
      const second = await createBounty(ctx.app, p.founder, p.project.id);
      await claimOk(dev, first.id);
      expectError(await claim(ctx.app, dev, second.id), 409, 'claim_limit');
      ok(await unclaim(ctx.app, dev, first.id));
      expect((await claimOk(dev, second.id)).bounty.status).toBe('claimed');
    });

    it('counts a bounty in review as active, a rejected or done one not', async () => {
      const dev = await registerAgent(ctx.app);
      const [a, b, c] = [
        await createBounty(ctx.app, p.founder, p.project.id),
        await createBounty(ctx.app, p.founder, p.project.id),
        await createBounty(ctx.app, p.founder, p.project.id),
      ] as [{ id: string }, { id: string }, { id: string }];
      await claimOk(dev, a.id);
      ok(await submit(ctx.app, dev, a.id, p.repoUrl, ++pr), 201);
      expectError(await claim(ctx.app, dev, b.id), 409, 'claim_limit');
      ok(await reject(ctx.app, p.founder, a.id));
      await claimOk(dev, b.id);
      ok(await submit(ctx.app, dev, b.id, p.repoUrl, ++pr), 201);
      ok(await approve(ctx.app, p.founder, b.id));
      await claimOk(dev, c.id);
      expect((await activeClaims(ctx.app, dev)).map((x) => x.bounty_id)).toEqual([c.id]);
    });

    it('holds under concurrent claims by one agent on one project', async () => {
      const q = await activeProject(ctx, chain);
      const dev = await registerAgent(ctx.app);
      const bounties = [];
      for (let i = 0; i < 5; i++) bounties.push(await createBounty(ctx.app, q.founder, q.project.id));
      const results = await Promise.all(bounties.map((b) => claim(ctx.app, dev, b.id)));
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409]);
      for (const r of results.filter((x) => x.statusCode === 409))
        expect(r.json().error.code).toBe('claim_limit');
      expect(await activeClaims(ctx.app, dev)).toHaveLength(1);
      expect((await listOk(ctx.app, { project_id: q.project.id, status: 'claimed' })).total).toBe(1);
      expect((await listOk(ctx.app, { project_id: q.project.id, status: 'open' })).total).toBe(4);
    });
  });

  it('gives one bounty to exactly one of 20 agents claiming at once', async () => {
    const q = await activeProject(ctx, chain);
    const b = await createBounty(ctx.app, q.founder, q.project.id);
    const agents: TestAgent[] = [];
    for (let i = 0; i < 20; i++) agents.push(await registerAgent(ctx.app));
    const results = await Promise.all(agents.map((a) => claim(ctx.app, a, b.id)));
    const won = results.filter((r) => r.statusCode === 200);
    const lost = results.filter((r) => r.statusCode === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    for (const r of lost) expect(r.json().error.code).toBe('invalid_state');
    const winner = agents[results.findIndex((r) => r.statusCode === 200)] as TestAgent;
    expect(won[0]?.json().bounty.claimed_by).toBe(winner.id);
    expect(await bountyOf(b.id)).toMatchObject({ status: 'claimed', claimed_by: winner.id });
    expect(await eventsFor('bounty.claimed', b.id)).toHaveLength(1);
    expect((await listOk(ctx.app, { project_id: q.project.id, status: 'claimed' })).total).toBe(1);
    expect((await listOk(ctx.app, { project_id: q.project.id, status: 'open' })).total).toBe(0);
  });
});

describe('POST /api/bounties/{id}/unclaim', () => {
  let p: ActiveProject;
  beforeAll(async () => {
    p = await activeProject(ctx, chain);
  });

  it('gives the bounty back to open for the claimant', async () => {
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    const dev = await registerAgent(ctx.app);
    await claimOk(dev, b.id);
    const at = ctx.clock.tick();
    const body = ok<Record<string, unknown>>(await unclaim(ctx.app, dev, b.id));
    expect(Object.keys(body)).toEqual(['bounty']);
    expect(body.bounty).toMatchObject({
      id: b.id,
      status: 'open',
      claimed_by: null,
      claimed_at: null,
      updated_at: at.toISOString(),
    });
    expect(await bountyOf(b.id)).toMatchObject({ status: 'open', claimed_by: null, claimed_at: null });
    expect(await activeClaims(ctx.app, dev)).toEqual([]);
    const events = await eventsFor('bounty.unclaimed', b.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ agent_id: dev.id, project_id: p.project.id });
    // Open for anyone again, the former claimant included.
    const next = await registerAgent(ctx.app);
    expect((await claimOk(next, b.id)).bounty.claimed_by).toBe(next.id);
  });

  it('refuses everyone but the claimant with 403', async () => {
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    const dev = await registerAgent(ctx.app);
    const other = await registerAgent(ctx.app);
    await claimOk(dev, b.id);
    expectError(await unclaim(ctx.app, other, b.id), 403, 'forbidden');
    expectError(await unclaim(ctx.app, p.founder, b.id), 403, 'forbidden');
    expect(await bountyOf(b.id)).toMatchObject({ status: 'claimed', claimed_by: dev.id });
    expect(await eventsFor('bounty.unclaimed', b.id)).toEqual([]);
  });

  it('answers 409 invalid_state when the bounty is not claimed', async () => {
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    const dev = await registerAgent(ctx.app);
    // Open: nobody holds it.
    expectError(await unclaim(ctx.app, dev, b.id), 409, 'invalid_state');
    await claimOk(dev, b.id);
    ok(await submit(ctx.app, dev, b.id, p.repoUrl, ++pr), 201);
    expectError(await unclaim(ctx.app, dev, b.id), 409, 'invalid_state');
    expect(await bountyOf(b.id)).toMatchObject({ status: 'in_review', claimed_by: dev.id });
    ok(await approve(ctx.app, p.founder, b.id));
    expectError(await unclaim(ctx.app, dev, b.id), 409, 'invalid_state');
    expect(await bountyOf(b.id)).toMatchObject({ status: 'done' });
    expect(await eventsFor('bounty.unclaimed', b.id)).toEqual([]);
  });

  it('answers 404 not_found for unknown and malformed bounty ids', async () => {
    const dev = await registerAgent(ctx.app);
    for (const id of [UNKNOWN_BOUNTY, 'nope']) expectError(await unclaim(ctx.app, dev, id), 404, 'not_found');
  });

  it('needs a valid API key', async () => {
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    const dev = await registerAgent(ctx.app);
    await claimOk(dev, b.id);
    await expectAuthRequired(ctx.app, 'POST', `/api/bounties/${b.id}/unclaim`);
    expect((await bountyOf(b.id)).status).toBe('claimed');
  });
});

describe('claim expiry', () => {
  let p: ActiveProject;
  const sweep = () => ctx.app.services.bounties.expireClaims();

  beforeAll(async () => {
    p = await activeProject(ctx, chain);
  });
  // Claims left by earlier tests lapse as the clock moves; sweep them so counts here are exact.
  beforeEach(async () => {
    ctx.clock.advance(2 * TTL_HOURS * HOUR);
    await sweep();
  });

  it('reopens a claim after CLAIM_TTL_HOURS and records bounty.claim_expired', async () => {
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    const dev = await registerAgent(ctx.app);
    const claimedAt = (await claimOk(dev, b.id)).bounty.claimed_at as string;

    ctx.clock.advance(TTL_HOURS * HOUR - 1);
    expect(await sweep()).toBe(0);
    expect(await bountyOf(b.id)).toMatchObject({ status: 'claimed', claimed_by: dev.id });
    expect(await activeClaims(ctx.app, dev)).toHaveLength(1);

    ctx.clock.advance(2);
    const now = ctx.clock.now().toISOString();
    expect(await sweep()).toBe(1);
    expect(await bountyOf(b.id)).toMatchObject({
      status: 'open',
      claimed_by: null,
      claimed_at: null,
      updated_at: now,
    });
    expect(await activeClaims(ctx.app, dev)).toEqual([]);
    const events = await eventsFor('bounty.claim_expired', b.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'bounty.claim_expired',
      agent_id: dev.id,
      project_id: p.project.id,
      bounty_id: b.id,
      data: { claimed_at: claimedAt },
      created_at: now,
    });
    expect((await listOk(ctx.app, { project_id: p.project.id, status: 'claimed' })).total).toBe(0);

    // A second sweep finds nothing more, and the bounty can be claimed again: by anyone at once,
    // by its lapsed claimant after RECLAIM_COOLDOWN_HOURS (test/claim-limits.int.test.ts).
    expect(await sweep()).toBe(0);
    expect(await eventsFor('bounty.claim_expired', b.id)).toHaveLength(1);
    expectError(await claim(ctx.app, dev, b.id), 409, 'reclaim_cooldown');
    await claimOk(await registerAgent(ctx.app), b.id);
  });

  it('never lapses a claim with a submission', async () => {
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    const dev = await registerAgent(ctx.app);
    await claimOk(dev, b.id);
    ok(await submit(ctx.app, dev, b.id, p.repoUrl, ++pr), 201);
    ctx.clock.advance(10 * TTL_HOURS * HOUR);
    expect(await sweep()).toBe(0);
    expect(await bountyOf(b.id)).toMatchObject({ status: 'in_review', claimed_by: dev.id });
    expect((await activeClaims(ctx.app, dev)).map((c) => [c.bounty_id, c.status])).toEqual([
      [b.id, 'in_review'],
    ]);
    expect(await eventsFor('bounty.claim_expired', b.id)).toEqual([]);
  });

  it('lets another agent claim a lapsed bounty before any sweep', async () => {
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    const first = await registerAgent(ctx.app);
    const second = await registerAgent(ctx.app);
    await claimOk(first, b.id);
    ctx.clock.advance(TTL_HOURS * HOUR - 60_000);
    expectError(await claim(ctx.app, second, b.id), 409, 'invalid_state');
    ctx.clock.advance(120_000);
    const body = await claimOk(second, b.id);
    expect(body.bounty).toMatchObject({
      status: 'claimed',
      claimed_by: second.id,
      claimed_at: ctx.clock.now().toISOString(),
    });
    const expired = await eventsFor('bounty.claim_expired', b.id);
    expect(expired).toHaveLength(1);
    expect(expired[0]?.agent_id).toBe(first.id);
    expect(await activeClaims(ctx.app, first)).toEqual([]);
    expect((await activeClaims(ctx.app, second)).map((c) => c.bounty_id)).toEqual([b.id]);
    // The sweep does not expire it a second time, nor the fresh claim.
    expect(await sweep()).toBe(0);
    expect(await eventsFor('bounty.claim_expired', b.id)).toHaveLength(1);
  });

  it("does not count the claimant's own lapsed claim toward the limit", async () => {
    const a = await createBounty(ctx.app, p.founder, p.project.id);
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    const dev = await registerAgent(ctx.app);
    await claimOk(dev, a.id);
    ctx.clock.advance((TTL_HOURS * HOUR) / 2);
    expectError(await claim(ctx.app, dev, b.id), 409, 'claim_limit');
    ctx.clock.advance(TTL_HOURS * HOUR);
    await claimOk(dev, b.id);
    expect(await bountyOf(a.id)).toMatchObject({ status: 'open', claimed_by: null });
    expect(await eventsFor('bounty.claim_expired', a.id)).toHaveLength(1);
    expect((await activeClaims(ctx.app, dev)).map((c) => c.bounty_id)).toEqual([b.id]);
  });

  it('expires each claim exactly once when two instances sweep at the same time', async () => {
    const second = await buildTestApp({
      chain,
      database: ctx.database,
      clock: ctx.clock,
      env: { CLAIM_TTL_HOURS: String(TTL_HOURS) },
    });
    try {
      const projects = [p, await activeProject(ctx, chain)];
      const agents: TestAgent[] = [];
      for (let i = 0; i < 12; i++) agents.push(await registerAgent(ctx.app));
      for (let round = 0; round < 2; round++) {
        const ids: string[] = [];
        for (const q of projects) {
          for (const agent of agents) {
            const b = await createBounty(ctx.app, q.founder, q.project.id);
            await claimOk(agent, b.id);
            ids.push(b.id);
          }
        }
        ctx.clock.advance(TTL_HOURS * HOUR + 1);
        const one = ctx.app.services.bounties;
        const two = second.app.services.bounties;
        const counts = await Promise.all([
          one.expireClaims(),
          two.expireClaims(),
          one.expireClaims(),
          two.expireClaims(),
        ]);
        expect(counts.reduce((s, n) => s + n, 0)).toBe(ids.length);
        const events = (await activity(ctx.app, { type: 'bounty.claim_expired' })).filter((e) =>
          ids.includes(e.bounty_id as string),
        );
        expect(events).toHaveLength(ids.length);
        expect(new Set(events.map((e) => e.bounty_id)).size).toBe(ids.length);
        for (const id of ids) expect((await bountyOf(id)).status).toBe('open');
        for (const q of projects) {
          expect((await listOk(ctx.app, { project_id: q.project.id, status: 'claimed' })).total).toBe(0);
        }
        for (const agent of agents) expect(await activeClaims(ctx.app, agent)).toEqual([]);
      }
    } finally {
      await second.close();
    }
  });

  it('expires each claim once when a sweep races new claims on the lapsed bounties', async () => {
    const second = await buildTestApp({
      chain,
      database: ctx.database,
      clock: ctx.clock,
      env: { CLAIM_TTL_HOURS: String(TTL_HOURS) },
    });
    try {
      const q = await activeProject(ctx, chain);
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const b = await createBounty(ctx.app, q.founder, q.project.id);
        await claimOk(await registerAgent(ctx.app), b.id);
        ids.push(b.id);
      }
      const newcomers: TestAgent[] = [];
      for (let i = 0; i < 10; i++) newcomers.push(await registerAgent(ctx.app));
      ctx.clock.advance(TTL_HOURS * HOUR + 1);
      const [claims, swept] = await Promise.all([
        Promise.all(ids.map((id, i) => claim(ctx.app, newcomers[i] as TestAgent, id))),
        second.app.services.bounties.expireClaims(),
      ]);
      for (const r of claims) expect(r.statusCode, r.body).toBe(200);
      expect(swept).toBeLessThanOrEqual(ids.length);
      for (const [i, id] of ids.entries()) {
        expect(await bountyOf(id)).toMatchObject({
          status: 'claimed',
          claimed_by: (newcomers[i] as TestAgent).id,
        });
        expect(await eventsFor('bounty.claim_expired', id)).toHaveLength(1);
      }
    } finally {
      await second.close();
    }
  });
});
