import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { agents } from '../src/infra/db/schema.ts';
import {
  createBounty,
  createProject,
  expectError,
  markProjectActive,
  randomAddress,
  registerAgent,
  type TestAgent,
} from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { expectNoKeyHash } from './helpers/http-suite.ts';
import { approve, getBounty, inReview, scene } from './helpers/review-flow.ts';

const PUBLIC_FIELDS = ['created_at', 'id', 'name', 'repo_login', 'wallet_address', 'wallet_type'];
const API_KEY = /^bmk_[0-9A-Za-z]{43,}$/;
const AGENT_ID = /^agent_[0-9a-f]{32}$/;

describe('agents', () => {
  const chain = new FakeChain();
  const issuedKeys = new Set<string>();
  let n = 0;
  const uniqueName = (prefix = 'agent') => `${prefix}-${Date.now().toString(36)}-${++n}`;
  const ctx = appForFile({ chain });

  /** Every response of this suite goes through here: none may show a key hash. */
  async function send(opts: InjectOptions): Promise<LightMyRequestResponse> {
    const res = await ctx.app.inject(opts);
    const body = res.headers['content-type']?.toString().includes('json') ? res.json() : null;
    const key = body?.agent?.api_key ?? body?.api_key;
    if (typeof key === 'string') issuedKeys.add(key);
    expectNoKeyHash(res, issuedKeys);
    return res;
  }

  const register = (payload: Record<string, unknown>) =>
    send({ method: 'POST', url: '/api/agents/register', payload });
  const me = (headers: Record<string, string>) => send({ method: 'GET', url: '/api/agents/me', headers });

  async function agent(body: { wallet_address?: string | null } = {}): Promise<TestAgent> {
    const a = await registerAgent(ctx.app, body);
    issuedKeys.add(a.apiKey);
    return a;
  }

  describe('POST /api/agents/register', () => {
    it('returns 201 with the agent and a one-time bmk_ key, without a wallet when none is configured', async () => {
      const name = uniqueName();
      const res = await register({ name });
      expect(res.statusCode, res.body).toBe(201);
      const a = res.json().agent;
      expect(Object.keys(a).sort()).toEqual([...PUBLIC_FIELDS, 'api_key', 'description'].sort());
      expect(a.id).toMatch(AGENT_ID);
      expect(a.name).toBe(name);
      expect(a.wallet_address).toBeNull();
      expect(a.wallet_type).toBeNull();
      expect(a.description).toBeNull();
      expect(a.created_at).toBe(ctx.clock.now().toISOString());
      expect(a.api_key).toMatch(API_KEY);

      const own = await me({ authorization: `Bearer ${a.api_key}` });
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json().agent.id).toBe(a.id);
      expect(own.json().agent).not.toHaveProperty('api_key');
    });

    it('takes an external wallet, stored checksummed', async () => {
      const address = randomAddress();
      const res = await register({
        name: uniqueName(),
        wallet_address: address,
        description: 'Writes tests.',
      });
      expect(res.statusCode, res.body).toBe(201);
      const a = res.json().agent;
      expect(a.wallet_address).toBe(getAddress(address));
      expect(a.wallet_type).toBe('external');
      expect(a.description).toBe('Writes tests.');
    });

    it('issues a different key to every agent', async () => {
      const first = await agent();
      const second = await agent();
      expect(first.apiKey).not.toBe(second.apiKey);
      expect(first.id).not.toBe(second.id);
    });

    it.each([
      ['the shortest name', () => 'ab'],
      ['the longest name', () => uniqueName('n').padEnd(64, 'x')],
      ['every allowed character', () => 'A b_c-d.e 9'],
    ])('accepts %s', async (_case, makeName) => {
      const name = makeName();
      expect(name.length).toBeLessThanOrEqual(64);
      const res = await register({ name });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().agent.name).toBe(name);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['missing name', {}, 'name'],
      ['empty name', { name: '' }, 'name'],
      ['one-character name', { name: 'a' }, 'name'],
      ['65-character name', { name: 'a'.repeat(65) }, 'name'],
      ['name with !', { name: 'bad!name' }, 'name'],
      ['name with a leading space', { name: ' padded' }, 'name'],
      ['name with a trailing space', { name: 'padded ' }, 'name'],
      ['name with a non-ASCII letter', { name: 'naïve' }, 'name'],
      ['name that is a number', { name: 42 }, 'name'],
      ['unknown field', { name: 'fine-name', role: 'admin' }, 'role'],
      ['short wallet', { name: 'fine-name', wallet_address: '0x1234' }, 'wallet_address'],
      ['wallet without 0x', { name: 'fine-name', wallet_address: 'a'.repeat(40) }, 'wallet_address'],
      [
        'wallet with non-hex digits',
        { name: 'fine-name', wallet_address: `0x${'g'.repeat(40)}` },
        'wallet_address',
      ],
      [
        'wallet with 41 digits',
        { name: 'fine-name', wallet_address: `0x${'a'.repeat(41)}` },
        'wallet_address',
      ],
      ['description over 500', { name: 'fine-name', description: 'd'.repeat(501) }, 'description'],
    ])('rejects a %s with 400 naming the field', async (_case, payload, field) => {
      const res = await register(payload);
      const err = expectError(res, 400, 'validation_error');
      expect(err.details?.map((d) => d.field)).toContain(field);
    });

    it('creates nothing when validation fails', async () => {
      const name = uniqueName();
      expectError(await register({ name, wallet_address: '0xbad' }), 400, 'validation_error');
      const res = await register({ name });
      expect(res.statusCode, res.body).toBe(201);
    });

    it('refuses a name already taken, ignoring case', async () => {
      const name = uniqueName('Case-Name');
      expect((await register({ name })).statusCode).toBe(201);
      expectError(await register({ name }), 409, 'name_taken');
      expectError(await register({ name: name.toLowerCase() }), 409, 'name_taken');
      expectError(await register({ name: name.toUpperCase() }), 409, 'name_taken');
    });

    it('refuses a wallet another agent uses, ignoring case', async () => {
      const owner = await agent();
      const upper = `0x${(owner.walletAddress as string).slice(2).toUpperCase()}`;
      expectError(await register({ name: uniqueName(), wallet_address: upper }), 409, 'wallet_taken');
      expectError(
        await register({ name: uniqueName(), wallet_address: (owner.walletAddress as string).toLowerCase() }),
        409,
        'wallet_taken',
      );
    });

    it.each(['operatorAddress', 'payoutSpenderAddress', 'treasuryAddress', 'factoryAddress'] as const)(
      'refuses the platform %s as a wallet',
      async (which) => {
        const name = uniqueName();
        const res = await register({ name, wallet_address: chain.info[which].toLowerCase() });
        expectError(res, 400, 'platform_wallet');
        expect((await register({ name })).statusCode).toBe(201);
      },
    );
  });

  /** A project's token and curve addresses, as stored at activation (checksummed). */
  async function projectContracts(): Promise<[string, string]> {
    const founder = await agent();
    const project = await createProject(ctx.app, founder);
    await markProjectActive(ctx, project.id);
    const res = await send({ method: 'GET', url: `/api/projects/${project.id}` });
    const { token_address, curve_address } = res.json().project;
    return [getAddress(token_address), getAddress(curve_address)];
  }
  const ZERO = '0x0000000000000000000000000000000000000000';
  /** Every address the contract forbids as a wallet, with the code this service answers. */
  async function forbiddenWallets(): Promise<[string, string][]> {
    const [token, curve] = await projectContracts();
    return [
      [ZERO, 'invalid_wallet_address'],
      [chain.info.operatorAddress, 'platform_wallet'],
      [chain.info.payoutSpenderAddress, 'platform_wallet'],
      [chain.info.treasuryAddress, 'platform_wallet'],
      [chain.info.factoryAddress, 'platform_wallet'],
      [token, 'platform_wallet'],
      [token.toLowerCase(), 'platform_wallet'],
      [`0x${curve.slice(2).toUpperCase()}`, 'platform_wallet'],
    ];
  }

  describe('forbidden wallet addresses', () => {
    it('are refused at registration with 400, and no agent is created', async () => {
      for (const [address, code] of await forbiddenWallets()) {
        const name = uniqueName();
        expectError(await register({ name, wallet_address: address }), 400, code);
        expect((await register({ name })).statusCode, address).toBe(201);
      }
    });

    it('are refused by PATCH /api/agents/me/wallet with 400, keeping the old wallet', async () => {
      const a = await agent();
      for (const [address, code] of await forbiddenWallets()) {
        const res = await send({
          method: 'PATCH',
          url: '/api/agents/me/wallet',
          headers: a.headers,
          payload: { wallet_address: address },
        });
        expectError(res, 400, code);
        expect((await me(a.headers)).json().agent.wallet_address).toBe(a.walletAddress);
      }
    });

    it('are never paid: approve answers 400 before anything is signed', async () => {
      const s = await scene(ctx, chain);
      const { bounty } = await inReview(ctx.app, s);
      const signedBefore = chain.signed.length;
      // A wallet stored before these rules existed, or written around them.
      for (const [address, code] of await forbiddenWallets()) {
        await ctx.database.db.update(agents).set({ walletAddress: address }).where(eq(agents.id, s.dev.id));
        expectError(await approve(ctx.app, s.founder, bounty.id), 400, code);
      }
      expect(chain.signed.length).toBe(signedBefore);
      expect((await getBounty(ctx.app, bounty.id)).status).toBe('in_review');
    });
  });

  describe('GET /api/agents/me', () => {
    it('returns the own profile with no active claims for a new agent', async () => {
      const a = await agent();
      const res = await me(a.headers);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().agent).toEqual({
        id: a.id,
        name: a.name,
        description: null,
        wallet_address: a.walletAddress,
        wallet_type: 'external',
        repo_login: a.name.toLowerCase(),
        created_at: ctx.clock.now().toISOString(),
        active_claims: [],
      });
    });

    it('lists exactly the bounties the caller holds in claimed or in_review', async () => {
      const founder = await agent();
      const dev = await agent();
      const other = await agent();
      const projects = [];
      for (let i = 0; i < 3; i++) {
        const p = await createProject(ctx.app, founder);
        const { repoUrl, tokenAddress } = await markProjectActive(ctx, p.id);
        chain.setFunds(tokenAddress, founder.walletAddress as string, 100_000n);
        projects.push({ ...p, repoUrl });
      }
      const [p1, p2, p3] = projects as [(typeof projects)[0], (typeof projects)[0], (typeof projects)[0]];
      const claimed = await createBounty(ctx.app, founder, p1.id, { title: 'Claimed one' });
      const inReview = await createBounty(ctx.app, founder, p2.id, { title: 'In review one' });
      const done = await createBounty(ctx.app, founder, p3.id, { title: 'Done one' });
      await createBounty(ctx.app, founder, p1.id, { title: 'Still open' });
      const othersClaim = await createBounty(ctx.app, founder, p2.id, { title: 'Claimed by another' });

      const claim = async (who: TestAgent, bountyId: string) => {
        const res = await send({
          method: 'POST',
          url: `/api/bounties/${bountyId}/claim`,
          headers: who.headers,
        });
        expect(res.statusCode, res.body).toBe(200);
        return ctx.clock.now().toISOString();
      };
      const submit = async (bountyId: string, repoUrl: string) => {
        const res = await send({
          method: 'POST',
          url: `/api/bounties/${bountyId}/submit`,
          headers: dev.headers,
          payload: { pr_url: `${repoUrl}/pull/1` },
        });
        expect(res.statusCode, res.body).toBe(201);
      };

      const claimedAt = await claim(dev, claimed.id);
      ctx.clock.advance(1000);
      const inReviewAt = await claim(dev, inReview.id);
      await submit(inReview.id, p2.repoUrl);
      ctx.clock.advance(1000);
      await claim(dev, done.id);
      await submit(done.id, p3.repoUrl);
      const approve = await send({
        method: 'POST',
        url: `/api/bounties/${done.id}/approve`,
        headers: founder.headers,
      });
      expect(approve.statusCode, approve.body).toBe(200);
      await claim(other, othersClaim.id);

      const res = await me(dev.headers);
      expect(res.statusCode, res.body).toBe(200);
      const claims = res.json().agent.active_claims;
      expect(claims).toHaveLength(2);
      expect(claims).toEqual(
        expect.arrayContaining([
          {
            bounty_id: claimed.id,
            project_id: p1.id,
            title: 'Claimed one',
            status: 'claimed',
            claimed_at: claimedAt,
          },
          {
            bounty_id: inReview.id,
            project_id: p2.id,
            title: 'In review one',
            status: 'in_review',
            claimed_at: inReviewAt,
          },
        ]),
      );
      expect((await me(founder.headers)).json().agent.active_claims).toEqual([]);
      expect(
        (await me(other.headers)).json().agent.active_claims.map((c: { bounty_id: string }) => c.bounty_id),
      ).toEqual([othersClaim.id]);
    });
  });

  describe('GET /api/agents/{id}', () => {
    it('returns only the public fields, without authentication', async () => {
      const a = await agent();
      const res = await send({ method: 'GET', url: `/api/agents/${a.id}` });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json().agent;
      expect(Object.keys(body).sort()).toEqual(PUBLIC_FIELDS);
      expect(body).toEqual({
        id: a.id,
        name: a.name,
        wallet_address: a.walletAddress,
        wallet_type: 'external',
        repo_login: a.name.toLowerCase(),
        created_at: ctx.clock.now().toISOString(),
      });
    });

    it('shows null wallet fields for an agent without a wallet', async () => {
      const a = await agent({ wallet_address: null });
      const body = (await send({ method: 'GET', url: `/api/agents/${a.id}` })).json().agent;
      expect(body.wallet_address).toBeNull();
      expect(body.wallet_type).toBeNull();
    });

    it('ignores an Authorization header that is not a valid key', async () => {
      const a = await agent();
      const res = await send({
        method: 'GET',
        url: `/api/agents/${a.id}`,
        headers: { authorization: 'Bearer nonsense' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().agent.id).toBe(a.id);
    });

    it.each([
      ['an unknown id', `agent_${'0'.repeat(32)}`],
      ['a project-shaped id', `proj_${'a'.repeat(32)}`],
      ['upper-case hex', `agent_${'A'.repeat(32)}`],
      ['a short id', 'agent_123'],
      ['free text', 'nobody'],
      ['an over-long id', `agent_${'a'.repeat(200)}`],
    ])('answers 404 not_found for %s', async (_case, id) => {
      expectError(await send({ method: 'GET', url: `/api/agents/${id}` }), 404, 'not_found');
    });

    it('answers 404 for an id that differs from a real one in case', async () => {
      const a = await agent();
      expectError(await send({ method: 'GET', url: `/api/agents/${a.id.toUpperCase()}` }), 404, 'not_found');
    });
  });

  describe('PATCH /api/agents/me/wallet', () => {
    const patch = (who: TestAgent, payload: unknown) =>
      send({
        method: 'PATCH',
        url: '/api/agents/me/wallet',
        headers: who.headers,
        payload: payload as object,
      });

    it('sets an external wallet on an agent without one, checksummed', async () => {
      const a = await agent({ wallet_address: null });
      const address = randomAddress();
      const res = await patch(a, { wallet_address: address });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json().agent;
      expect(Object.keys(body).sort()).toEqual(PUBLIC_FIELDS);
      expect(body.id).toBe(a.id);
      expect(body.wallet_address).toBe(getAddress(address));
      expect(body.wallet_type).toBe('external');
      const own = (await me(a.headers)).json().agent;
      expect(own.wallet_address).toBe(getAddress(address));
      expect(own.wallet_type).toBe('external');
    });

    it('replaces an existing wallet', async () => {
      const a = await agent();
      const address = randomAddress();
      const res = await patch(a, { wallet_address: address });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().agent.wallet_address).toBe(getAddress(address));
      expect((await send({ method: 'GET', url: `/api/agents/${a.id}` })).json().agent.wallet_address).toBe(
        getAddress(address),
      );
    });

    it('accepts the caller own current wallet again, in any case', async () => {
      const a = await agent();
      const res = await patch(a, {
        wallet_address: `0x${(a.walletAddress as string).slice(2).toUpperCase()}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().agent.wallet_address).toBe(a.walletAddress);
    });

    it.each<[string, unknown, string]>([
      ['missing wallet_address', {}, 'wallet_address'],
      ['malformed wallet_address', { wallet_address: '0xnothex' }, 'wallet_address'],
      ['null wallet_address', { wallet_address: null }, 'wallet_address'],
      [
        'unknown field',
        { wallet_address: randomAddress(), wallet_type: 'walletvendor_inapp' },
        'wallet_type',
      ],
    ])('rejects a %s with 400 naming the field', async (_case, payload, field) => {
      const a = await agent();
      const err = expectError(await patch(a, payload), 400, 'validation_error');
      expect(err.details?.map((d) => d.field)).toContain(field);
      expect((await me(a.headers)).json().agent.wallet_address).toBe(a.walletAddress);
    });

    it('refuses a platform wallet and keeps the old one', async () => {
      const a = await agent();
      expectError(
        await patch(a, { wallet_address: chain.info.treasuryAddress.toLowerCase() }),
        400,
        'platform_wallet',
      );
      expect((await me(a.headers)).json().agent.wallet_address).toBe(a.walletAddress);
    });

    it('refuses a wallet another agent uses and keeps the old one', async () => {
      const owner = await agent();
      const a = await agent();
      const res = await patch(a, { wallet_address: (owner.walletAddress as string).toLowerCase() });
      expectError(res, 409, 'wallet_taken');
      expect((await me(a.headers)).json().agent.wallet_address).toBe(a.walletAddress);
    });
  });

  describe('POST /api/agents/me/rotate-key', () => {
    const rotate = (headers: Record<string, string>) =>
      send({ method: 'POST', url: '/api/agents/me/rotate-key', headers });

    it('returns a new key that works while the old one stops at once', async () => {
      const a = await agent();
      const res = await rotate(a.headers);
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(res.json())).toEqual(['api_key']);
      const key = res.json().api_key as string;
      expect(key).toMatch(API_KEY);
      expect(key).not.toBe(a.apiKey);

      const fresh = await me({ authorization: `Bearer ${key}` });
      expect(fresh.statusCode, fresh.body).toBe(200);
      expect(fresh.json().agent.id).toBe(a.id);
      const stale = await me(a.headers);
      expectError(stale, 401, 'unauthorized');
      expect(stale.headers['www-authenticate']).toBe('Bearer');
      expectError(await rotate(a.headers), 401, 'unauthorized');
    });

    it('retires each key in turn', async () => {
      const a = await agent();
      const second = (await rotate(a.headers)).json().api_key as string;
      const third = (await rotate({ authorization: `Bearer ${second}` })).json().api_key as string;
      expectError(await me({ authorization: `Bearer ${second}` }), 401, 'unauthorized');
      expect((await me({ authorization: `Bearer ${third}` })).statusCode).toBe(200);
    });
  });

  describe('POST /api/agents/me/generate-wallet', () => {
    const generate = (who: TestAgent) =>
      send({ method: 'POST', url: '/api/agents/me/generate-wallet', headers: who.headers });

    it('refuses with 400 wallet_already_set when the agent has a wallet', async () => {
      const a = await agent();
      expectError(await generate(a), 400, 'wallet_already_set');
      expect((await me(a.headers)).json().agent.wallet_address).toBe(a.walletAddress);
    });

    it('answers 503 wallets_unavailable when no wallet master key is configured', async () => {
      const a = await agent({ wallet_address: null });
      expectError(await generate(a), 503, 'wallets_unavailable');
      const own = (await me(a.headers)).json().agent;
      expect(own.wallet_address).toBeNull();
      expect(own.wallet_type).toBeNull();
    });
  });
});
