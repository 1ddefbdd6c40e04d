import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from './helpers/app.ts';
import {
  type EarningsConsole,
  rowOf,
  type Sale,
  SPONSOR,
  setUpEarningsConsole,
  TOKEN,
} from './helpers/console-earnings.ts';
import type { FakeChain } from './helpers/fake-chain.ts';
import { type Browserless, errorsOf } from './helpers/web-forms.ts';

/**
 * "Sell all" from the contributor's earnings in the console: sponsored when the wallet holds no
 * ETH, refused in tokens when it cannot be done. The FakeChain's in-app wallet and sponsor are
 * stubbed (test/helpers/console-earnings.ts): a sale moves the tokens on its ledger.
 */

let ctx: TestContext;
let chain: FakeChain;
let web: Browserless;
let devAddress: string;
let devSession: string;
let earned: EarningsConsole['earned'];
let bought: EarningsConsole['bought'];
let heldOf: EarningsConsole['heldOf'];

/** ETH per address; an address without any cannot pay gas (the real wallet's insufficient_eth). */
const eth = new Map<string, bigint>();
/** What the sponsor says a sale's gas costs (proceeds at or below it: amount_too_small). */
let sponsorGas = 10n ** 10n;
const sales: Sale[] = [];

beforeAll(async () => {
  ({ ctx, chain, web, devAddress, devSession, earned, bought, heldOf } = await setUpEarningsConsole({
    eth,
    sponsorGas: () => sponsorGas,
    sales,
  }));
});

afterAll(async () => {
  await ctx?.close();
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
