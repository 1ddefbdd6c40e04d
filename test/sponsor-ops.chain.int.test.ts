import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from './helpers/app.ts';
import { startTestChain, type TestChain } from './helpers/chain.ts';
import { ethBalance } from './helpers/wallets.ts';

/** The sponsor key, as operators see it: its balance in /metrics and a warning on /readyz. */
describe('the sponsor key in operations', () => {
  let tc: TestChain;
  const apps: TestContext[] = [];
  const app = async (env: Record<string, string> = {}) => {
    const ctx = await buildTestApp({ chain: tc.chain, env });
    apps.push(ctx);
    return ctx.app;
  };

  beforeAll(async () => {
    tc = await startTestChain();
  });
  afterAll(async () => {
    for (const c of apps) await c.close();
    await tc?.stop();
  });

  it('reports its balance in wei on /metrics', async () => {
    const res = await (await app()).inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    const line = res.body.split('\n').find((l) => l.startsWith('sponsor_balance_wei '));
    const balance = await ethBalance(tc, tc.chain.sponsor.address as string);
    expect(Number(line?.split(' ')[1])).toBe(Number(balance));
  });

  it('warns on /readyz below SPONSOR_LOW_BALANCE_WEI, and stays ready', async () => {
    const balance = await ethBalance(tc, tc.chain.sponsor.address as string);
    const low = await (await app({ SPONSOR_LOW_BALANCE_WEI: (balance + 1n).toString() })).inject({
      method: 'GET',
      url: '/readyz',
    });
    expect(low.statusCode).toBe(200);
    expect(low.json()).toEqual({ status: 'ok', warnings: ['sponsor_low_balance'] });
    const fine = await (await app({ SPONSOR_LOW_BALANCE_WEI: balance.toString() })).inject({
      method: 'GET',
      url: '/readyz',
    });
    expect(fine.json()).toEqual({ status: 'ok' });
  });
});
