import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createProject,
  expectError,
  markProjectActive,
  registerAgent,
  type TestAgent,
  type TestContext,
} from './helpers/app.ts';

const PROJECT_FIELDS = [
  'activated_at',
  'created_at',
  'curve_address',
  'description',
  'founder_id',
  'id',
  'name',
  'repo_url',
  'review_stats',
  'status',
  'token_address',
  'token_symbol',
].sort();

interface ProjectJson {
  id: string;
  name: string;
  status: string;
  founder_id: string;
  token_symbol: string;
  created_at: string;
}

describe('projects', () => {
  let ctx: TestContext;
  let n = 0;
  const symbol = () =>
    `S${Date.now().toString(36).slice(-5).toUpperCase()}${(++n).toString(36).toUpperCase()}`.slice(0, 11);

  beforeAll(async () => {
    ctx = await buildTestApp();
  });
  afterAll(() => ctx.close());

  const post = (who: TestAgent, payload: unknown) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: who.headers,
      payload: payload as object,
    });
  const list = (query: string) => ctx.app.inject({ method: 'GET', url: `/api/projects?${query}` });
  const ids = (res: LightMyRequestResponse) => (res.json().projects as ProjectJson[]).map((p) => p.id);

  describe('POST /api/projects', () => {
    it('creates a proposed project founded by the caller', async () => {
      const founder = await registerAgent(ctx.app);
      const token = symbol();
      const res = await post(founder, {
        name: 'Weather Oracle',
        description: 'Forecasts.',
        token_symbol: token,
      });
      expect(res.statusCode, res.body).toBe(201);
      const project = res.json().project;
      expect(Object.keys(project).sort()).toEqual(PROJECT_FIELDS);
      expect(project.id).toMatch(/^proj_[0-9a-f]{32}$/);
      expect(project).toMatchObject({
        name: 'Weather Oracle',
        description: 'Forecasts.',
        status: 'proposed',
        founder_id: founder.id,
        token_symbol: token,
        repo_url: null,
        token_address: null,
        curve_address: null,
        activated_at: null,
        created_at: ctx.clock.now().toISOString(),
      });
    });

    it('stores a missing description as null', async () => {
      const founder = await registerAgent(ctx.app);
      const res = await post(founder, { name: 'No description', token_symbol: symbol() });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().project.description).toBeNull();
    });

    it.each([
      ['a two-character name', { name: 'ab' }],
      ['a 100-character name', { name: 'n'.repeat(100) }],
      ['a 5000-character description', { name: 'Long text', description: 'd'.repeat(5000) }],
    ])('accepts %s', async (_case, fields) => {
      const founder = await registerAgent(ctx.app);
      const res = await post(founder, { token_symbol: symbol(), ...fields });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().project.name).toBe(fields.name);
    });

    it.each(['AB', 'A1', '12345678901', 'ZZZZZZZZZZZ'])('accepts the token symbol %s', async (token) => {
      const founder = await registerAgent(ctx.app);
      const res = await post(founder, { name: 'Symbol edge', token_symbol: token });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().project.token_symbol).toBe(token);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['missing name', { token_symbol: 'OKSYM' }, 'name'],
      ['one-character name', { name: 'a', token_symbol: 'OKSYM' }, 'name'],
      ['101-character name', { name: 'n'.repeat(101), token_symbol: 'OKSYM' }, 'name'],
      ['numeric name', { name: 12345, token_symbol: 'OKSYM' }, 'name'],
      [
        '5001-character description',
        { name: 'Fine', description: 'd'.repeat(5001), token_symbol: 'OKSYM' },
        'description',
      ],
      ['missing token_symbol', { name: 'Fine' }, 'token_symbol'],
      ['lower-case token_symbol', { name: 'Fine', token_symbol: 'abc' }, 'token_symbol'],
      ['one-character token_symbol', { name: 'Fine', token_symbol: 'A' }, 'token_symbol'],
      ['12-character token_symbol', { name: 'Fine', token_symbol: 'ABCDEFGHIJKL' }, 'token_symbol'],
      ['token_symbol with a dash', { name: 'Fine', token_symbol: 'AB-C' }, 'token_symbol'],
      ['token_symbol with a space', { name: 'Fine', token_symbol: 'AB C' }, 'token_symbol'],
      ['unknown field', { name: 'Fine', token_symbol: 'OKSYM', status: 'active' }, 'status'],
      [
        'founder_id in the body',
        { name: 'Fine', token_symbol: 'OKSYM', founder_id: 'agent_x' },
        'founder_id',
      ],
    ])('rejects a %s with 400 naming the field', async (_case, payload, field) => {
      const founder = await registerAgent(ctx.app);
      const err = expectError(await post(founder, payload), 400, 'validation_error');
      expect(err.details?.map((d) => d.field)).toContain(field);
      const mine = await list(`founder_id=${founder.id}`);
      expect(mine.json().projects).toEqual([]);
    });

    it('refuses a token symbol another project has with 409 symbol_taken', async () => {
      const first = await registerAgent(ctx.app);
      const second = await registerAgent(ctx.app);
      const token = symbol();
      expect((await post(first, { name: 'First', token_symbol: token })).statusCode).toBe(201);
      expectError(await post(second, { name: 'Second', token_symbol: token }), 409, 'symbol_taken');
      expectError(await post(first, { name: 'Again', token_symbol: token }), 409, 'symbol_taken');
      expect((await list(`founder_id=${second.id}`)).json().total).toBe(0);
    });
  });

  describe('GET /api/projects', () => {
    let founder: TestAgent;
    let other: TestAgent;
    let created: ProjectJson[];
    let activeId: string;

    beforeAll(async () => {
      founder = await registerAgent(ctx.app);
      other = await registerAgent(ctx.app);
      created = [];
      for (let i = 0; i < 5; i++) {
        ctx.clock.advance(1000);
        created.push((await createProject(ctx.app, founder, { name: `Listed ${i}` })) as ProjectJson);
      }
      ctx.clock.advance(1000);
      await createProject(ctx.app, other, { name: 'Somebody else' });
      activeId = (created[1] as ProjectJson).id;
      await markProjectActive(ctx, activeId);
    });

    it('needs no authentication and lists projects newest first', async () => {
      const res = await list(`founder_id=${founder.id}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(ids(res)).toEqual(created.map((p) => p.id).reverse());
      expect(body.total).toBe(5);
      expect(body.limit).toBe(20);
      expect(body.offset).toBe(0);
      const times = (body.projects as ProjectJson[]).map((p) => Date.parse(p.created_at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      for (const p of body.projects) expect(Object.keys(p).sort()).toEqual(PROJECT_FIELDS);
    });

    it('lists every founder without a filter, newest first', async () => {
      const res = await list('limit=100');
      expect(res.statusCode, res.body).toBe(200);
      const all = res.json().projects as ProjectJson[];
      expect(all.length).toBe(res.json().total);
      expect(all.some((p) => p.founder_id === other.id)).toBe(true);
      const times = all.map((p) => Date.parse(p.created_at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
    });

    it('filters by founder_id', async () => {
      const res = await list(`founder_id=${other.id}`);
      expect(res.statusCode, res.body).toBe(200);
      const projects = res.json().projects as ProjectJson[];
      expect(projects).toHaveLength(1);
      expect(projects[0]?.founder_id).toBe(other.id);
      expect((await list(`founder_id=agent_${'0'.repeat(32)}`)).json()).toMatchObject({
        projects: [],
        total: 0,
      });
    });

    it('filters by status', async () => {
      const active = await list(`founder_id=${founder.id}&status=active`);
      expect(active.statusCode, active.body).toBe(200);
      expect(ids(active)).toEqual([activeId]);
      expect(active.json().projects[0].status).toBe('active');
      expect(active.json().total).toBe(1);

      const proposed = await list(`founder_id=${founder.id}&status=proposed`);
      expect(ids(proposed)).toEqual(
        created
          .map((p) => p.id)
          .filter((id) => id !== activeId)
          .reverse(),
      );
      expect(proposed.json().total).toBe(4);
    });

    it('pages with limit and offset, reporting the total', async () => {
      const newestFirst = created.map((p) => p.id).reverse();
      const page = await list(`founder_id=${founder.id}&limit=2&offset=1`);
      expect(page.statusCode, page.body).toBe(200);
      expect(ids(page)).toEqual(newestFirst.slice(1, 3));
      expect(page.json()).toMatchObject({ total: 5, limit: 2, offset: 1 });

      const last = await list(`founder_id=${founder.id}&limit=2&offset=4`);
      expect(ids(last)).toEqual(newestFirst.slice(4));
      const beyond = await list(`founder_id=${founder.id}&offset=10`);
      expect(beyond.json()).toMatchObject({ projects: [], total: 5, offset: 10 });
      expect((await list(`founder_id=${founder.id}&limit=1`)).json().projects).toHaveLength(1);
      expect((await list(`founder_id=${founder.id}&limit=100`)).json().projects).toHaveLength(5);
    });

    it.each<[string, string]>([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=-1', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=x', 'offset'],
      ['status=done', 'status'],
      ['status=PROPOSED', 'status'],
    ])('rejects %s with 400 validation_error', async (query, field) => {
      const err = expectError(await list(query), 400, 'validation_error');
      expect(err.details?.map((d) => d.field)).toContain(field);
    });
  });

  describe('GET /api/projects/{id}', () => {
    it('returns one project without authentication', async () => {
      const founder = await registerAgent(ctx.app);
      const created = await createProject(ctx.app, founder, {
        name: 'Single',
        description: 'One of a kind.',
      });
      const res = await ctx.app.inject({ method: 'GET', url: `/api/projects/${created.id}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().project).toEqual({
        id: created.id,
        name: 'Single',
        description: 'One of a kind.',
        status: 'proposed',
        founder_id: founder.id,
        token_symbol: created.token_symbol,
        repo_url: null,
        token_address: null,
        curve_address: null,
        created_at: ctx.clock.now().toISOString(),
        activated_at: null,
        review_stats: {
          reviewed: 0,
          decided: 0,
          approved: 0,
          rejected: 0,
          changes_requested: 0,
          median_hours_to_review: null,
          awaiting_review: 0,
          awaiting_over_7_days: 0,
          owed: 0,
        },
      });
    });

    it('shows repository, token, curve and activation time once active', async () => {
      const founder = await registerAgent(ctx.app);
      const created = await createProject(ctx.app, founder);
      const { repoUrl, tokenAddress } = await markProjectActive(ctx, created.id);
      const project = (await ctx.app.inject({ method: 'GET', url: `/api/projects/${created.id}` })).json()
        .project;
      expect(project).toMatchObject({
        status: 'active',
        repo_url: repoUrl,
        token_address: tokenAddress,
        activated_at: ctx.clock.now().toISOString(),
      });
      expect(project.curve_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    });

    it.each([
      ['an unknown id', `proj_${'0'.repeat(32)}`],
      ['an agent-shaped id', `agent_${'0'.repeat(32)}`],
      ['a malformed id', 'proj_nope'],
      ['free text', 'weather-oracle'],
      ['an over-long id', `proj_${'a'.repeat(300)}`],
    ])('answers 404 not_found for %s', async (_case, id) => {
      expectError(await ctx.app.inject({ method: 'GET', url: `/api/projects/${id}` }), 404, 'not_found');
    });

    it('answers 404 for an agent id, even of an existing agent', async () => {
      const founder = await registerAgent(ctx.app);
      expectError(
        await ctx.app.inject({ method: 'GET', url: `/api/projects/${founder.id}` }),
        404,
        'not_found',
      );
    });
  });
});
