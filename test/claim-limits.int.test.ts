import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/infra/config.ts';
import { createBounty, expectError, registerAgent, type TestAgent } from './helpers/app.ts';
import {
  activeClaims,
  activeProject,
  claim,
  getBounty,
  listOk,
  ok,
  unclaim,
} from './helpers/bounty-flows.ts';
import { appForFile } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { approve, inReview, scene } from './helpers/review-flow.ts';
import { browserless, errorsOf } from './helpers/web-forms.ts';
import { webhookKit } from './helpers/webhook-flows.ts';

/**
 * Claims closed to abuse (contract, "Closed to abuse"): an agent that gave a bounty back, or whose
 * claim or revision deadline lapsed, may not claim that bounty again for RECLAIM_COOLDOWN_HOURS
 * (default 24), and an agent with no approved submission holds at most NEW_AGENT_MAX_CLAIMS
 * (default 3) active claims in all projects, concurrent claims included.
 */

const HOUR = 3_600_000;
const COOLDOWN = 24 * HOUR;
const CLAIM_TTL = 72 * HOUR;
const REVISION = 72 * HOUR;

const chain = new FakeChain();
const host = new FakeRepoHost();
const ctx = appForFile({ chain, repoHost: host });

/** An open bounty on a fresh active project (a fresh founder), so claims on them never share a project. */
async function openBounty(title = 'Some work') {
  const p = await activeProject(ctx, chain);
  const bounty = await createBounty(ctx.app, p.founder, p.project.id, { title, reward_amount: 10 });
  return { ...p, bounty };
}

const DIFFICULTIES = ['easy', 'medium', 'hard', 'extreme'] as const;
const plus = (d: Date, ms: number) => new Date(d.getTime() + ms).toISOString();

function expectCooldown(res: Parameters<typeof expectError>[0], until: string) {
  expectError(res, 409, 'reclaim_cooldown');
  expect(res.json().error.message).toContain(`you may claim it again from ${until}`);
}

describe('configuration', () => {
  it('defaults to a 24 h cooldown and 3 claims, and refuses a limit below 1', () => {
    expect(ctx.config).toMatchObject({ reclaimCooldownHours: 24, newAgentMaxClaims: 3 });
    const c = loadConfig({ RECLAIM_COOLDOWN_HOURS: '0', NEW_AGENT_MAX_CLAIMS: '7' });
    expect(c).toMatchObject({ reclaimCooldownHours: 0, newAgentMaxClaims: 7 });
    expect(() => loadConfig({ NEW_AGENT_MAX_CLAIMS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ RECLAIM_COOLDOWN_HOURS: '-1' })).toThrow(ConfigError);
  });
});

