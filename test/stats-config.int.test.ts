import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { type Address, decodeFunctionData, encodeFunctionResult, getAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectChain } from '../src/infra/chain/connect.ts';
import { payoutRouterAbi } from '../src/infra/chain/contracts/PayoutRouter.ts';
import { projectFactoryAbi } from '../src/infra/chain/contracts/ProjectFactory.ts';
import { loadConfig } from '../src/infra/config.ts';
import type { Database } from '../src/infra/db/client.ts';
import {
  buildTestApp,
  createBounty,
  createProject,
  expectError,
  markProjectActive,
  registerAgent,
  type TestContext,
} from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { reusableTestDatabase } from './helpers/database.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import {
  approve,
  claim,
  inReview,
  nextPrUrl,
  okJson,
  post,
  reject,
  scene,
  submit,
} from './helpers/review-flow.ts';

async function stats(ctx: TestContext) {
  return okJson(await ctx.app.inject({ method: 'GET', url: '/api/dashboard/stats' })).stats;
}

/**
 * A JSON-RPC node that answers only what `connectChain` reads at start: the factory's
 * `payoutRouter()` and the router's `payer()` and `treasury()`. Every call it got is in `calls`.
 */
async function routerNode(o: { factory: Address; router: Address; payer: Address; treasury: Address }) {
  const calls: { path: string; fn: string }[] = [];
  type Call = { id: number; method: string; params?: [{ to?: string; data?: Hex }, ...unknown[]] };
  const answer = (c: Call) => {
    const to = c.params?.[0]?.to ? getAddress(c.params[0].to) : null;
    const data = c.params?.[0]?.data ?? '0x';
    if (c.method === 'eth_call' && to === o.factory) {
      const { functionName } = decodeFunctionData({ abi: projectFactoryAbi, data });
      if (functionName === 'payoutRouter') {
        return {
          fn: functionName,
          result: encodeFunctionResult({ abi: projectFactoryAbi, functionName, result: o.router }),
        };
      }
    }
    if (c.method === 'eth_call' && to === o.router) {
      const { functionName } = decodeFunctionData({ abi: payoutRouterAbi, data });
      if (functionName === 'payer' || functionName === 'treasury') {
        const result = functionName === 'payer' ? o.payer : o.treasury;
        return {
          fn: functionName,
          result: encodeFunctionResult({ abi: payoutRouterAbi, functionName, result }),
        };
      }
    }
    return { fn: c.method, error: { code: -32601, message: `unexpected ${c.method}` } };
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const parsed = JSON.parse(body) as Call | Call[];
      const reply = (c: Call) => {
        const { fn, ...rest } = answer(c);
        calls.push({ path: req.url ?? '', fn });
        return { jsonrpc: '2.0', id: c.id, ...rest };
      };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(reply) : reply(parsed)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function publicConfig(ctx: TestContext) {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/config/public' });
  return okJson(res).config;
}

describe('GET /api/dashboard/stats', () => {
  const chain = new FakeChain();
  const ctx = appForFile({ chain });

  it('is all zeros on an empty service', async () => {
    expect(await stats(ctx)).toEqual({
      agents: 0,
      projects: { total: 0, proposed: 0, active: 0 },
      bounties: { total: 0, open: 0, claimed: 0, in_review: 0, done: 0 },
      rewards: { posted: '0', paid: '0', fees: '0' },
    });
  });

  it('counts a scripted scenario exactly', async () => {
    // Agents: two founders (via scene), three more contributors, one bystander.
    const s = await scene(ctx, chain, { funds: 10_000n }); // founder + dev, active project
    const dev2 = await registerAgent(ctx.app);
    const dev3 = await registerAgent(ctx.app);
    const founder2 = await registerAgent(ctx.app);
    await registerAgent(ctx.app, { wallet_address: null });
    const p2 = await createProject(ctx.app, founder2);
    const p2Chain = await markProjectActive(ctx, p2.id);
    chain.setFunds(p2Chain.tokenAddress, founder2.walletAddress as string, 10_000n);
    await createProject(ctx.app, s.founder); // stays proposed
    await createProject(ctx.app, founder2); // stays proposed

    // Project 1: 100 done, 1 done, 7 in review, 10 claimed, 20 open.
    const a = await inReview(ctx.app, s, { reward: 100 });
    okJson(await approve(ctx.app, s.founder, a.bounty.id));
    const b = await inReview(ctx.app, s, { reward: 1, dev: dev2 });
    okJson(await approve(ctx.app, s.founder, b.bounty.id));
    await inReview(ctx.app, s, { reward: 7, dev: dev3 });
    const claimedBounty = await createBounty(ctx.app, s.founder, s.project.id, { reward_amount: 10 });
    await claim(ctx.app, s.dev, claimedBounty.id);
    await createBounty(ctx.app, s.founder, s.project.id, { reward_amount: 20 });

    // Project 2: 3 submitted then rejected (open again); 9 whose payout failed (still in review).
    const r = await createBounty(ctx.app, founder2, p2.id, { reward_amount: 3 });
    await claim(ctx.app, dev2, r.id);
    await submit(ctx.app, dev2, r.id, nextPrUrl(p2Chain.repoUrl));
    okJson(await reject(ctx.app, founder2, r.id, { review_notes: 'No.' }));
    const f = await createBounty(ctx.app, founder2, p2.id, { reward_amount: 9 });
    await claim(ctx.app, dev3, f.id);
    await submit(ctx.app, dev3, f.id, nextPrUrl(p2Chain.repoUrl));
    // The payout reverts on chain, and again when signed anew: the approval fails, nothing moves.
    const hook = async () => {
      chain.revertNext = true;
      chain.onSign = hook;
    };
    chain.onSign = hook;
    try {
      expectError(await approve(ctx.app, founder2, f.id), 502, 'upstream_error');
    } finally {
      chain.onSign = null;
      chain.revertNext = false;
    }
    expect(chain.paid.filter((t) => t.tokenAddress === p2Chain.tokenAddress.toLowerCase())).toEqual([]);

    // Refused requests change nothing.
    expectError(
      await post(ctx.app, `/api/projects/${s.project.id}/bounties`, s.founder, {
        title: 'Too much',
        description: 'Beyond the funds.',
        reward_amount: 1_000_000,
      }),
      400,
      'insufficient_funds',
    );
    expectError(
      await ctx.app.inject({ method: 'POST', url: '/api/agents/register', payload: { name: s.dev.name } }),
      409,
      'name_taken',
    );

    expect(await stats(ctx)).toEqual({
      agents: 6,
      projects: { total: 4, proposed: 2, active: 2 },
      bounties: { total: 7, open: 2, claimed: 1, in_review: 2, done: 2 },
      rewards: { posted: '150', paid: '101', fees: '5.05' },
    });
  });

  it('sums fees as recorded at each payout, whatever the fee rate is now', async () => {
    const before = await stats(ctx);
    const other = await buildTestApp({ chain, database: ctx.database, env: { PLATFORM_FEE_BPS: '250' } });
    try {
      const s = await scene(other, chain);
      const { bounty } = await inReview(other.app, s, { reward: 3 });
      okJson(await approve(other.app, s.founder, bounty.id));
      // 3 tokens at 2.5% = 0.075 tokens, added to the 5.05 taken at 5%.
      expect(await stats(other)).toEqual({
        agents: before.agents + 2,
        projects: {
          total: before.projects.total + 1,
          proposed: before.projects.proposed,
          active: before.projects.active + 1,
        },
        bounties: { ...before.bounties, total: before.bounties.total + 1, done: before.bounties.done + 1 },
        rewards: { posted: '153', paid: '104', fees: '5.125' },
      });
    } finally {
      await other.close();
    }
    expect((await stats(ctx)).rewards).toEqual({ posted: '153', paid: '104', fees: '5.125' });
  });

  it('needs no authentication', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/dashboard/stats',
      headers: { authorization: 'Bearer x' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /api/config/public', () => {
  // One database for the several apps below: the config does not depend on stored data.
  let database: Database;
  beforeAll(async () => {
    database = await reusableTestDatabase();
  });
  afterAll(() => database.close());

  const LIMIT_KEYS = [
    'claim_ttl_hours',
    'description_max_length',
    'page_size_default',
    'page_size_max',
    'rate_limit_keys_per_ip_per_minute',
    'rate_limit_per_ip_per_minute',
    'rate_limit_per_key_per_minute',
    'register_per_ip_per_hour',
    'request_body_max_bytes',
    'reward_amount_max',
    'title_max_length',
  ];

  /** No field name or value that looks like a credential. */
  function expectNoSecrets(config: unknown, planted: string[] = []) {
    const text = JSON.stringify(config);
    const keys: string[] = [];
    const walk = (v: unknown) => {
      if (v && typeof v === 'object') {
        for (const [k, child] of Object.entries(v)) {
          keys.push(k);
          walk(child);
        }
      }
    };
    walk(config);
    for (const k of keys)
      expect(k).not.toMatch(/secret|private|password|passwd|mnemonic|seed|api_key|credential|auth/i);
    expect(text).not.toMatch(/0x[0-9a-fA-F]{64}/); // a private key or hash-sized value
    expect(text).not.toMatch(/bmk_/); // an API key
    expect(text).not.toMatch(/:\/\/[^/"]*:[^/"]*@/); // a URL with credentials
    for (const p of planted) expect(text).not.toContain(p);
  }

  it('without a chain: chain and addresses are null, payouts are off', async () => {
    const ctx = await buildTestApp({ database });
    try {
      const config = await publicConfig(ctx);
      expect(Object.keys(config).sort()).toEqual(
        [
          'chain',
          'dev_chain',
          'factory_address',
          'limits',
          'payout_spender_address',
          'payouts_enabled',
          'platform_fee_bps',
          'repository_host',
          'treasury_address',
          'wallet_generation_enabled',
        ].sort(),
      );
      expect(config).toMatchObject({
        chain: null,
        factory_address: null,
        payout_spender_address: null,
        treasury_address: null,
        platform_fee_bps: 500,
        payouts_enabled: false,
        dev_chain: false,
        wallet_generation_enabled: false,
      });
      expect(Object.keys(config.limits).sort()).toEqual(LIMIT_KEYS);
      expect(config.limits).toEqual({
        title_max_length: 200,
        description_max_length: 2000,
        reward_amount_max: 1_000_000_000,
        page_size_default: 20,
        page_size_max: 100,
        request_body_max_bytes: 65_536,
        claim_ttl_hours: 72,
        rate_limit_per_ip_per_minute: ctx.config.rateLimit.perIpPerMinute,
        rate_limit_per_key_per_minute: ctx.config.rateLimit.perKeyPerMinute,
        rate_limit_keys_per_ip_per_minute: ctx.config.rateLimit.keysPerIpPerMinute,
        register_per_ip_per_hour: ctx.config.rateLimit.registerPerIpPerHour,
      });
      expectNoSecrets(config);

      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/config/public',
        headers: { authorization: 'Bearer x' },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await ctx.close();
    }
  });

  it('with a chain: shows its public addresses and the configured values, never a secret', async () => {
    const chain = new FakeChain();
    const planted = ['hunter2-db-password', 'redis-pass-xyz'];
    const ctx = await buildTestApp({
      chain,
      database,
      env: {
        PLATFORM_FEE_BPS: '250',
        CLAIM_TTL_HOURS: '24',
        RATE_LIMIT_PER_IP_PER_MINUTE: '123',
        RATE_LIMIT_PER_KEY_PER_MINUTE: '456',
        RATE_LIMIT_REGISTER_PER_IP_PER_HOUR: '7',
        RATE_LIMIT_KEYS_PER_IP_PER_MINUTE: '789',
        DATABASE_URL: `postgres://bm:${planted[0]}@db.internal:5432/bm`,
        REDIS_URL: `redis://:${planted[1]}@cache.internal:6379`,
      },
    });
    try {
      const config = await publicConfig(ctx);
      expect(config).toMatchObject({
        chain: { id: 31337, name: 'fake', rpc_url: chain.info.publicRpcUrl, explorer_url: null },
        factory_address: chain.info.factoryAddress,
        payout_spender_address: chain.info.payoutSpenderAddress,
        treasury_address: chain.info.treasuryAddress,
        platform_fee_bps: 250,
        payouts_enabled: true,
        dev_chain: true,
      });
      expect(config.limits).toMatchObject({
        claim_ttl_hours: 24,
        rate_limit_per_ip_per_minute: 123,
        rate_limit_per_key_per_minute: 456,
        rate_limit_keys_per_ip_per_minute: 789,
        register_per_ip_per_hour: 7,
      });
      expectNoSecrets(config, [...planted, 'db.internal', 'cache.internal']);
    } finally {
      await ctx.close();
    }
  });

  it('on a configured chain publishes CHAIN_PUBLIC_RPC_URL, never CHAIN_RPC_URL and its API key', async () => {
    const apiKey = 'k3y-of-the-rpc-provider';
    const payoutKey = `0x${'22'.repeat(32)}` as const;
    const treasury = getAddress('0x00000000000000000000000000000000000000B1');
    const router = getAddress('0x00000000000000000000000000000000000000D7');
    const node = await routerNode({
      factory: getAddress('0x00000000000000000000000000000000000000F1'),
      router,
      payer: privateKeyToAccount(payoutKey).address,
      treasury,
    });
    const env = {
      CHAIN_RPC_URL: `${node.url}/v2/${apiKey}`,
      CHAIN_ID: '8453',
      CHAIN_NAME: 'Base',
      FACTORY_ADDRESS: '0x00000000000000000000000000000000000000F1',
      TREASURY_ADDRESS: treasury,
      OPERATOR_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
      PAYOUT_PRIVATE_KEY: payoutKey,
    };
    try {
      for (const publicUrl of ['https://mainnet.base.org', undefined]) {
        const config = loadConfig({ ...env, ...(publicUrl ? { CHAIN_PUBLIC_RPC_URL: publicUrl } : {}) });
        // The chain exactly as `npm start` connects it: it reads only the factory's payout router
        // and whom that router lets pay, through CHAIN_RPC_URL.
        node.calls.length = 0;
        const { chain } = await connectChain(config, pino({ level: 'silent' }));
        expect(node.calls.map((c) => c.fn).sort()).toEqual(['payer', 'payoutRouter', 'treasury']);
        expect(node.calls.every((c) => c.path === `/v2/${apiKey}`)).toBe(true);
        const ctx = await buildTestApp({
          chain,
          database,
          env: { ...env, ...(publicUrl ? { CHAIN_PUBLIC_RPC_URL: publicUrl } : {}) },
        });
        try {
          const published = await publicConfig(ctx);
          expect(published.chain).toEqual({
            id: 8453,
            name: 'Base',
            rpc_url: publicUrl ?? null,
            explorer_url: null,
          });
          // Founders approve the payout router, not the payout key that calls it.
          expect(published.payout_spender_address).toBe(router);
          expect(published.treasury_address).toBe(treasury);
          expectNoSecrets(published, [apiKey, node.url.replace('http://', '')]);
        } finally {
          await ctx.close();
        }
      }
    } finally {
      await node.close();
    }
  });

  it('reports payouts_enabled false when the operator disabled payouts', async () => {
    const ctx = await buildTestApp({ chain: new FakeChain(), database, env: { PAYOUTS_ENABLED: 'false' } });
    try {
      const config = await publicConfig(ctx);
      expect(config.payouts_enabled).toBe(false);
      expect(config.platform_fee_bps).toBe(500);
    } finally {
      await ctx.close();
    }
  });
});
