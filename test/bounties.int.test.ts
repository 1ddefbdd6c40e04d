import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokensToUnits } from '../src/infra/chain/chain.ts';
import {
  buildTestApp,
  createBounty,
  createProject,
  expectAuthRequired,
  expectError,
  markProjectActive,
  registerAgent,
  type TestAgent,
  type TestContext,
} from './helpers/app.ts';
import {
  type ActiveProject,
  activeProject,
  activity,
  allPages,
  approve,
  type BountyBody,
  claim,
  getBounty,
  ISO_MS,
  type ListQuery,
  listBounties,
  listOk,
  ok,
  postBounty,
  reject,
  submit,
  UnitsChain,
} from './helpers/bounty-flows.ts';
import { randomRuns } from './helpers/counts.ts';

const UNKNOWN_PROJECT = `proj_${'0'.repeat(32)}`;
const UNKNOWN_BOUNTY = `bnt_${'0'.repeat(32)}`;
const STATUSES = ['open', 'claimed', 'in_review', 'done'] as const;
const DIFFICULTIES = ['easy', 'medium', 'hard', 'extreme'] as const;

const validBody = (over: Record<string, unknown> = {}) => ({
  title: 'Fix the login page',
  description: 'The login page crashes on submit.',
  reward_amount: 100,
  ...over,
});

/** What the list should return, computed from an in-memory copy of every bounty in the database. */
interface ModelBounty {
  id: string;
  project_id: string;
  difficulty: string;
  status: string;
  title: string;
  description: string;
  created_at: string;
}

const wordsOf = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean),
  );

function expected(
  model: ModelBounty[],
  f: { status?: string; difficulty?: string; project_id?: string; q?: string },
) {
  const qWords = f.q ? [...wordsOf(f.q)] : [];
  return model
    .filter((b) => f.status === undefined || b.status === f.status)
    .filter((b) => f.difficulty === undefined || b.difficulty === f.difficulty)
    .filter((b) => f.project_id === undefined || b.project_id === f.project_id)
    .filter((b) => {
      const have = wordsOf(`${b.title} ${b.description}`);
      return qWords.every((w) => have.has(w));
    })
    .sort((a, b) =>
      a.created_at === b.created_at
        ? a.id < b.id
          ? 1
          : a.id > b.id
            ? -1
            : 0
        : a.created_at < b.created_at
          ? 1
          : -1,
    )
    .map((b) => b.id);
}

const toModel = (b: BountyBody): ModelBounty => ({
  id: b.id,
  project_id: b.project_id,
  difficulty: b.difficulty,
  status: b.status,
  title: b.title,
  description: b.description,
  created_at: b.created_at,
});

/** Moves a fresh open bounty to `status` through the API, with a new contributor. */
async function driveTo(ctx: TestContext, p: ActiveProject, bountyId: string, status: string, pr: number) {
  if (status === 'open') return;
  const dev = await registerAgent(ctx.app);
  ok(await claim(ctx.app, dev, bountyId));
  if (status === 'claimed') return;
  ok(await submit(ctx.app, dev, bountyId, p.repoUrl, pr), 201);
  if (status === 'in_review') return;
  ok(await approve(ctx.app, p.founder, bountyId));
}

// One database for the suites that look only at their own projects; the list suites need their own.
let ctx: TestContext;
const chain = new UnitsChain();
beforeAll(async () => {
  ctx = await buildTestApp({ chain });
});
afterAll(() => ctx.close());