describe('the reclaim cooldown', () => {
  it('refuses the agent that gave a bounty back until RECLAIM_COOLDOWN_HOURS passed; others claim it at once', async () => {
    const { bounty } = await openBounty();
    const dev = await registerAgent(ctx.app);
    const other = await registerAgent(ctx.app);
    ok(await claim(ctx.app, dev, bounty.id));
    const gaveBack = ctx.clock.tick();
    ok(await unclaim(ctx.app, dev, bounty.id));
    const until = plus(gaveBack, COOLDOWN);
    expectCooldown(await claim(ctx.app, dev, bounty.id), until);
    expect((await getBounty(ctx.app, bounty.id)).json().bounty).toMatchObject({
      status: 'open',
      claimed_by: null,
    });

    // Anyone else may take it meanwhile; giving it back starts that agent's own cooldown only.
    ok(await claim(ctx.app, other, bounty.id));
    ok(await unclaim(ctx.app, other, bounty.id));

    ctx.clock.advance(COOLDOWN - 1);
    expectCooldown(await claim(ctx.app, dev, bounty.id), until);
    expectError(await claim(ctx.app, other, bounty.id), 409, 'reclaim_cooldown');
    ctx.clock.advance(1);
    expect(ok(await claim(ctx.app, dev, bounty.id)).bounty).toMatchObject({
      status: 'claimed',
      claimed_by: dev.id,
    });
  });

  it('refuses the claimant whose claim lapsed, from the lapse itself, whether the claim or the sweep reopened it', async () => {
    const a = await openBounty();
    const b = await openBounty();
    const dev = await registerAgent(ctx.app);
    const dev2 = await registerAgent(ctx.app);
    const claimedA = ctx.clock.tick();
    ok(await claim(ctx.app, dev, a.bounty.id));
    ok(await claim(ctx.app, dev2, b.bounty.id));
    const claimedB = ctx.clock.now();
    // Found 5 h after it lapsed: the cooldown still runs from CLAIM_TTL_HOURS after the claim.
    ctx.clock.advance(CLAIM_TTL + 5 * HOUR);

    // Reopened by the claim itself, which is then refused: the bounty stays open, its lapse recorded.
    const untilA = plus(claimedA, CLAIM_TTL + COOLDOWN);
    expectCooldown(await claim(ctx.app, dev, a.bounty.id), untilA);
    expect((await getBounty(ctx.app, a.bounty.id)).json().bounty).toMatchObject({ status: 'open' });

    // Reopened by the sweep.
    expect(await ctx.app.services.bounties.expireClaims()).toBeGreaterThanOrEqual(1);
    expectCooldown(await claim(ctx.app, dev2, b.bounty.id), plus(claimedB, CLAIM_TTL + COOLDOWN));

    ctx.clock.advance(COOLDOWN - 5 * HOUR);
    ok(await claim(ctx.app, dev, a.bounty.id));
    ok(await claim(ctx.app, dev2, b.bounty.id));
  });

  it('refuses the claimant whose revision deadline lapsed, so the same pull request cannot come straight back', async () => {
    const kit = webhookKit(ctx, chain, host);
    const s = await kit.inReview();
    const asked = ctx.clock.tick();
    ok(
      await ctx.app.inject({
        method: 'POST',
        url: `/api/bounties/${s.bounty.id}/request-changes`,
        headers: s.founder.headers,
        payload: { review_notes: 'Cover the empty case.' },
      }),
    );
    ctx.clock.advance(REVISION + 1);
    await ctx.app.services.bounties.expireClaims();
    const until = plus(asked, REVISION + COOLDOWN);
    expectCooldown(await claim(ctx.app, s.dev, s.bounty.id), until);
    const submitAgain = () =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/bounties/${s.bounty.id}/submit`,
        headers: s.dev.headers,
        payload: { pr_url: s.prUrl },
      });
    expectError(await submitAgain(), 409, 'invalid_state');

    ctx.clock.advance(COOLDOWN - 2);
    expectCooldown(await claim(ctx.app, s.dev, s.bounty.id), until);
    ctx.clock.advance(1);
    ok(await claim(ctx.app, s.dev, s.bounty.id));
    expect(ok(await submitAgain(), 201)).toMatchObject({
      submission: { status: 'pending', pr_url: s.prUrl },
    });
  });

  it('holds against an unclaim racing a claim by the same agent: the claim never wins', async () => {
    const dev = await registerAgent(ctx.app);
    for (let round = 0; round < 5; round++) {
      const { bounty } = await openBounty();
      ok(await claim(ctx.app, dev, bounty.id));
      const [gaveBack, again] = await Promise.all([
        unclaim(ctx.app, dev, bounty.id),
        claim(ctx.app, dev, bounty.id),
      ]);
      expect(gaveBack.statusCode, gaveBack.body).toBe(200);
      expect(again.statusCode, again.body).toBe(409);
      expect(['invalid_state', 'reclaim_cooldown']).toContain(again.json().error.code);
      expect((await getBounty(ctx.app, bounty.id)).json().bounty.status).toBe('open');
    }
  });
});

describe('the claim limit of agents never approved', () => {
  it('holds a farm of 10 new agents to 3 active claims each, 30 in all, across 4 projects', async () => {
    const projects = [];
    for (let j = 0; j < 4; j++) {
      const p = await activeProject(ctx, chain);
      const ids: string[] = [];
      for (let i = 0; i < 10; i++)
        ids.push((await createBounty(ctx.app, p.founder, p.project.id, { reward_amount: 5 })).id);
      projects.push({ id: p.project.id, bounties: ids });
    }
    const farm: TestAgent[] = [];
    for (let i = 0; i < 10; i++) farm.push(await registerAgent(ctx.app));
    for (const [i, agent] of farm.entries()) {
      for (const [j, p] of projects.entries()) {
        const res = await claim(ctx.app, agent, p.bounties[i] as string);
        if (j < 3) ok(res);
        else {
          expectError(res, 409, 'claim_limit');
          expect(res.json().error.message).toContain('at most 3 active claims in all projects');
        }
      }
    }
    let held = 0;
    for (const p of projects) held += (await listOk(ctx.app, { project_id: p.id, status: 'claimed' })).total;
    expect(held).toBe(30);
    for (const agent of farm) expect(await activeClaims(ctx.app, agent)).toHaveLength(3);

    // A claim given back makes room for another, and only one.
    const [first] = farm as [TestAgent];
    ok(await unclaim(ctx.app, first, projects[0]?.bounties[0] as string));
    ok(await claim(ctx.app, first, projects[3]?.bounties[0] as string));
    expectError(await claim(ctx.app, first, (await openBounty()).bounty.id), 409, 'claim_limit');
  });

  it('counts a claim in review', async () => {
    const s = await scene(ctx, chain);
    await inReview(ctx.app, s);
    for (let i = 0; i < 2; i++) ok(await claim(ctx.app, s.dev, (await openBounty()).bounty.id));
    expectError(await claim(ctx.app, s.dev, (await openBounty()).bounty.id), 409, 'claim_limit');
  });

  it('does not hold an agent with an approved submission', async () => {
    const s = await scene(ctx, chain);
    const { bounty } = await inReview(ctx.app, s);
    ok(await approve(ctx.app, s.founder, bounty.id));
    expect((await getBounty(ctx.app, bounty.id)).json().bounty.submissions[0].status).toBe('approved');
    for (let i = 0; i < 5; i++) ok(await claim(ctx.app, s.dev, (await openBounty()).bounty.id));
    expect(await activeClaims(ctx.app, s.dev)).toHaveLength(5);
  });

  it('holds under concurrent claims: 6 agents claiming 8 bounties each, all at once, win exactly 3 each', async () => {
    const projects: { founder: TestAgent; id: string }[] = [];
    for (let j = 0; j < 8; j++) {
      const p = await activeProject(ctx, chain);
      projects.push({ founder: p.founder, id: p.project.id });
    }
    const agents: { agent: TestAgent; bounties: string[] }[] = [];
    for (let i = 0; i < 6; i++) {
      const bounties: string[] = [];
      // Claims of one difficulty wait on each other at the bounty_counts trigger's shared rows;
      // four difficulties let four claims of one agent run truly at once.
      for (const [j, p] of projects.entries()) {
        const difficulty = DIFFICULTIES[j % DIFFICULTIES.length];
        bounties.push((await createBounty(ctx.app, p.founder, p.id, { reward_amount: 5, difficulty })).id);
      }
      agents.push({ agent: await registerAgent(ctx.app), bounties });
    }
    const answers = await Promise.all(
      agents.flatMap(({ agent, bounties }) => bounties.map((id) => claim(ctx.app, agent, id))),
    );
    for (const r of answers.filter((x) => x.statusCode !== 200)) expectError(r, 409, 'claim_limit');
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(18);
    for (const { agent } of agents) expect(await activeClaims(ctx.app, agent)).toHaveLength(3);
  });
});

describe('the web bounty page', () => {
  it('tells the agent giving a bounty back when it may claim it again, and shows the refusal in its notice', async () => {
    const web = browserless(ctx.app);
    const { bounty } = await openBounty('Tidy the parser');
    const dev = await registerAgent(ctx.app);
    const session = await web.signIn(dev.apiKey);
    const url = `/bounties/${bounty.id}`;
    expect((await web.post(session, `${url}/claim`, {})).statusCode).toBe(303);
    const gaveBack = await web.post(session, `${url}/unclaim`, {});
    expect(gaveBack.statusCode).toBe(303);
    const notice = gaveBack.cookies.find((c) => c.name === 'bm_notice')?.value ?? '';
    const page = await web.get(session, url, `bm_notice=${encodeURIComponent(notice)}`);
    expect(page.body).toContain(
      'You gave “Tidy the parser” back; it is open again. You may claim it again in 24 hours.',
    );

    const refused = await web.post(session, `${url}/claim`, {});
    expect(refused.statusCode).toBe(409);
    expect(errorsOf(refused.body).join(' ')).toMatch(/you may claim it again from \d{4}-\d{2}-\d{2}T/);
    expect(refused.body).toContain('id="claim-error"');
  });
});
