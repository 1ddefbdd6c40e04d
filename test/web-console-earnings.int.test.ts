import { formatEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatEth } from '../src/web/public/format.ts';
import type { TestAgent, TestContext } from './helpers/app.ts';
import { type EarningsConsole, rowOf, setUpEarningsConsole, TOKEN } from './helpers/console-earnings.ts';
import type { Browserless } from './helpers/web-forms.ts';

/**
 * The contributor's earnings in the console: per project what it earned, holds and what that sells
 * for now, and "Sell all" behind a confirmation (its sales: web-console-earnings-sell.int.test.ts).
 * The FakeChain's in-app wallet and sponsor are stubbed (test/helpers/console-earnings.ts).
 */

let ctx: TestContext;
let web: Browserless;
let founder: TestAgent;
let dev: TestAgent;
let devAddress: string;
let devSession: string;
let earned: EarningsConsole['earned'];
let bought: EarningsConsole['bought'];
let heldOf: EarningsConsole['heldOf'];

beforeAll(async () => {
  ({ ctx, web, founder, dev, devAddress, devSession, earned, bought, heldOf } = await setUpEarningsConsole());
});

afterAll(async () => {
  await ctx?.close();
});

describe('the earnings section', () => {
  it('shows per project what was earned, what is held now and what it sells for, with the totals', async () => {
    const page = await web.get(devSession, '/console');
    expect(page.statusCode).toBe(200);
    const wallet = await ctx.app.services.wallets.show({ id: dev.id, walletAddress: devAddress });
    const earn = wallet.tokens.find((t) => t.project_id === earned.id);
    const buys = wallet.tokens.find((t) => t.project_id === bought.id);
    expect(earn?.balance_units).toBe((95n * TOKEN).toString());
    const earnWei = BigInt(earn?.value_eth_units as string);
    const buysWei = BigInt(buys?.value_eth_units as string);
    expect(earnWei).toBeGreaterThan(0n);

    const row = rowOf(page.body, earned.id);
    expect(row).toContain('Earnings Works');
    expect(row).toContain('1 approved submission');
    expect(row).toMatch(/Earned <\/span>95 EARN/);
    expect(row).toMatch(/You hold now <\/span>95 EARN/);
    // People read a few significant digits; the title has every one.
    expect(row).toContain(`title="${formatEther(earnWei)} ETH">≈ ${formatEth(earnWei)} ETH</span>`);
    expect(formatEth(earnWei)).toMatch(/^0\.0*[1-9][0-9]{0,5}$/);

    // Thousands grouped, the exact balance in the title.
    const other = rowOf(page.body, bought.id);
    expect(other).toContain('held, not earned here');
    expect(other).toContain('title="1234.5 BUYS">1,234.5 BUYS</span>');
    expect(other).toContain(`≈ ${formatEth(buysWei)} ETH`);

    const totals = /<dl class="funds earnings-totals">[\s\S]*?<\/dl>/.exec(page.body)?.[0] ?? '';
    expect(totals).toMatch(/Bounties completed<\/dt><dd>1<\/dd>/);
    expect(totals).toContain(`≈ ${formatEth(BigInt(wallet.earnings.earned_eth_units))} ETH`);
    expect(totals).toContain(`≈ ${formatEth(earnWei + buysWei)} ETH`);
  });

  it('offers "Sell all" per held token behind a confirmation that names the amount and its worth', async () => {
    const page = await web.get(devSession, '/console');
    const row = rowOf(page.body, earned.id);
    const wei = BigInt((await heldOf(earned.id))?.value_eth_units as string);
    // The confirmation is a <details>: it opens without JavaScript; the confirm button posts.
    expect(row).toMatch(
      /<details class="sell-all">\s*<summary[^>]*>Sell all<span class="visually-hidden"> EARN<\/span><\/summary>/,
    );
    expect(row).toContain(`action="/console/projects/${earned.id}/sell" id="sell-${earned.id}"`);
    expect(row).toContain('data-pending="Selling 95 EARN…"');
    expect(row).toContain(`<input type="hidden" name="tokens_units" value="${95n * TOKEN}">`);
    expect(row).toContain(`Confirm: sell 95 EARN for ≈ ${formatEth(wei)} ETH</button>`);
    expect(row).toMatch(/name="_csrf" value="[^"]+"/);
    expect(rowOf(page.body, bought.id)).toContain('Confirm: sell 1,234.5 BUYS for ≈');
    // The script that marks a sent form busy (one request per double click) is on the page.
    expect(page.body).toContain('<script src="/assets/console.js" defer></script>');
    const script = await ctx.app.inject({ method: 'GET', url: '/assets/console.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.body).toContain('data-pending');
  });

  it("leaves a founder's own tokens out: they are its stake, not earnings to sell", async () => {
    const session = await web.signIn(founder.apiKey);
    const page = await web.get(session, '/console');
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain(`id="earning-${earned.id}"`);
    expect(page.body).not.toContain(`/console/projects/${earned.id}/sell`);
    expect(page.body).toContain('Approved work pays here');
  });

  it('never tells the contributor to get ETH or use the faucet to sell', async () => {
    const page = await web.get(devSession, '/console');
    expect(page.body).not.toMatch(/faucet/i);
    expect(page.body).not.toMatch(/\b(need|needs|require|requires|get|fund)\b[^.<]{0,20}\bETH\b(?! needed)/i);
    expect(page.body).toContain('No ETH needed');
  });
});
