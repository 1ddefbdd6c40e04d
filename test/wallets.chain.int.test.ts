import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { EvmChain } from '../src/infra/chain/evm-chain.ts';
import type { WalletVault } from '../src/infra/chain/wallet-vault.ts';
import { loadConfig } from '../src/infra/config.ts';
import { projects } from '../src/infra/db/schema.ts';
import {
  buildTestApp,
  createProject,
  expectError,
  markProjectActive,
  randomAddress,
  registerAgent,
  type TestContext,
} from './helpers/app.ts';
import { startTestChain, type TestChain } from './helpers/chain.ts';
import {
  ETH,
  ethBalance,
  expectNoKey,
  faucet,
  newVault,
  ok,
  post,
  privateKeyOf,
  sealedKeyOf,
  walletOf,
} from './helpers/wallets.ts';

const NOTHING_EARNED = { completed: 0, earned_eth_units: '0', projects: [] };

describe('in-app wallets', () => {
  let tc: TestChain;
  let vault: WalletVault;
  let ctx: TestContext;
  /** The same database without a master key: agents registered here get no wallet. */
  let bare: TestContext;
  beforeAll(async () => {
    tc = await startTestChain();
    vault = newVault();
    ctx = await buildTestApp({ chain: tc.chain, vault });
    bare = await buildTestApp({ chain: tc.chain, database: ctx.database });
  });
  afterAll(async () => {
    await bare?.close();
    await ctx?.close();
    await tc?.stop();
  });

  const inApp = () => registerAgent(ctx.app, { wallet_address: null });
  const walletless = () => registerAgent(bare.app, { wallet_address: null });

  describe('registration', () => {
    it('creates a checksummed in-app wallet when no wallet_address is given', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/agents/register',
        payload: { name: `inapp-${Date.now()}` },
      });
      const agent = ok<{ agent: Record<string, string> }>(res, 201).agent;
      expect(agent.wallet_type).toBe('walletvendor_inapp');
      expect(agent.wallet_address).toBe(getAddress(agent.wallet_address as string));
      const key = await privateKeyOf(ctx, vault, agent.id as string);
      expect(privateKeyToAccount(key).address).toBe(agent.wallet_address);
      expectNoKey(res.body, key);
      const sealed = await sealedKeyOf(ctx, agent.id as string);
      expect(res.body).not.toContain(sealed?.encryptedKey);
      expect(res.body).not.toContain(sealed?.wrappedDataKey);

      const own = await ctx.app.inject({
        method: 'GET',
        url: '/api/agents/me',
        headers: { authorization: `Bearer ${agent.api_key}` },
      });
      const pub = await ctx.app.inject({ method: 'GET', url: `/api/agents/${agent.id}` });
      const feed = await ctx.app.inject({ method: 'GET', url: `/api/activity?agent_id=${agent.id}` });
      expect(pub.json().agent).toMatchObject({
        wallet_address: agent.wallet_address,
        wallet_type: 'walletvendor_inapp',
      });
      expect(feed.json().activity.map((e: { type: string }) => e.type)).toEqual(['agent.registered']);
      for (const body of [own.body, pub.body, feed.body]) {
        expectNoKey(body, key);
        expect(body).not.toContain(sealed?.encryptedKey);
      }
    });

    it('keeps a given wallet_address external and seals no key for it', async () => {
      const a = await registerAgent(ctx.app, { wallet_address: tc.account(5).address.toLowerCase() });
      expect((await walletOf(ctx.app, a)).wallet_type).toBe('external');
      expect(await sealedKeyOf(ctx, a.id)).toBeUndefined();
    });

    it('keeps an in-app address to its owner, who may switch back to it', async () => {
      const a = await inApp();
      const inAppAddress = a.walletAddress as string;
      const patch = (who: typeof a, wallet_address: string) =>
        ctx.app.inject({
          method: 'PATCH',
          url: '/api/agents/me/wallet',
          headers: who.headers,
          payload: { wallet_address },
        });
      expect((await patch(a, randomAddress())).json().agent.wallet_type).toBe('external');
      const b = await registerAgent(ctx.app);
      expectError(await patch(b, inAppAddress.toLowerCase()), 409, 'wallet_taken');
      const taken = await ctx.app.inject({
        method: 'POST',
        url: '/api/agents/register',
        payload: { name: `taker-${Date.now()}`, wallet_address: inAppAddress },
      });
      expectError(taken, 409, 'wallet_taken');
      const back = (await patch(a, inAppAddress)).json().agent;
      expect(back).toMatchObject({ wallet_address: inAppAddress, wallet_type: 'walletvendor_inapp' });
      expect((await walletOf(ctx.app, a)).wallet_type).toBe('walletvendor_inapp');
    });

    it('creates no wallet without a master key', async () => {
      const a = await walletless();
      expect(a.walletAddress).toBeNull();
      expect(await sealedKeyOf(ctx, a.id)).toBeUndefined();
    });
  });

  describe('the sealed key', () => {
    it('holds no plaintext key, and only its own master key opens it', async () => {
      const a = await inApp();
      const b = await inApp();
      const sealed = (await sealedKeyOf(ctx, a.id)) as NonNullable<Awaited<ReturnType<typeof sealedKeyOf>>>;
      const key = await privateKeyOf(ctx, vault, a.id);
      expect(sealed.address).toBe(a.walletAddress);
      for (const field of [sealed.encryptedKey, sealed.wrappedDataKey]) {
        expectNoKey(field, key);
        expectNoKey(Buffer.from(field, 'base64').toString('hex'), key);
      }
      expect(() => newVault().unseal(sealed)).toThrow();
      // Bound to its address: b's ciphertext on a's row does not open.
      const other = (await sealedKeyOf(ctx, b.id)) as typeof sealed;
      expect(() => vault.unseal({ ...sealed, encryptedKey: other.encryptedKey })).toThrow();
      expect(() => vault.unseal({ ...other, address: sealed.address })).toThrow();
    });
  });

  describe('public config', () => {
    it('says wallet generation is enabled only with a master key', async () => {
      const config = async (c: TestContext) =>
        (await c.app.inject({ method: 'GET', url: '/api/config/public' })).json().config;
      expect(await config(ctx)).toMatchObject({ wallet_generation_enabled: true, dev_chain: true });
      expect((await config(bare)).wallet_generation_enabled).toBe(false);
      expect(JSON.stringify(await config(ctx))).not.toMatch(/[0-9a-f]{64}/i);
    });

    it("publishes the embedded dev chain's own RPC URL", async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/config/public' });
      expect(res.json().config.chain).toMatchObject({ id: 31337, rpc_url: tc.rpcUrl });
    });
  });

  describe('POST /api/agents/me/generate-wallet', () => {
    it('gives an agent without a wallet an in-app one, once', async () => {
      const a = await walletless();
      const res = await post(ctx.app, a, '/api/agents/me/generate-wallet');
      const agent = ok<{ agent: Record<string, string> }>(res).agent;
      expect(agent).toMatchObject({ id: a.id, wallet_type: 'walletvendor_inapp' });
      expect(agent.wallet_address).toBe(getAddress(agent.wallet_address as string));
      const key = await privateKeyOf(ctx, vault, a.id);
      expect(privateKeyToAccount(key).address).toBe(agent.wallet_address);
      expectNoKey(res.body, key);
      expect(await walletOf(ctx.app, a)).toMatchObject({
        address: agent.wallet_address,
        wallet_type: 'walletvendor_inapp',
      });
      expectError(await post(ctx.app, a, '/api/agents/me/generate-wallet'), 400, 'wallet_already_set');
    });

    it('creates exactly one wallet when called concurrently', async () => {
      const a = await walletless();
      const results = await Promise.all(
        Array.from({ length: 5 }, () => post(ctx.app, a, '/api/agents/me/generate-wallet')),
      );
      const codes = results.map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, 400, 400, 400, 400]);
      for (const r of results.filter((x) => x.statusCode === 400)) expectError(r, 400, 'wallet_already_set');
      const winner = results.find((r) => r.statusCode === 200)?.json().agent.wallet_address;
      expect((await sealedKeyOf(ctx, a.id))?.address).toBe(winner);
    });

    it('is 503 without a master key, and 400 first when a wallet is set', async () => {
      expectError(
        await post(bare.app, await walletless(), '/api/agents/me/generate-wallet'),
        503,
        'wallets_unavailable',
      );
      expectError(
        await post(bare.app, await inApp(), '/api/agents/me/generate-wallet'),
        400,
        'wallet_already_set',
      );
    });
  });

  describe('GET /api/agents/me/wallet', () => {
    it('shows the in-app wallet and its exact ETH balance', async () => {
      const a = await inApp();
      expect(await walletOf(ctx.app, a)).toEqual({
        address: a.walletAddress,
        wallet_type: 'walletvendor_inapp',
        eth_balance_units: '0',
        // Read from the node the first time, at the head: kept with that block from then on.
        eth_balance_block: String(await tc.pub.getBlockNumber({ cacheTime: 0 })),
        tokens: [],
        earnings: NOTHING_EARNED,
        // The dev chain has a sponsor: SPONSORED_WITHDRAWALS_PER_DAY (5) token withdraws a day.
        sponsored_withdrawals_left: 5,
      });
      await faucet(ctx.app, a, 3n * ETH);
      expect((await walletOf(ctx.app, a)).eth_balance_units).toBe((3n * ETH).toString());
    });

    it('shows an external wallet with its balance on chain', async () => {
      const address = tc.account(6).address;
      const a = await registerAgent(ctx.app, { wallet_address: address });
      expect(await walletOf(ctx.app, a)).toEqual({
        address,
        wallet_type: 'external',
        eth_balance_units: (await ethBalance(tc, address)).toString(),
        eth_balance_block: String(await tc.pub.getBlockNumber({ cacheTime: 0 })),
        tokens: [],
        earnings: NOTHING_EARNED,
        // An external wallet signs for itself: nothing is sponsored.
        sponsored_withdrawals_left: null,
      });
    });

    it('is all null for an agent without a wallet', async () => {
      expect(await walletOf(ctx.app, await walletless())).toEqual({
        address: null,
        wallet_type: null,
        eth_balance_units: null,
        eth_balance_block: null,
        tokens: [],
        earnings: NOTHING_EARNED,
        sponsored_withdrawals_left: null,
      });
    });
  });

  describe('POST /api/dev/faucet', () => {
    it('sends one ETH by default, to in-app and external wallets alike', async () => {
      const a = await inApp();
      const res = ok(await post(ctx.app, a, '/api/dev/faucet'));
      expect(res).toMatchObject({ address: a.walletAddress, eth_units: ETH.toString() });
      expect(res.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await ethBalance(tc, a.walletAddress as string)).toBe(ETH);
      const ext = await registerAgent(ctx.app, { wallet_address: randomAddress() });
      ok(await post(ctx.app, ext, '/api/dev/faucet', {}));
      expect(await ethBalance(tc, ext.walletAddress as string)).toBe(ETH);
    });

    it('sends up to 100 ETH exactly', async () => {
      const a = await inApp();
      await faucet(ctx.app, a, 100n * ETH);
      await faucet(ctx.app, a, 1n);
      expect(await ethBalance(tc, a.walletAddress as string)).toBe(100n * ETH + 1n);
    });

    it('refuses bad amounts with 400 validation_error', async () => {
      const a = await inApp();
      for (const eth_units of [
        '0',
        '000',
        '-1',
        '1.5',
        '1e18',
        '',
        1,
        (100n * ETH + 1n).toString(),
        '9'.repeat(79),
      ]) {
        const err = expectError(
          await post(ctx.app, a, '/api/dev/faucet', { eth_units }),
          400,
          'validation_error',
        );
        expect(err.details?.[0]?.field).toBe('eth_units');
      }
      expectError(await post(ctx.app, a, '/api/dev/faucet', { eth: '1' }), 400, 'validation_error');
      expect(await ethBalance(tc, a.walletAddress as string)).toBe(0n);
    });

    it('is 400 no_wallet for an agent without a wallet', async () => {
      expectError(await post(ctx.app, await walletless(), '/api/dev/faucet'), 400, 'no_wallet');
    });

    it('sends one at a time: ten concurrent calls all succeed with distinct transactions', async () => {
      const agents = await Promise.all(Array.from({ length: 10 }, () => inApp()));
      const answers = await Promise.all(agents.map((a) => post(ctx.app, a, '/api/dev/faucet')));
      const hashes = answers.map((res) => ok(res).tx_hash);
      expect(new Set(hashes).size).toBe(10);
      for (const a of agents) expect(await ethBalance(tc, a.walletAddress as string)).toBe(ETH);
    });

    it('does not exist off the dev chain', async () => {
      const chain = new EvmChain({ ...tc.options, devChain: false });
      const prod = await buildTestApp({ chain, vault, database: ctx.database });
      try {
        const a = await inApp();
        expectError(await post(prod.app, a, '/api/dev/faucet'), 404, 'not_found');
        const paths = (await prod.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths;
        expect(Object.keys(paths)).not.toContain('/api/dev/faucet');
        expect(Object.keys(paths)).toContain('/api/agents/me/wallet');
        const devPaths = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths;
        expect(Object.keys(devPaths)).toContain('/api/dev/faucet');
      } finally {
        await prod.close();
      }
    });
  });

  describe('POST /api/agents/me/wallet/withdraw', () => {
    it("refuses a project's token or curve contract as the destination, in any letter case", async () => {
      const a = await inApp();
      await faucet(ctx.app, a, ETH);
      const project = await createProject(ctx.app, a);
      await markProjectActive(ctx, project.id);
      const [row] = await ctx.database.db.select().from(projects).where(eq(projects.id, project.id));
      for (const to of [row?.tokenAddress, row?.curveAddress?.toUpperCase().replace('0X', '0x')]) {
        const err = expectError(
          await post(ctx.app, a, '/api/agents/me/wallet/withdraw', { to, amount_units: '1' }),
          400,
          'invalid_destination',
        );
        expect(err.details?.[0]?.field).toBe('to');
      }
      expect(await ethBalance(tc, a.walletAddress as string)).toBe(ETH);
    });
  });

  describe('logs', () => {
    it('never carry a private key, even when a signed action fails', async () => {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      });
      const logged = await buildApp({
        database: ctx.database,
        chain: tc.chain,
        clock: ctx.clock,
        config: loadConfig({
          RATE_LIMIT_PER_KEY_PER_MINUTE: '100000',
          RATE_LIMIT_PER_IP_PER_MINUTE: '100000',
        }),
        vault,
        logger: pino({ level: 'trace' }, sink),
      });
      try {
        const a = await inApp();
        await faucet(logged, a, ETH);
        // The whole balance leaves nothing for gas: refused (400, never a 502) after the key
        // was unsealed and the transaction estimated, and the refusal is logged.
        const res = await post(logged, a, '/api/agents/me/wallet/withdraw', {
          to: randomAddress(),
          amount_units: ETH.toString(),
        });
        expectError(res, 400, 'insufficient_eth');
        expect(await ethBalance(tc, a.walletAddress as string)).toBe(ETH);
        const text = lines.join('\n');
        expect(text).toContain('"statusCode":400');
        expectNoKey(text, await privateKeyOf(ctx, vault, a.id));
      } finally {
        await logged.close();
      }
    });
  });
});