describe('POST /api/projects/{id}/bounties', () => {
  let p: ActiveProject;
  beforeAll(async () => {
    p = await activeProject(ctx, chain, 10_000_000_000n);
  });

  it('creates an open bounty with the full contract shape', async () => {
    const at = ctx.clock.tick();
    const body = ok<{ bounty: BountyBody }>(
      await postBounty(ctx.app, p.founder, p.project.id, validBody()),
      201,
    );
    expect(Object.keys(body)).toEqual(['bounty']);
    const b = body.bounty;
    expect(b).toEqual({
      id: expect.stringMatching(/^bnt_[0-9a-f]{32}$/),
      project_id: p.project.id,
      project_name: p.project.name,
      title: 'Fix the login page',
      description: 'The login page crashes on submit.',
      reward_amount: 100,
      difficulty: 'medium',
      status: 'open',
      claimed_by: null,
      claimed_at: null,
      payable: true,
      payment_owed: false,
      // This fake chain has no curve to read: no quote (the chain tests check the quote itself).
      reward_eth_units: null,
      // No ETH_USD_FEED_ADDRESS: no dollars (test/eth-usd.chain.int.test.ts has them).
      reward_usd: null,
      revision_due_at: null,
      created_at: at.toISOString(),
      updated_at: at.toISOString(),
    });
    expect(b.created_at).toMatch(ISO_MS);
    expect(b.updated_at).toMatch(ISO_MS);

    const fetched = ok<{ bounty: BountyBody & { submissions: unknown[] } }>(await getBounty(ctx.app, b.id));
    expect(fetched.bounty).toEqual({ ...b, payment_owed: false, submissions: [] });

    const events = await activity(ctx.app, { type: 'bounty.created', project_id: p.project.id });
    expect(events.find((e) => e.bounty_id === b.id)).toMatchObject({
      type: 'bounty.created',
      agent_id: p.founder.id,
      project_id: p.project.id,
    });
  });

  it.each(DIFFICULTIES)('keeps difficulty %s', async (difficulty) => {
    const res = await postBounty(ctx.app, p.founder, p.project.id, validBody({ difficulty }));
    expect(ok<{ bounty: BountyBody }>(res, 201).bounty.difficulty).toBe(difficulty);
  });

  it('accepts values at the limits', async () => {
    const cases = [
      validBody({ title: 't'.repeat(200) }),
      validBody({ description: 'd'.repeat(2000) }),
      // 200 characters, not 200 UTF-16 code units: each emoji is two code units.
      validBody({ title: '\u{1F600}'.repeat(200) }),
      validBody({ title: 'x', description: 'y' }),
      validBody({ reward_amount: 1 }),
      validBody({ reward_amount: 1_000_000_000 }),
    ];
    for (const payload of cases) {
      const b = ok<{ bounty: BountyBody }>(
        await postBounty(ctx.app, p.founder, p.project.id, payload),
        201,
      ).bounty;
      expect(b.title).toBe(payload.title);
      expect(b.description).toBe(payload.description);
      expect(b.reward_amount).toBe(payload.reward_amount);
    }
  });

  const invalid: [string, unknown, string][] = [
    ['title over 200 characters', validBody({ title: 't'.repeat(201) }), 'title'],
    ['title over 200 characters of emoji', validBody({ title: '\u{1F600}'.repeat(201) }), 'title'],
    ['empty title', validBody({ title: '' }), 'title'],
    ['missing title', { description: 'd', reward_amount: 1 }, 'title'],
    ['title not a string', validBody({ title: 42 }), 'title'],
    ['description over 2000 characters', validBody({ description: 'd'.repeat(2001) }), 'description'],
    ['missing description', { title: 't', reward_amount: 1 }, 'description'],
    ['missing reward_amount', { title: 't', description: 'd' }, 'reward_amount'],
    ['zero reward', validBody({ reward_amount: 0 }), 'reward_amount'],
    ['negative reward', validBody({ reward_amount: -5 }), 'reward_amount'],
    ['non-integer reward', validBody({ reward_amount: 1.5 }), 'reward_amount'],
    ['reward over 10^9', validBody({ reward_amount: 1_000_000_001 }), 'reward_amount'],
    ['reward as a numeric string', validBody({ reward_amount: '5' }), 'reward_amount'],
    ['reward null', validBody({ reward_amount: null }), 'reward_amount'],
    ['unknown difficulty', validBody({ difficulty: 'impossible' }), 'difficulty'],
    ['difficulty in another case', validBody({ difficulty: 'EASY' }), 'difficulty'],
    ['unknown field', validBody({ status: 'done' }), 'status'],
    ['another unknown field', validBody({ claimed_by: 'agent_x' }), 'claimed_by'],
  ];

  it.each(invalid)('rejects %s with 400 validation_error and details', async (_name, payload, field) => {
    const before = (await listOk(ctx.app, { project_id: p.project.id })).total;
    const err = expectError(
      await postBounty(ctx.app, p.founder, p.project.id, payload),
      400,
      'validation_error',
    );
    expect(Array.isArray(err.details)).toBe(true);
    expect(err.details?.map((d) => d.field)).toContain(field);
    for (const d of err.details ?? []) expect(typeof d.message).toBe('string');
    expect((await listOk(ctx.app, { project_id: p.project.id })).total).toBe(before);
  });

  it('rejects a body that is not an object', async () => {
    for (const payload of [[], 'title', 5]) {
      expectError(
        await ctx.app.inject({
          method: 'POST',
          url: `/api/projects/${p.project.id}/bounties`,
          headers: { ...p.founder.headers, 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        }),
        400,
        'validation_error',
      );
    }
    expectError(
      await ctx.app.inject({
        method: 'POST',
        url: `/api/projects/${p.project.id}/bounties`,
        headers: p.founder.headers,
      }),
      400,
      'validation_error',
    );
  });

  it('rejects a body that is not JSON with 415', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/projects/${p.project.id}/bounties`,
      headers: { ...p.founder.headers, 'content-type': 'text/plain' },
      payload: 'title=x',
    });
    expectError(res, 415, 'unsupported_media_type');
  });

  it('lets only the founder post: 403 for anyone else, and nothing is created', async () => {
    const other = await registerAgent(ctx.app);
    const before = (await listOk(ctx.app, { project_id: p.project.id })).total;
    expectError(await postBounty(ctx.app, other, p.project.id, validBody()), 403, 'forbidden');
    // A founder of another project is no founder here either.
    const elsewhere = await activeProject(ctx, chain);
    expectError(await postBounty(ctx.app, elsewhere.founder, p.project.id, validBody()), 403, 'forbidden');
    expect((await listOk(ctx.app, { project_id: p.project.id })).total).toBe(before);
  });

  it('answers 404 not_found for an unknown or malformed project id', async () => {
    for (const id of [UNKNOWN_PROJECT, 'nope', `bnt_${'0'.repeat(32)}`, p.project.id.toUpperCase()]) {
      expectError(await postBounty(ctx.app, p.founder, id, validBody()), 404, 'not_found');
    }
  });

  it('answers 409 invalid_state on a project that is not active', async () => {
    const founder = await registerAgent(ctx.app);
    const proposed = await createProject(ctx.app, founder);
    expectError(await postBounty(ctx.app, founder, proposed.id, validBody()), 409, 'invalid_state');
    expect((await listOk(ctx.app, { project_id: proposed.id })).total).toBe(0);
  });

  it('answers 400 founder_without_wallet when the founder has no wallet', async () => {
    const founder = await registerAgent(ctx.app, { wallet_address: null });
    const project = await createProject(ctx.app, founder);
    await markProjectActive(ctx, project.id);
    expectError(await postBounty(ctx.app, founder, project.id, validBody()), 400, 'founder_without_wallet');
  });

  it('needs a valid API key', async () => {
    await expectAuthRequired(ctx.app, 'POST', `/api/projects/${p.project.id}/bounties`, validBody());
  });

  describe('funds check', () => {
    async function fundedProject(balance: bigint, allowance: bigint) {
      const fp = await activeProject(ctx, null);
      chain.setFunds(fp.tokenAddress, fp.founder.walletAddress as string, balance, allowance);
      return fp;
    }
    const post = (fp: ActiveProject, reward_amount: number) =>
      postBounty(ctx.app, fp.founder, fp.project.id, validBody({ reward_amount }));

    async function expectInsufficient(fp: ActiveProject, reward: number) {
      const before = await listOk(ctx.app, { project_id: fp.project.id, limit: 100 });
      const created = (await activity(ctx.app, { type: 'bounty.created', project_id: fp.project.id })).length;
      expectError(await post(fp, reward), 400, 'insufficient_funds');
      const after = await listOk(ctx.app, { project_id: fp.project.id, limit: 100 });
      expect(after.total).toBe(before.total);
      expect(after.bounties.map((b) => b.id)).toEqual(before.bounties.map((b) => b.id));
      expect((await activity(ctx.app, { type: 'bounty.created', project_id: fp.project.id })).length).toBe(
        created,
      );
    }

    it('limits by the allowance when it is below the balance', async () => {
      const fp = await fundedProject(1000n, 500n);
      ok(await post(fp, 300), 201);
      await expectInsufficient(fp, 201);
      ok(await post(fp, 200), 201); // exactly enough: 300 + 200 = 500
      await expectInsufficient(fp, 1);
      expect((await listOk(ctx.app, { project_id: fp.project.id })).total).toBe(2);
    });

    it('limits by the balance when it is below the allowance', async () => {
      const fp = await fundedProject(400n, 1000n);
      await expectInsufficient(fp, 401);
      ok(await post(fp, 400), 201);
      await expectInsufficient(fp, 1);
    });

    it('refuses everything when there are no funds at all', async () => {
      const fp = await fundedProject(0n, 0n);
      await expectInsufficient(fp, 1);
      const fp2 = await fundedProject(1000n, 0n);
      await expectInsufficient(fp2, 1);
    });

    it('compares exact base units, not rounded tokens', async () => {
      const fp = await activeProject(ctx, null);
      chain.setFundsUnits(
        fp.tokenAddress,
        fp.founder.walletAddress as string,
        tokensToUnits(300) - 1n,
        tokensToUnits(1000),
      );
      await expectInsufficient(fp, 300);
      ok(await post(fp, 299), 201);
    });

    it('counts open, claimed and in-review bounties as committed, but not done ones', async () => {
      const fp = await fundedProject(300n, 300n);
      const a = await createBounty(ctx.app, fp.founder, fp.project.id, { reward_amount: 100 });
      const b = await createBounty(ctx.app, fp.founder, fp.project.id, { reward_amount: 100 });
      await createBounty(ctx.app, fp.founder, fp.project.id, { reward_amount: 100 });
      await driveTo(ctx, fp, a.id, 'claimed', 9001);
      await driveTo(ctx, fp, b.id, 'in_review', 9002);
      // open 100 + claimed 100 + in_review 100 = 300 committed.
      await expectInsufficient(fp, 1);

      ok(await approve(ctx.app, fp.founder, b.id));
      expect(ok<{ bounty: BountyBody }>(await getBounty(ctx.app, b.id)).bounty.status).toBe('done');
      // The payout spent 100 of the funds; top them up to 300 again. Committed is now 200.
      chain.setFunds(fp.tokenAddress, fp.founder.walletAddress as string, 300n, 300n);
      await expectInsufficient(fp, 101);
      ok(await post(fp, 100), 201);
    });

    it('counts only the bounties of the same project', async () => {
      const fp1 = await fundedProject(1000n, 1000n);
      ok(await post(fp1, 1000), 201);
      const project2 = await createProject(ctx.app, fp1.founder);
      const { tokenAddress } = await markProjectActive(ctx, project2.id);
      chain.setFunds(tokenAddress, fp1.founder.walletAddress as string, 500n);
      const fp2 = { ...fp1, project: project2, tokenAddress };
      ok(await post(fp2, 500), 201);
      await expectInsufficient(fp2, 1);
    });

    it('keeps counting a bounty that a rejection returns to open', async () => {
      const fp = await fundedProject(200n, 200n);
      const a = await createBounty(ctx.app, fp.founder, fp.project.id, { reward_amount: 200 });
      await driveTo(ctx, fp, a.id, 'in_review', 9003);
      ok(await reject(ctx.app, fp.founder, a.id));
      // Back to open: still committed.
      await expectInsufficient(fp, 1);
    });
  });
});

describe('POST /api/projects/{id}/bounties without a chain', () => {
  // No chain passed: the app runs on the service's own `unavailableChain`.
  let bare: TestContext;
  beforeAll(async () => {
    bare = await buildTestApp();
  });
  afterAll(() => bare.close());

  it('answers 503 chain_unavailable and creates nothing', async () => {
    const p = await activeProject(bare, null);
    expectError(await postBounty(bare.app, p.founder, p.project.id, validBody()), 503, 'chain_unavailable');
    expect(await listOk(bare.app, {})).toMatchObject({ bounties: [], total: 0 });
    expect(await activity(bare.app, { type: 'bounty.created' })).toEqual([]);
  });

  it('still checks the role and state before the chain', async () => {
    const p = await activeProject(bare, null);
    const other = await registerAgent(bare.app);
    expectError(await postBounty(bare.app, other, p.project.id, validBody()), 403, 'forbidden');
    expectError(await postBounty(bare.app, p.founder, UNKNOWN_PROJECT, validBody()), 404, 'not_found');
    const proposed = await createProject(bare.app, p.founder);
    expectError(await postBounty(bare.app, p.founder, proposed.id, validBody()), 409, 'invalid_state');
  });
});

describe('GET /api/bounties', () => {
  let lctx: TestContext;
  const lchain = new UnitsChain();
  let p1: ActiveProject;
  let p2: ActiveProject;
  const model: ModelBounty[] = [];
  const byTitle = new Map<string, BountyBody>();

  async function make(p: ActiveProject, title: string, description: string, difficulty: string) {
    const b = ok<{ bounty: BountyBody }>(
      await postBounty(lctx.app, p.founder, p.project.id, {
        title,
        description,
        reward_amount: 10,
        difficulty,
      }),
      201,
    ).bounty;
    model.push(toModel(b));
    byTitle.set(title, b);
    return b;
  }

  beforeAll(async () => {
    lctx = await buildTestApp({ chain: lchain });
    p1 = await activeProject(lctx, lchain);
    p2 = await activeProject(lctx, lchain);
    // Text chosen for the keyword cases; difficulties and projects spread over the combinations.
    await make(p1, 'Fix LOGIN page', 'The page crashes on submit.', 'easy');
    await make(p1, 'Login redesign', 'Make it pretty', 'medium');
    await make(p2, 'Crash reporter', 'Collect every login crash, then reboot.', 'hard');
    await make(p2, 'Docs', 'Write the docs for the login flow', 'extreme');
    // Several bounties share one timestamp: the id breaks the tie.
    for (let i = 0; i < 22; i++) {
      await make(
        i % 2 ? p1 : p2,
        `Task ${i} alpha`,
        i % 3 ? 'beta gamma' : 'gamma',
        DIFFICULTIES[i % 4] as string,
      );
      if (i % 4 === 3) lctx.clock.advance(1000);
    }
    // Some statuses other than open.
    const moves: [string, string][] = [
      ['Task 0 alpha', 'claimed'],
      ['Task 1 alpha', 'claimed'],
      ['Task 2 alpha', 'in_review'],
      ['Task 3 alpha', 'done'],
      ['Task 5 alpha', 'in_review'],
      ['Fix LOGIN page', 'claimed'],
    ];
    let pr = 100;
    for (const [title, status] of moves) {
      const b = byTitle.get(title) as BountyBody;
      await driveTo(lctx, b.project_id === p1.project.id ? p1 : p2, b.id, status, ++pr);
      (model.find((m) => m.id === b.id) as ModelBounty).status = status;
    }
  });
  afterAll(() => lctx.close());

  it('returns the list envelope with defaults limit 20 and offset 0', async () => {
    const body = await listOk(lctx.app);
    expect(Object.keys(body).sort()).toEqual(['bounties', 'limit', 'offset', 'total', 'total_is_exact']);
    expect(body.limit).toBe(20);
    expect(body.offset).toBe(0);
    expect(body.total).toBe(26);
    expect(body.bounties).toHaveLength(20);
    expect(body.bounties.map((b) => b.id)).toEqual(expected(model, {}).slice(0, 20));
    for (const b of body.bounties) {
      expect(b.created_at).toMatch(ISO_MS);
      expect(b.updated_at).toMatch(ISO_MS);
      expect(typeof b.project_name).toBe('string');
    }
  });

  it('accepts limit 1 and 100 and reports them back', async () => {
    const one = await listOk(lctx.app, { limit: 1 });
    expect(one.bounties.map((b) => b.id)).toEqual(expected(model, {}).slice(0, 1));
    expect(one.limit).toBe(1);
    const hundred = await listOk(lctx.app, { limit: 100 });
    expect(hundred.limit).toBe(100);
    expect(hundred.bounties.map((b) => b.id)).toEqual(expected(model, {}));
  });

  it.each([
    ['limit', '0'],
    ['limit', '101'],
    ['limit', '-1'],
    ['limit', 'abc'],
    ['limit', '1.5'],
    ['offset', '-1'],
    ['offset', 'x'],
    ['status', 'closed'],
    ['status', 'OPEN'],
    ['difficulty', 'trivial'],
    ['sort', 'asc'],
  ])('rejects %s=%s with 400 validation_error', async (name, value) => {
    const err = expectError(await listBounties(lctx.app, { [name]: value }), 400, 'validation_error');
    expect(err.details?.map((d) => d.field)).toContain(name);
  });

  it('returns an empty page past the end, with the total', async () => {
    const body = await listOk(lctx.app, { offset: 1000 });
    expect(body).toEqual({ bounties: [], total: 26, total_is_exact: true, limit: 20, offset: 1000 });
  });

  it('reflects state changes in the filtered lists and totals', async () => {
    const claimed = await listOk(lctx.app, { status: 'claimed', limit: 100 });
    expect(claimed.total).toBe(3);
    for (const b of claimed.bounties) {
      expect(b.status).toBe('claimed');
      expect(b.claimed_by).toMatch(/^agent_/);
      expect(b.claimed_at).toMatch(ISO_MS);
    }
    expect((await listOk(lctx.app, { status: 'done' })).total).toBe(1);
    expect((await listOk(lctx.app, { status: 'in_review' })).total).toBe(2);
    expect((await listOk(lctx.app, { status: 'open' })).total).toBe(20);
  });

  it('filters and counts every combination of status, difficulty, project and keyword', async () => {
    const projects = [undefined, p1.project.id, p2.project.id, UNKNOWN_PROJECT];
    const keywords = [undefined, 'login', 'alpha beta', 'LOGIN crash', 'zebra'];
    let checked = 0;
    for (const status of [undefined, ...STATUSES]) {
      for (const difficulty of [undefined, ...DIFFICULTIES]) {
        for (const project_id of projects) {
          for (const q of keywords) {
            const f = { status, difficulty, project_id, q };
            const want = expected(model, f);
            const body = await listOk(lctx.app, { ...f, limit: 100 });
            expect(body.total, JSON.stringify(f)).toBe(want.length);
            expect(
              body.bounties.map((b) => b.id),
              JSON.stringify(f),
            ).toEqual(want);
            for (const b of body.bounties) {
              if (status) expect(b.status).toBe(status);
              if (difficulty) expect(b.difficulty).toBe(difficulty);
              if (project_id) expect(b.project_id).toBe(project_id);
            }
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(5 * 5 * 4 * 5);
  });

  it('gives an empty, consistent answer for a project_id that names no project', async () => {
    for (const project_id of ['*', '', 'nope', UNKNOWN_PROJECT, '%']) {
      const body = await listOk(lctx.app, { project_id, limit: 100 });
      expect(body.bounties, project_id).toEqual([]);
      expect(body.total, project_id).toBe(0);
    }
  });

  describe('keyword search (q)', () => {
    const titles = async (q: string) =>
      (await listOk(lctx.app, { q, limit: 100 })).bounties.map((b) => b.title).sort();

    it('ignores case in the query and in the text', async () => {
      for (const q of ['login', 'LOGIN', 'LoGiN']) {
        expect(await titles(q)).toEqual(['Crash reporter', 'Docs', 'Fix LOGIN page', 'Login redesign']);
      }
    });

    it('needs every word, from the title or the description', async () => {
      // "fix" is in the title, "crashes" in the description of the same bounty.
      expect(await titles('fix crashes')).toEqual(['Fix LOGIN page']);
      expect(await titles('login crash')).toEqual(['Crash reporter']);
      expect(await titles('login crash docs')).toEqual([]);
      expect(await titles('pretty redesign')).toEqual(['Login redesign']);
    });

    it('finds words next to punctuation', async () => {
      expect(await titles('reboot')).toEqual(['Crash reporter']);
      expect(await titles('crash,')).toEqual(['Crash reporter']);
      expect(await titles('submit')).toEqual(['Fix LOGIN page']);
    });

    it('counts the matches in total, also with filters and paging', async () => {
      const body = await listOk(lctx.app, { q: 'login', limit: 1, offset: 1 });
      expect(body.total).toBe(4);
      expect(body.bounties).toHaveLength(1);
      expect(body.bounties[0]?.id).toBe(expected(model, { q: 'login' })[1]);
      expect((await listOk(lctx.app, { q: 'login', project_id: p2.project.id })).total).toBe(2);
      expect((await listOk(lctx.app, { q: 'login', status: 'claimed' })).total).toBe(1);
    });

    it('treats operators and quotes as plain text', async () => {
      for (const q of [
        'login & crash',
        'login | docs',
        '!login',
        "it's",
        'a:*',
        '(login)',
        '100%',
        '\\',
        'login <-> crash',
        "'; drop table bounties; --",
      ]) {
        const res = await listBounties(lctx.app, { q, limit: 100 });
        expect(res.statusCode, `${q}: ${res.body}`).toBe(200);
        const body = res.json();
        expect(body.total, q).toBe(body.bounties.length);
      }
      expect(await titles('login & crash')).toEqual(['Crash reporter']);
      expect(await titles('login | docs')).toEqual(['Docs']);
      expect((await listOk(lctx.app)).total).toBe(26);
    });
  });

  describe('ordering and paging', () => {
    it('puts the newest first: created_at desc, then id desc on equal timestamps', async () => {
      const p = await activeProject(lctx, lchain);
      const t0 = lctx.clock.now().getTime();
      const at = async (ms: number, title: string) => {
        lctx.clock.advance(ms - lctx.clock.now().getTime());
        const made = (await createBounty(lctx.app, p.founder, p.project.id, {
          title,
        })) as unknown as BountyBody;
        model.push(toModel(made));
        return made;
      };
      const a = await at(t0, 'a');
      const b = await at(t0 - 60_000, 'b');
      const c = await at(t0, 'c');
      const d = await at(t0 + 1, 'd');
      const e = await at(t0 - 60_000, 'e');
      const f = await at(t0, 'f');
      lctx.clock.advance(t0 + 5000 - lctx.clock.now().getTime());
      const body = await listOk(lctx.app, { project_id: p.project.id });
      expect(body.bounties.map((x) => x.id)).toEqual([d.id, f.id, c.id, a.id, e.id, b.id]);
      expect(body.bounties[1]?.created_at).toBe(new Date(t0).toISOString());
      expect(body.bounties[5]?.created_at).toBe(new Date(t0 - 60_000).toISOString());
      const two = await allPages(lctx.app, { project_id: p.project.id }, 2);
      expect(two.bounties.map((x) => x.id)).toEqual([d.id, f.id, c.id, a.id, e.id, b.id]);
    });

    it('walks every filter in pages that concatenate to the full list without duplicates', async () => {
      const filters: ListQuery[] = [
        {},
        { status: 'open' },
        { difficulty: 'medium' },
        { project_id: p1.project.id },
        { q: 'gamma' },
        { q: 'alpha', status: 'open', project_id: p2.project.id },
      ];
      for (const f of filters) {
        const full = await listOk(lctx.app, { ...f, limit: 100 });
        expect(full.total).toBe(full.bounties.length);
        for (const size of [1, 3, 7, 20]) {
          const walked = await allPages(lctx.app, f, size);
          const ids = walked.bounties.map((b) => b.id);
          expect(new Set(ids).size).toBe(ids.length);
          expect(ids, `${JSON.stringify(f)} by ${size}`).toEqual(full.bounties.map((b) => b.id));
          expect(walked.total).toBe(full.total);
        }
      }
    });
  });

  // Continues on the same data: the model holds every bounty of this database.
  describe('against an in-memory model (property)', () => {
    const projects: ActiveProject[] = [];
    let pr = 1000;

    beforeAll(async () => {
      projects.push(p1, p2, await activeProject(lctx, lchain));
    });

    const VOCAB = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
    const word = fc
      .tuple(fc.constantFrom(...VOCAB), fc.constantFrom('lower', 'upper', 'title'))
      .map(([w, c]) =>
        c === 'lower' ? w : c === 'upper' ? w.toUpperCase() : w[0]?.toUpperCase() + w.slice(1),
      );
    const text = (min: number, max: number) =>
      fc.array(word, { minLength: min, maxLength: max }).map((ws) => ws.join(' '));
    const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

    const newBounty = fc.record({
      project: fc.integer({ min: 0, max: 2 }),
      difficulty: opt(fc.constantFrom(...DIFFICULTIES)),
      title: text(1, 3),
      description: text(1, 3),
      reward: fc.integer({ min: 1, max: 1000 }),
      status: fc.constantFrom(...STATUSES),
      // Zero keeps timestamps equal, a negative step puts a bounty before older ones.
      step: fc.constantFrom(0, 0, 1, 1000, -700),
    });
    const query = fc.record({
      status: opt(fc.constantFrom(...STATUSES)),
      difficulty: opt(fc.constantFrom(...DIFFICULTIES)),
      project: opt(fc.integer({ min: 0, max: 3 })),
      q: opt(text(1, 2)),
      limit: fc.integer({ min: 1, max: 12 }),
      offset: fc.integer({ min: 0, max: 15 }),
    });

    it('lists and counts exactly what the model predicts', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(newBounty, { maxLength: 6 }),
          fc.array(query, { minLength: 1, maxLength: 5 }),
          async (adds, queries) => {
            for (const add of adds) {
              lctx.clock.advance(add.step);
              const p = projects[add.project] as ActiveProject;
              const body: Record<string, unknown> = {
                title: add.title,
                description: add.description,
                reward_amount: add.reward,
              };
              if (add.difficulty) body.difficulty = add.difficulty;
              const b = ok<{ bounty: BountyBody }>(
                await postBounty(lctx.app, p.founder, p.project.id, body),
                201,
              ).bounty;
              expect(b.difficulty).toBe(add.difficulty ?? 'medium');
              const m = toModel(b);
              model.push(m);
              await driveTo(lctx, p, b.id, add.status, ++pr);
              m.status = add.status;
            }
            for (const qy of queries) {
              const project_id =
                qy.project === undefined
                  ? undefined
                  : qy.project === 3
                    ? UNKNOWN_PROJECT
                    : (projects[qy.project] as ActiveProject).project.id;
              const f = { status: qy.status, difficulty: qy.difficulty, project_id, q: qy.q };
              const want = expected(model, f);
              const body = await listOk(lctx.app, { ...f, limit: qy.limit, offset: qy.offset });
              expect(body.total).toBe(want.length);
              expect(body.bounties.map((b) => b.id)).toEqual(want.slice(qy.offset, qy.offset + qy.limit));
              expect(body.limit).toBe(qy.limit);
              expect(body.offset).toBe(qy.offset);
            }
          },
        ),
        // 6 runs on every push, 15 with TEST_FULL=1 (see helpers/counts.ts); fast-check prints the seed on a failure.
        { numRuns: randomRuns('BOUNTY_LIST_RUNS', 6, 15) },
      );
    });
  });
});

describe('GET /api/bounties/{id}', () => {
  let p: ActiveProject;
  let dev: TestAgent;

  beforeAll(async () => {
    p = await activeProject(ctx, chain);
    dev = await registerAgent(ctx.app);
  });

  it('returns the bounty with an empty submissions array', async () => {
    const created = ok<{ bounty: BountyBody }>(
      await postBounty(ctx.app, p.founder, p.project.id, validBody({ difficulty: 'hard' })),
      201,
    );
    const body = ok<{ bounty: BountyBody & { submissions: unknown[] } }>(
      await getBounty(ctx.app, created.bounty.id),
    );
    expect(Object.keys(body)).toEqual(['bounty']);
    expect(body.bounty).toEqual({ ...created.bounty, payment_owed: false, submissions: [] });
  });

  it('lists the submissions newest first', async () => {
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    ctx.clock.tick();
    ok(await claim(ctx.app, dev, b.id));
    const t1 = ctx.clock.tick();
    const first = ok<{ submission: { id: string } }>(
      await submit(ctx.app, dev, b.id, p.repoUrl, 501),
      201,
    ).submission;
    ctx.clock.tick();
    ok(await reject(ctx.app, p.founder, b.id, 'Needs tests.'));
    ok(await claim(ctx.app, dev, b.id));
    const t2 = ctx.clock.tick();
    const second = ok<{ submission: { id: string } }>(
      await submit(ctx.app, dev, b.id, p.repoUrl, 502),
      201,
    ).submission;

    const body = ok<{ bounty: BountyBody & { submissions: Record<string, unknown>[] } }>(
      await getBounty(ctx.app, b.id),
    );
    expect(body.bounty.status).toBe('in_review');
    expect(body.bounty.claimed_by).toBe(dev.id);
    expect(body.bounty.submissions.map((s) => s.id)).toEqual([second.id, first.id]);
    expect(body.bounty.submissions[0]).toMatchObject({
      id: second.id,
      bounty_id: b.id,
      agent_id: dev.id,
      pr_url: `${p.repoUrl}/pull/502`,
      status: 'pending',
      created_at: t2.toISOString(),
    });
    expect(body.bounty.submissions[1]).toMatchObject({
      id: first.id,
      bounty_id: b.id,
      agent_id: dev.id,
      pr_url: `${p.repoUrl}/pull/501`,
      status: 'rejected',
      review_notes: 'Needs tests.',
      created_at: t1.toISOString(),
    });
  });

  it('orders submissions made in the same millisecond by id', async () => {
    const b = await createBounty(ctx.app, p.founder, p.project.id);
    const other = await registerAgent(ctx.app);
    ok(await claim(ctx.app, other, b.id));
    const first = ok<{ submission: { id: string } }>(
      await submit(ctx.app, other, b.id, p.repoUrl, 601),
      201,
    ).submission;
    ok(await reject(ctx.app, p.founder, b.id));
    ok(await claim(ctx.app, other, b.id));
    const second = ok<{ submission: { id: string } }>(
      await submit(ctx.app, other, b.id, p.repoUrl, 602),
      201,
    ).submission;
    const subs = ok<{ bounty: { submissions: { id: string }[] } }>(await getBounty(ctx.app, b.id)).bounty
      .submissions;
    expect(subs.map((s) => s.id)).toEqual([second.id, first.id]);
  });

  it('answers 404 not_found for unknown and malformed ids', async () => {
    for (const id of [
      UNKNOWN_BOUNTY,
      'nope',
      p.project.id,
      `BNT_${'0'.repeat(32)}`,
      `bnt_${'0'.repeat(31)}`,
      'x'.repeat(300),
    ]) {
      expectError(await getBounty(ctx.app, id), 404, 'not_found');
    }
  });
});
