import { beforeAll, describe, expect, it } from 'vitest';
import { unitsToTokens } from '../src/infra/chain/chain.ts';
import {
  buildTestApp,
  createBounty,
  createProject,
  expectError,
  randomAddress,
  registerAgent,
  type TestAgent,
} from './helpers/app.ts';
import { chainAppForFile } from './helpers/builders.ts';
import { activateOnChain, tokenBalance } from './helpers/chain.ts';
import {
  allowanceOf,
  ETH,
  ethBalance,
  faucet,
  gasCost,
  newVault,
  ok,
  post,
  quoteBuy,
  quoteSell,
  TOKEN,
} from './helpers/wallets.ts';

describe('in-app wallet actions on a real chain', () => {
  const { ctx, tc } = chainAppForFile((tc) => ({ chain: tc.chain, vault: newVault() }));
  let founder: TestAgent;
  let project: { id: string; token: string; curve: string };
  const me = () => founder.walletAddress as string;
  const tokens = () => tokenBalance(tc, project.token, me());
  const status = async (who = founder) =>
    ctx.app.inject({
      method: 'GET',
      url: `/api/projects/${project.id}/approval-status`,
      headers: who.headers,
    });

  beforeAll(async () => {
    founder = await registerAgent(ctx.app, { wallet_address: null });
    await faucet(ctx.app, founder, 50n * ETH);
    const p = await createProject(ctx.app, founder);
    const deployed = await activateOnChain(ctx, tc, p.id, p.token_symbol);
    project = { id: p.id, token: deployed.tokenAddress, curve: deployed.curveAddress };
  });

  it('buys exactly what the curve quotes, at exactly its price in ETH', async () => {
    const quote = await quoteBuy(tc, project.curve, ETH);
    const ethBefore = await ethBalance(tc, me());
    const res = ok(
      await post(ctx.app, founder, `/api/projects/${project.id}/buy`, { eth_units: ETH.toString() }),
    );
    expect(res.tokens_units).toBe(quote.toString());
    expect(res.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await tokens()).toBe(quote);
    expect(await ethBalance(tc, me())).toBe(ethBefore - ETH - (await gasCost(tc, res.tx_hash as string)));
  });

  it('reports approval status before and after the allowance and bounties, exactly', async () => {
    const balance = await tokens();
    expect(ok(await status())).toEqual({
      balance: unitsToTokens(balance),
      allowance: '0',
      committed: '0',
      available: '0',
    });
    const res = ok(await post(ctx.app, founder, `/api/projects/${project.id}/allowance`, { amount: 500 }));
    expect(res.allowance_units).toBe((500n * TOKEN).toString());
    expect(await allowanceOf(tc, project.token, me())).toBe(500n * TOKEN);
    await gasCost(tc, res.tx_hash as string);
    expect(ok(await status())).toEqual({
      balance: unitsToTokens(balance),
      allowance: '500',
      committed: '0',
      available: '500',
    });

    await createBounty(ctx.app, founder, project.id, { reward_amount: 200 });
    expect(ok(await status())).toMatchObject({ committed: '200', available: '300' });
    const over = await post(ctx.app, founder, `/api/projects/${project.id}/bounties`, {
      title: 'Too much',
      description: 'More than the allowance covers.',
      reward_amount: 301,
    });
    expectError(over, 400, 'insufficient_funds');
    await createBounty(ctx.app, founder, project.id, { reward_amount: 300 });
    expect(ok(await status())).toMatchObject({ committed: '500', available: '0' });

    // Lowering the allowance below what is committed shows the shortfall as a negative figure.
    ok(await post(ctx.app, founder, `/api/projects/${project.id}/allowance`, { amount: 100 }));
    expect(ok(await status())).toMatchObject({ allowance: '100', committed: '500', available: '-400' });
    ok(await post(ctx.app, founder, `/api/projects/${project.id}/allowance`, { amount: 0 }));
    expect(await allowanceOf(tc, project.token, me())).toBe(0n);
  });

  it('sells exactly what the curve quotes', async () => {
    const amount = 1234n * TOKEN + 5n;
    const [before, ethBefore, quote] = await Promise.all([
      tokens(),
      ethBalance(tc, me()),
      quoteSell(tc, project.curve, amount),
    ]);
    const res = ok(
      await post(ctx.app, founder, `/api/projects/${project.id}/sell`, { tokens_units: amount.toString() }),
    );
    expect(res.eth_units).toBe(quote.toString());
    expect(await tokens()).toBe(before - amount);
    expect(await ethBalance(tc, me())).toBe(ethBefore + quote - (await gasCost(tc, res.tx_hash as string)));
  });

  it('refuses a buy or sale past its slippage bound with 400 slippage, moving nothing', async () => {
    const [before, ethBefore] = await Promise.all([tokens(), ethBalance(tc, me())]);
    const tokensOut = await quoteBuy(tc, project.curve, ETH / 10n);
    const buy = await post(ctx.app, founder, `/api/projects/${project.id}/buy`, {
      eth_units: (ETH / 10n).toString(),
      min_tokens_units: (tokensOut + 1n).toString(),
    });
    expect(expectError(buy, 400, 'slippage').message).toContain(tokensOut.toString());
    const ethOut = await quoteSell(tc, project.curve, TOKEN);
    const sell = await post(ctx.app, founder, `/api/projects/${project.id}/sell`, {
      tokens_units: TOKEN.toString(),
      min_eth_units: (ethOut + 1n).toString(),
    });
    expectError(sell, 400, 'slippage');
    expect(await tokens()).toBe(before);
    expect(await ethBalance(tc, me())).toBe(ethBefore);
    // A bound the curve meets goes through.
    const met = await post(ctx.app, founder, `/api/projects/${project.id}/buy`, {
      eth_units: (ETH / 10n).toString(),
      min_tokens_units: tokensOut.toString(),
    });
    expect(ok(met).tokens_units).toBe(tokensOut.toString());
  });

  it('withdraws tokens and ETH to an outside address, exactly', async () => {
    const to = randomAddress();
    const amount = 12n * TOKEN + TOKEN / 2n;
    const before = await tokens();
    const res = ok(
      await post(ctx.app, founder, '/api/agents/me/wallet/withdraw', {
        to,
        amount_units: amount.toString(),
        project_id: project.id,
      }),
    );
    expect(await tokenBalance(tc, project.token, to)).toBe(amount);
    expect(await tokens()).toBe(before - amount);
    await gasCost(tc, res.tx_hash as string);

    const ethTo = randomAddress();
    const ethBefore = await ethBalance(tc, me());
    const sent = ok(
      await post(ctx.app, founder, '/api/agents/me/wallet/withdraw', {
        to: ethTo,
        amount_units: '123456789',
      }),
    );
    expect(await ethBalance(tc, ethTo)).toBe(123456789n);
    expect(await ethBalance(tc, me())).toBe(
      ethBefore - 123456789n - (await gasCost(tc, sent.tx_hash as string)),
    );
  });

  it('refuses amounts the wallet does not hold: 400 insufficient_funds for tokens, insufficient_eth for ETH', async () => {
    const [held, eth] = await Promise.all([tokens(), ethBalance(tc, me())]);
    const cases: [string, unknown, string][] = [
      [`/api/projects/${project.id}/buy`, { eth_units: (eth + 1n).toString() }, 'insufficient_eth'],
      [`/api/projects/${project.id}/sell`, { tokens_units: (held + 1n).toString() }, 'insufficient_funds'],
      [
        '/api/agents/me/wallet/withdraw',
        { to: randomAddress(), amount_units: (held + 1n).toString(), project_id: project.id },
        'insufficient_funds',
      ],
      [
        '/api/agents/me/wallet/withdraw',
        { to: randomAddress(), amount_units: (eth + 1n).toString() },
        'insufficient_eth',
      ],
      // The amount fits but the gas on top does not: never a 502.
      [
        '/api/agents/me/wallet/withdraw',
        { to: randomAddress(), amount_units: eth.toString() },
        'insufficient_eth',
      ],
    ];
    for (const [url, body, code] of cases) {
      const res = await post(ctx.app, founder, url, body);
      expectError(res, 400, code);
      if (code === 'insufficient_eth') expect(res.json().error.message).toMatch(/is missing/);
    }
    expect(await tokens()).toBe(held);
    expect(await ethBalance(tc, me())).toBe(eth);
  });

  it('serializes concurrent actions of one wallet, so none loses its nonce', async () => {
    const before = await tokens();
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        post(ctx.app, founder, `/api/projects/${project.id}/buy`, { eth_units: (ETH / 100n).toString() }),
      ),
    );
    const bought = results.map((r) => BigInt(ok(r).tokens_units as string));
    expect(new Set(results.map((r) => r.json().tx_hash)).size).toBe(4);
    expect(await tokens()).toBe(before + bought.reduce((a, b) => a + b, 0n));
  });

  describe('who may act', () => {
    const actions = () =>
      [
        [`/api/projects/${project.id}/buy`, { eth_units: '1000' }],
        [`/api/projects/${project.id}/sell`, { tokens_units: '1000' }],
        [`/api/projects/${project.id}/allowance`, { amount: 10 }],
        ['/api/agents/me/wallet/withdraw', { to: randomAddress(), amount_units: '1' }],
        [
          '/api/agents/me/wallet/withdraw',
          { to: randomAddress(), amount_units: '1', project_id: project.id },
        ],
      ] as const;

    it('is 400 external_wallet for an agent with an external wallet', async () => {
      const ext = await registerAgent(ctx.app, { wallet_address: tc.account(7).address });
      for (const [url, body] of actions())
        expectError(await post(ctx.app, ext, url, body), 400, 'external_wallet');
    });

    it('is 400 external_wallet while an in-app agent uses an external wallet', async () => {
      const a = await registerAgent(ctx.app, { wallet_address: null });
      const inAppAddress = a.walletAddress as string;
      await faucet(ctx.app, a, ETH);
      const patch = await ctx.app.inject({
        method: 'PATCH',
        url: '/api/agents/me/wallet',
        headers: a.headers,
        payload: { wallet_address: randomAddress() },
      });
      expect(patch.statusCode, patch.body).toBe(200);
      for (const [url, body] of actions())
        expectError(await post(ctx.app, a, url, body), 400, 'external_wallet');
      // Back on its in-app address, the service signs for it again.
      const back = await ctx.app.inject({
        method: 'PATCH',
        url: '/api/agents/me/wallet',
        headers: a.headers,
        payload: { wallet_address: inAppAddress },
      });
      expect(back.json().agent.wallet_type).toBe('walletvendor_inapp');
      ok(await post(ctx.app, a, `/api/projects/${project.id}/buy`, { eth_units: '1000000000000' }));
    });

    it('is 400 no_wallet for an agent without a wallet', async () => {
      const bare = await buildTestApp({ chain: tc.chain, database: ctx.database });
      try {
        const none = await registerAgent(bare.app, { wallet_address: null });
        for (const [url, body] of actions())
          expectError(await post(ctx.app, none, url, body), 400, 'no_wallet');
      } finally {
        await bare.close();
      }
    });

    it('lets any agent trade and set its own allowance, not only the founder', async () => {
      const other = await registerAgent(ctx.app, { wallet_address: null });
      await faucet(ctx.app, other, ETH);
      ok(
        await post(ctx.app, other, `/api/projects/${project.id}/buy`, { eth_units: (ETH / 10n).toString() }),
      );
      ok(await post(ctx.app, other, `/api/projects/${project.id}/allowance`, { amount: 1 }));
      expect(await allowanceOf(tc, project.token, other.walletAddress as string)).toBe(TOKEN);
    });

    it('keeps approval status to the founder (403)', async () => {
      const other = await registerAgent(ctx.app, { wallet_address: null });
      expectError(await status(other), 403, 'forbidden');
    });
  });

  describe('project state', () => {
    it('is 409 invalid_state on a proposed project and 400 token_not_deployed for its status', async () => {
      const proposed = await createProject(ctx.app, founder);
      const cases: [string, unknown][] = [
        [`/api/projects/${proposed.id}/buy`, { eth_units: '1000' }],
        [`/api/projects/${proposed.id}/sell`, { tokens_units: '1000' }],
        [`/api/projects/${proposed.id}/allowance`, { amount: 1 }],
        [
          '/api/agents/me/wallet/withdraw',
          { to: randomAddress(), amount_units: '1', project_id: proposed.id },
        ],
      ];
      for (const [url, body] of cases)
        expectError(await post(ctx.app, founder, url, body), 409, 'invalid_state');
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/projects/${proposed.id}/approval-status`,
        headers: founder.headers,
      });
      expectError(res, 400, 'token_not_deployed');
    });

    it('is 404 for an unknown or malformed project', async () => {
      for (const id of ['proj_00000000000000000000000000', 'nope']) {
        expectError(
          await post(ctx.app, founder, `/api/projects/${id}/buy`, { eth_units: '1' }),
          404,
          'not_found',
        );
        const w = { to: randomAddress(), amount_units: '1', project_id: id };
        expectError(await post(ctx.app, founder, '/api/agents/me/wallet/withdraw', w), 404, 'not_found');
        const res = await ctx.app.inject({
          method: 'GET',
          url: `/api/projects/${id}/approval-status`,
          headers: founder.headers,
        });
        expectError(res, 404, 'not_found');
      }
    });
  });

  describe('validation', () => {
    const tooBig = (2n ** 256n).toString();
    const bad: [string, string, unknown][] = [
      ['buy', 'eth_units', {}],
      ['buy', 'eth_units', { eth_units: '0' }],
      ['buy', 'eth_units', { eth_units: '-5' }],
      ['buy', 'eth_units', { eth_units: '1.5' }],
      ['buy', 'eth_units', { eth_units: 1000 }],
      ['buy', 'eth_units', { eth_units: tooBig }],
      ['buy', 'min_tokens_units', { eth_units: '1', min_tokens_units: 'x' }],
      ['buy', 'min_tokens_units', { eth_units: '1', min_tokens_units: tooBig }],
      ['buy', 'slippage', { eth_units: '1', slippage: '1' }],
      ['sell', 'tokens_units', { tokens_units: '00' }],
      ['sell', 'min_eth_units', { tokens_units: '1', min_eth_units: '-1' }],
      ['allowance', 'amount', {}],
      ['allowance', 'amount', { amount: -1 }],
      ['allowance', 'amount', { amount: 1_000_000_001 }],
      ['allowance', 'amount', { amount: 1.5 }],
      ['allowance', 'amount', { amount: '5' }],
      ['withdraw', 'to', { to: '0x123', amount_units: '1' }],
      ['withdraw', 'to', { amount_units: '1' }],
      ['withdraw', 'amount_units', { to: randomAddress(), amount_units: '0' }],
      ['withdraw', 'amount_units', { to: randomAddress(), amount_units: tooBig }],
    ];
    it.each(bad)('%s: 400 validation_error on %s (%j)', async (action, field, body) => {
      const url =
        action === 'withdraw' ? '/api/agents/me/wallet/withdraw' : `/api/projects/${project.id}/${action}`;
      const err = expectError(await post(ctx.app, founder, url, body), 400, 'validation_error');
      expect(err.details?.map((d) => d.field)).toContain(field);
    });
  });
});
