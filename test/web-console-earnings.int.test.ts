import { formatEther, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokensToUnits } from '../src/infra/chain/chain.ts';
import { AppError } from '../src/lib/errors.ts';
import { formatEth } from '../src/web/public/format.ts';
import {
  buildTestApp,
  createBounty,
  createProject,
  markProjectActive,
  registerAgent,
  type TestAgent,
  type TestContext,
} from './helpers/app.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { newVault, ok, post } from './helpers/wallets.ts';
import { type Browserless, browserless, errorsOf } from './helpers/web-forms.ts';

/**
 * The contributor's earnings in the console: per project what it earned, holds and what that sells
 * for now, and "Sell all" behind a confirmation, sponsored when the wallet holds no ETH. The
 * FakeChain's in-app wallet and sponsor are stubbed here: a sale moves the tokens on its ledger.
 */

const TOKEN = 10n ** 18n;
const SPONSOR = '0x00000000000000000000000000000000000000E5';

let ctx: TestContext;
let chain: FakeChain;
let web: Browserless;
let founder: TestAgent;
let dev: TestAgent;
let devAddress: string;
let devSession: string;
let earned: { id: string; token: string; curve: string };
let bought: { id: string; token: string; curve: string };

/** ETH per address; an address without any cannot pay gas (the real wallet's insufficient_eth). */
const eth = new Map<string, bigint>();
/** What the sponsor says a sale's gas costs (proceeds at or below it: amount_too_small). */
let sponsorGas = 10n ** 10n;
const sales: { kind: 'own' | 'sponsored'; from: string; curve: string; units: bigint }[] = [];
let txs = 0;
const nextTx = () => `0x${(++txs).toString(16).padStart(64, 'c')}`;

function stubCashOut(c: FakeChain) {
  const tokenOfCurve = (curve: string) => {
    const p = [earned, bought].find((x) => x.curve.toLowerCase() === curve.toLowerCase());
    if (!p) throw new Error(`no project has curve ${curve}`);
    return p.token;
  };
  const worth = async (curve: string, units: bigint) => {
    const s = await c.readCurve(curve);
    // A flat enough quote for these tests: the stored curve's price now, less 1%.
    return (((s.a + (s.b * s.supplyUnits) / TOKEN) * units) / TOKEN / 100n) * 99n;
  };
  const move = async (key: string, curve: string, units: bigint) => {
    const from = privateKeyToAccount(key as Hex).address;
    const token = tokenOfCurve(curve);
    const f = await c.readFunds(token, from);
    if (f.balanceUnits < units) throw new Error('the fake sale outran the balance check');
    c.setFundsUnits(token, from, f.balanceUnits - units, f.allowanceUnits);
    return from;
  };
  Object.assign(c.wallets, {
    ethBalance: async (address: string) => eth.get(address.toLowerCase()) ?? 0n,
    tokenBalance: async (token: string, owner: string) => (await c.readFunds(token, owner)).balanceUnits,
    sell: async (key: string, curve: string, units: bigint) => {
      const from = privateKeyToAccount(key as Hex).address;
      if (!eth.get(from.toLowerCase())) {
        throw new AppError('insufficient_eth', 'The wallet holds 0 ETH; the gas of this sale needs some.');
      }
      await move(key, curve, units);
      sales.push({ kind: 'own', from, curve, units });
      return { txHash: nextTx(), ethUnits: await worth(curve, units) };
    },
  });
  Object.assign(c.sponsor, {
    address: SPONSOR,
    quoteSale: async (_key: string, curve: string, units: bigint) => ({
      proceedsUnits: await worth(curve, units),
      gasUnits: sponsorGas,
    }),
    sell: async (key: string, curve: string, units: bigint) => {
      const from = await move(key, curve, units);
      sales.push({ kind: 'sponsored', from, curve, units });
      return {
        txHash: nextTx(),
        ethUnits: (await worth(curve, units)) - sponsorGas,
        gasEthUnits: sponsorGas,
      };
    },
  });
}

