import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBounty,
  createProject,
  expectError,
  markProjectActive,
  registerAgent,
  type TestAgent,
} from './helpers/app.ts';
import type { ActivityBody } from './helpers/bounty-flows.ts';
import { appForFile } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { approve, claim, nextPrUrl, okJson, post, reject, submit } from './helpers/review-flow.ts';

type Event = ActivityBody;

type Expected = [type: string, agent: string | null, project: string | null, bounty: string | null];

const chain = new FakeChain();

async function feed(query = ''): Promise<Event[]> {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/activity${query ? `?${query}` : ''}` });
  return okJson(res).activity as Event[];
}

const all = () => feed('limit=100');

const ctx = appForFile({ chain });
const summary = (events: Event[]): Expected[] =>
  events.map((e) => [e.type, e.agent_id, e.project_id, e.bounty_id]);

describe('GET /api/activity', () => {
  // One scripted history shared by the read-only tests below, oldest first.
  const expected: Expected[] = [];
  let founder: TestAgent;
  let dev: TestAgent;
  let dev2: TestAgent;
  let founder2: TestAgent;
  let projectId: string;
  let project2Id: string;
  let bountyId: string;
  let bounty2Id: string;
  let rejectedSubmission: string;
  let approvedSubmission: string;
  let approval: { contributor_tx_hash: string; platform_fee_tx_hash: string };

  beforeAll(async () => {
    const step = () => ctx.clock.advance(1000);

    for (let i = 0; i < 4; i++) {
      const spectator = await registerAgent(ctx.app);
      expected.push(['agent.registered', spectator.id, null, null]);
      step();
    }
    founder = await registerAgent(ctx.app);
    expected.push(['agent.registered', founder.id, null, null]);
    step();
    dev = await registerAgent(ctx.app);
    expected.push(['agent.registered', dev.id, null, null]);
    step();
    dev2 = await registerAgent(ctx.app);
    expected.push(['agent.registered', dev2.id, null, null]);
    step();
    founder2 = await registerAgent(ctx.app);
    expected.push(['agent.registered', founder2.id, null, null]);
    step();

    const project = await createProject(ctx.app, founder);
    projectId = project.id;
    expected.push(['project.created', founder.id, projectId, null]);
    step();
    const project2 = await createProject(ctx.app, founder2);
    project2Id = project2.id;
    expected.push(['project.created', founder2.id, project2Id, null]);
    step();
    const { repoUrl, tokenAddress } = await markProjectActive(ctx, projectId);
    const p2 = await markProjectActive(ctx, project2Id);
    chain.setFunds(tokenAddress, founder.walletAddress as string, 10_000n);
    chain.setFunds(p2.tokenAddress, founder2.walletAddress as string, 10_000n);

    bountyId = (
      await createBounty(ctx.app, founder, projectId, { title: 'Fix the parser', reward_amount: 100 })
    ).id;
    expected.push(['bounty.created', founder.id, projectId, bountyId]);
    step();
    bounty2Id = (await createBounty(ctx.app, founder2, project2Id, { reward_amount: 5 })).id;
    expected.push(['bounty.created', founder2.id, project2Id, bounty2Id]);
    step();

    await claim(ctx.app, dev, bountyId);
    expected.push(['bounty.claimed', dev.id, projectId, bountyId]);
    step();
    okJson(await post(ctx.app, `/api/bounties/${bountyId}/unclaim`, dev));
    expected.push(['bounty.unclaimed', dev.id, projectId, bountyId]);
    step();
    // Whoever gives a bounty back may claim it again only after RECLAIM_COOLDOWN_HOURS (24).
    ctx.clock.advance(24 * 3_600_000);
    await claim(ctx.app, dev, bountyId);
    expected.push(['bounty.claimed', dev.id, projectId, bountyId]);
    step();
    rejectedSubmission = (await submit(ctx.app, dev, bountyId, `${repoUrl}/pull/1`)).id;
    expected.push(['submission.created', dev.id, projectId, bountyId]);
    step();
    okJson(await reject(ctx.app, founder, bountyId, { review_notes: 'Needs tests.' }));
    expected.push(['submission.rejected', dev.id, projectId, bountyId]);
    step();

    await claim(ctx.app, dev2, bountyId);
    expected.push(['bounty.claimed', dev2.id, projectId, bountyId]);
    step();
    await claim(ctx.app, dev2, bounty2Id);
    expected.push(['bounty.claimed', dev2.id, project2Id, bounty2Id]);
    step();
    approvedSubmission = (await submit(ctx.app, dev2, bountyId, `${repoUrl}/pull/2`)).id;
    expected.push(['submission.created', dev2.id, projectId, bountyId]);
    step();
    approval = okJson(await approve(ctx.app, founder, bountyId));
    expected.push(['submission.approved', dev2.id, projectId, bountyId]);
    step();
  });

  it('records every action with its type and ids, newest first', async () => {
    const events = await all();
    expect(summary(events)).toEqual([...expected].reverse());
    for (const e of events) {
      expect(e.id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(new Date(e.created_at).toISOString()).toBe(e.created_at);
    }
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort().reverse()).toEqual(ids);
    const times = events.map((e) => Date.parse(e.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(events[0]?.created_at).toBe(new Date(ctx.clock.now().getTime() - 1000).toISOString());
  });

  it('puts the useful details in data', async () => {
    const events = await all();
    const find = (type: string, pred: (e: Event) => boolean = () => true) =>
      events.find((e) => e.type === type && pred(e)) as Event;

    expect(find('agent.registered', (e) => e.agent_id === founder.id).data).toMatchObject({
      name: founder.name,
    });
    expect(find('project.created', (e) => e.project_id === projectId).data).toMatchObject({
      token_symbol: expect.any(String),
    });
    expect(find('bounty.created', (e) => e.bounty_id === bountyId).data).toMatchObject({
      title: 'Fix the parser',
      reward_amount: 100,
    });
    expect(find('submission.created', (e) => e.agent_id === dev.id).data).toMatchObject({
      submission_id: rejectedSubmission,
    });
    expect(find('submission.rejected').data).toMatchObject({
      submission_id: rejectedSubmission,
      review_notes: 'Needs tests.',
    });
    const approved = find('submission.approved');
    expect(approved.data).toMatchObject({
      submission_id: approvedSubmission,
      contributor_tx_hash: approval.contributor_tx_hash,
      platform_fee_tx_hash: approval.platform_fee_tx_hash,
    });
    expect(approved.data.contributor_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(approved.data.platform_fee_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('pages through everything with before, with no duplicates or gaps', async () => {
    const full = await all();
    expect(full.length).toBeGreaterThan(20);
    for (const size of [1, 4, 7]) {
      const pages: Event[][] = [];
      let before: string | undefined;
      for (;;) {
        const page = await feed(`limit=${size}${before ? `&before=${before}` : ''}`);
        if (page.length === 0) break;
        expect(page.length).toBeLessThanOrEqual(size);
        pages.push(page);
        before = page[page.length - 1]?.id;
        expect(pages.length).toBeLessThanOrEqual(full.length);
      }
      expect(pages.flat()).toEqual(full);
    }
  });

  it('returns only older events for before, and nothing before the oldest', async () => {
    const full = await all();
    const pivot = full[5] as Event;
    expect(await feed(`limit=100&before=${pivot.id}`)).toEqual(full.slice(6));
    expect(await feed(`before=${(full[full.length - 1] as Event).id}`)).toEqual([]);
    // A cursor need not name a stored event: any well-formed id works as a position.
    expect(await feed(`limit=100&before=evt_${'f'.repeat(32)}`)).toEqual(full);
    expect(await feed(`limit=100&before=evt_${'0'.repeat(32)}`)).toEqual([]);
  });

  it('defaults to 20 events and honours limit 1..100', async () => {
    const full = await all();
    expect(await feed()).toEqual(full.slice(0, 20));
    expect(await feed('limit=1')).toEqual(full.slice(0, 1));
    expect(await feed('limit=100')).toEqual(full);
  });

  it.each(['limit=0', 'limit=101', 'limit=-1', 'limit=abc', 'limit=2.5'])(
    'is 400 validation_error for %s',
    async (q) => {
      const err = expectError(
        await ctx.app.inject({ method: 'GET', url: `/api/activity?${q}` }),
        400,
        'validation_error',
      );
      expect(err.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'limit' })]));
    },
  );

  it.each([
    'before=abc',
    'before=evt_123',
    `before=agent_${'a'.repeat(32)}`,
    `before=evt_${'g'.repeat(32)}`,
    `before=evt_${'A'.repeat(32)}`,
    'before=',
  ])('is 400 validation_error for a malformed cursor: %s', async (q) => {
    expectError(await ctx.app.inject({ method: 'GET', url: `/api/activity?${q}` }), 400, 'validation_error');
  });

  it('is 400 validation_error for an unknown type or parameter', async () => {
    expectError(
      await ctx.app.inject({ method: 'GET', url: '/api/activity?type=bounty.deleted' }),
      400,
      'validation_error',
    );
    expectError(
      await ctx.app.inject({ method: 'GET', url: '/api/activity?sort=asc' }),
      400,
      'validation_error',
    );
  });

  it('filters by type', async () => {
    const claimed = await feed('type=bounty.claimed');
    expect(summary(claimed)).toEqual(expected.filter((e) => e[0] === 'bounty.claimed').reverse());
    expect(claimed).toHaveLength(4);
    expect(summary(await feed('type=submission.approved'))).toEqual([
      ['submission.approved', dev2.id, projectId, bountyId],
    ]);
    expect(await feed('type=project.activated')).toEqual([]);
    const registered = await feed('type=agent.registered&limit=100');
    expect(registered).toHaveLength(8);
  });

  it('filters by project_id', async () => {
    expect(summary(await feed(`project_id=${projectId}&limit=100`))).toEqual(
      expected.filter((e) => e[2] === projectId).reverse(),
    );
    expect(summary(await feed(`project_id=${project2Id}`))).toEqual([
      ['bounty.claimed', dev2.id, project2Id, bounty2Id],
      ['bounty.created', founder2.id, project2Id, bounty2Id],
      ['project.created', founder2.id, project2Id, null],
    ]);
    expect(await feed(`project_id=proj_${'0'.repeat(32)}`)).toEqual([]);
  });

  it('filters by agent_id', async () => {
    expect(summary(await feed(`agent_id=${dev.id}`))).toEqual(
      expected.filter((e) => e[1] === dev.id).reverse(),
    );
    expect(summary(await feed(`agent_id=${dev2.id}`))).toEqual([
      ['submission.approved', dev2.id, projectId, bountyId],
      ['submission.created', dev2.id, projectId, bountyId],
      ['bounty.claimed', dev2.id, project2Id, bounty2Id],
      ['bounty.claimed', dev2.id, projectId, bountyId],
      ['agent.registered', dev2.id, null, null],
    ]);
  });

  it('combines filters and the cursor', async () => {
    const both = await feed(`agent_id=${dev2.id}&project_id=${projectId}&type=bounty.claimed`);
    expect(summary(both)).toEqual([['bounty.claimed', dev2.id, projectId, bountyId]]);
    const mine = await feed(`agent_id=${dev.id}`);
    const older = await feed(`agent_id=${dev.id}&before=${(mine[1] as Event).id}`);
    expect(older).toEqual(mine.slice(2));
  });

  it('needs no authentication', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/activity',
      headers: { authorization: 'Bearer junk' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('failed requests write no event', () => {
  const snapshot = async () =>
    okJson(await ctx.app.inject({ method: 'GET', url: '/api/activity?limit=100' })).activity;

  it('leaves the feed unchanged after each kind of refused request', async () => {
    const c = ctx;
    const fchain = chain;
    const founder = await registerAgent(c.app);
    const dev = await registerAgent(c.app);
    const other = await registerAgent(c.app);
    const project = await createProject(c.app, founder);
    const { repoUrl, tokenAddress } = await markProjectActive(c, project.id);
    fchain.setFunds(tokenAddress, founder.walletAddress as string, 150n);
    const b1 = await createBounty(c.app, founder, project.id, { reward_amount: 100 });
    const b2 = await createBounty(c.app, founder, project.id, { reward_amount: 10 });
    await claim(c.app, dev, b1.id);
    await claim(c.app, other, b2.id);
    const prUrl = nextPrUrl(repoUrl);
    await submit(c.app, dev, b1.id, prUrl);
    const before = await snapshot();
    expect(before.length).toBeLessThan(100);

    // Duplicate name (case-insensitive).
    expectError(
      await c.app.inject({
        method: 'POST',
        url: '/api/agents/register',
        payload: { name: founder.name.toUpperCase() },
      }),
      409,
      'name_taken',
    );
    // Bounty beyond the founder's funds: 110 committed + 50 > 150.
    expectError(
      await post(c.app, `/api/projects/${project.id}/bounties`, founder, {
        title: 'Too rich',
        description: 'More than the founder holds.',
        reward_amount: 50,
      }),
      400,
      'insufficient_funds',
    );
    // Not the founder, not the claimant, bad or reused pull requests.
    expectError(
      await post(c.app, `/api/projects/${project.id}/bounties`, dev, {
        title: 't',
        description: 'd',
        reward_amount: 1,
      }),
      403,
      'forbidden',
    );
    expectError(
      await post(c.app, `/api/bounties/${b2.id}/submit`, dev, { pr_url: nextPrUrl(repoUrl) }),
      403,
      'forbidden',
    );
    expectError(
      await post(c.app, `/api/bounties/${b2.id}/submit`, other, { pr_url: `${repoUrl}/issues/3` }),
      400,
      'invalid_pr_url',
    );
    expectError(
      await post(c.app, `/api/bounties/${b2.id}/submit`, other, { pr_url: prUrl }),
      400,
      'pr_author_mismatch',
    );
    expectError(await post(c.app, `/api/bounties/${b1.id}/claim`, other), 409, 'invalid_state');
    expectError(await post(c.app, `/api/bounties/${b2.id}/unclaim`, dev), 403, 'forbidden');
    expectError(await reject(c.app, founder, b1.id, {}), 400, 'validation_error');
    expectError(await reject(c.app, dev, b1.id, { review_notes: 'n' }), 403, 'forbidden');
    // A failed payout: the contributor's transferFrom reverts on chain.
    fchain.revertNext = true;
    expectError(await approve(c.app, founder, b1.id), 502, 'upstream_error');
    expect(fchain.transfers).toContainEqual(
      expect.objectContaining({ to: (dev.walletAddress as string).toLowerCase(), status: 'reverted' }),
    );
    // An unauthenticated claim.
    expectError(
      await c.app.inject({ method: 'POST', url: `/api/bounties/${b2.id}/claim` }),
      401,
      'unauthorized',
    );

    expect(await snapshot()).toEqual(before);
    const bounty2 = okJson(await c.app.inject({ method: 'GET', url: `/api/bounties/${b2.id}` })).bounty;
    expect(bounty2.status).toBe('claimed');
    expect(bounty2.submissions).toEqual([]);

    // The retried approval is recorded exactly once.
    const ok = okJson(await approve(c.app, founder, b1.id));
    const after = await snapshot();
    expect(after.slice(1)).toEqual(before);
    expect(after[0]).toMatchObject({
      type: 'submission.approved',
      agent_id: dev.id,
      bounty_id: b1.id,
      data: expect.objectContaining({ contributor_tx_hash: ok.contributor_tx_hash }),
    });
  });
});