async function activeProject(name: string, symbol: string) {
  const p = await createProject(ctx.app, founder, { name, token_symbol: symbol });
  const { tokenAddress } = await markProjectActive(ctx, p.id);
  const curve = (await ctx.app.services.projects.require(p.id)).curveAddress as string;
  // The factory's curve (a = 1e12 wei, b = 1e3 wei) with 10,000 tokens minted.
  chain.setCurve(curve, { a: 10n ** 12n, b: 1000n, supplyUnits: tokensToUnits(10_000) });
  chain.setFunds(tokenAddress, founder.walletAddress as string, 5000n);
  return { id: p.id, token: tokenAddress, curve };
}

beforeAll(async () => {
  chain = new FakeChain();
  ctx = await buildTestApp({ chain, vault: newVault() });
  web = browserless(ctx.app);
  founder = await registerAgent(ctx.app);
  dev = await registerAgent(ctx.app, { wallet_address: null });
  devAddress = (await ctx.app.services.directory.require(dev.id)).walletAddress as string;
  earned = await activeProject('Earnings Works', 'EARN');
  bought = await activeProject('Bought Works', 'BUYS');
  await ctx.app.services.holdings.refreshMissingCurves();
  stubCashOut(chain);
  // Paid for one bounty: 100 EARN less the 5% fee.
  const bounty = await createBounty(ctx.app, founder, earned.id, { reward_amount: 100 });
  ok(await post(ctx.app, dev, `/api/bounties/${bounty.id}/claim`));
  const repoUrl = (await ctx.app.services.projects.get(earned.id)).repo_url as string;
  ok(await post(ctx.app, dev, `/api/bounties/${bounty.id}/submit`, { pr_url: `${repoUrl}/pull/1` }), 201);
  ok(await post(ctx.app, founder, `/api/bounties/${bounty.id}/approve`));
  // Held but not earned: 1,234.5 BUYS, as if bought outside the service.
  chain.setFundsUnits(bought.token, devAddress, 12345n * 10n ** 17n, 0n);
  await ctx.app.services.holdings.afterAction(bought.id, [devAddress]);
  devSession = await web.signIn(dev.apiKey);
});

afterAll(async () => {
  await ctx?.close();
});

/** The markup of one project's row in the earnings table. */
function rowOf(html: string, projectId: string): string {
  const m = new RegExp(`<tr id="earning-${projectId}">[\\s\\S]*?</tr>`).exec(html);
  expect(m, `row of ${projectId}`).not.toBeNull();
  return m?.[0] ?? '';
}

const heldOf = async (projectId: string) =>
  (await ctx.app.services.wallets.show({ id: dev.id, walletAddress: devAddress })).tokens.find(
    (t) => t.project_id === projectId,
  );

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

describe('"Sell all"', () => {
  it('sells the whole balance without ETH: the platform pays the gas and takes it back', async () => {
    const before = sales.length;
    const units = 95n * TOKEN;
    const { res, page } = await web.submit(devSession, `/console/projects/${earned.id}/sell`, {
      tokens_units: units.toString(),
    });
    expect(res.headers.location).toBe('/console');
    expect(sales.slice(before)).toEqual([
      {
        kind: 'sponsored',
        from: expect.stringMatching(new RegExp(devAddress, 'i')),
        curve: earned.curve,
        units,
      },
    ]);
    const flash = /class="flash flash-ok"[^>]*><p>([^<]*)<\/p>/.exec(page.body)?.[1] ?? '';
    expect(flash).toMatch(
      /^Sold 95 EARN: you received 0\.[0-9]+ ETH after 0\.00000001 ETH of gas, which the platform paid and took back from the sale \(no ETH needed\)\. Transaction 0x[0-9a-f]{64}\.$/,
    );
    // The holdings were read again: nothing left to sell in that project.
    expect(await heldOf(earned.id)).toBeUndefined();
    const row = rowOf(page.body, earned.id);
    expect(row).toMatch(/You hold now <\/span>0 EARN/);
    expect(row).not.toContain('sell-all');
    expect(row).toMatch(/Earned <\/span>95 EARN/);
  });

  it('a confirmation whose balance is gone is refused in tokens, and nothing is sold', async () => {
    const before = sales.length;
    const res = await web.post(devSession, `/console/projects/${earned.id}/sell`, {
      tokens_units: (95n * TOKEN).toString(),
    });
    expect(res.statusCode).toBe(400);
    expect(errorsOf(res.body).join(' ')).toContain('Your wallet no longer holds 95 EARN');
    expect(sales.length).toBe(before);
  });

  it('a sale too small to pay for its gas shows on its form, in tokens, and sells nothing', async () => {
    const before = sales.length;
    const wei = BigInt((await heldOf(bought.id))?.value_eth_units as string);
    sponsorGas = wei * 2n;
    try {
      const res = await web.post(devSession, `/console/projects/${bought.id}/sell`, {
        tokens_units: (12345n * 10n ** 17n).toString(),
      });
      expect(res.statusCode).toBe(400);
      const form = /<form[^>]*id="sell-[^"]+"[\s\S]*?<\/form>/.exec(
        res.body.slice(res.body.indexOf(`<tr id="earning-${bought.id}">`)),
      )?.[0];
      const message = /id="sell-[^"]+-message">([^<]*)</.exec(form ?? '')?.[1] ?? '';
      expect(message).toMatch(
        /^Selling 1,234\.5 BUYS pays less than the gas of the sale, which the platform pays and takes back from it: a sale needs at least [0-9,.]+ BUYS now; sell once you have earned more\.$/,
      );
      // The confirmation stays open on the error.
      expect(rowOf(res.body, bought.id)).toContain('<details class="sell-all" open>');
      expect(res.body).not.toMatch(/faucet|fund the wallet/i);
      expect(sales.length).toBe(before);
    } finally {
      sponsorGas = 10n ** 10n;
    }
  });

  it('without a sponsor, insufficient_eth is shown on the form with its message', async () => {
    const sponsor = chain.sponsor as unknown as { address: string | null };
    sponsor.address = null;
    try {
      const res = await web.post(devSession, `/console/projects/${bought.id}/sell`, {
        tokens_units: (12345n * 10n ** 17n).toString(),
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain(`id="sell-${bought.id}-message"`);
      expect(errorsOf(res.body).join(' ')).toContain(
        'The wallet holds 0 ETH; the gas of this sale needs some.',
      );
    } finally {
      sponsor.address = SPONSOR;
    }
  });

  it('refuses a form without the CSRF token, and sells nothing', async () => {
    const before = sales.length;
    const res = await web.post(
      devSession,
      `/console/projects/${bought.id}/sell`,
      { tokens_units: TOKEN.toString() },
      { csrf: null },
    );
    expect(res.statusCode).toBe(403);
    expect(sales.length).toBe(before);
  });

  it('a wallet with ETH pays its own gas: nothing is taken back', async () => {
    eth.set(devAddress.toLowerCase(), 10n ** 17n);
    try {
      const { page } = await web.submit(devSession, `/console/projects/${bought.id}/sell`, {
        tokens_units: (12345n * 10n ** 17n).toString(),
      });
      expect(sales.at(-1)).toMatchObject({ kind: 'own', units: 12345n * 10n ** 17n });
      const flash = /class="flash flash-ok"[^>]*><p>([^<]*)<\/p>/.exec(page.body)?.[1] ?? '';
      expect(flash).toMatch(/^Sold 1,234\.5 BUYS: you received [0-9.,]+ ETH\. Transaction 0x[0-9a-f]{64}\.$/);
      expect(await heldOf(bought.id)).toBeUndefined();
    } finally {
      eth.delete(devAddress.toLowerCase());
    }
  });
});
