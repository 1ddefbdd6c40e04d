import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/errors.ts';
import { insufficient } from '../src/modules/wallets/wallet-input.ts';
import { createBounty, createProject, type TestAgent, type TestContext } from './helpers/app.ts';
import { block, setUpFinishConsole, TOKEN } from './helpers/console-finish.ts';
import { type Browserless, errorsOf, type stubWalletChain } from './helpers/web-forms.ts';

/**
 * The console finished for people (continued from web-console-finish.int.test.ts), through
 * `app.inject` as a browser without JavaScript: errors are in words with the fix linked, the
 * one-claim rule is said, and the live parts answer alone.
 */

let ctx: TestContext;
let chain: ReturnType<typeof stubWalletChain>;
let web: Browserless;
let founder: TestAgent;
let dev: TestAgent;
let founderSession: string;
let devSession: string;
let founderAddress: string;
let active: { id: string; token: string; symbol: string };
let activate: (projectId: string) => Promise<string>;
let ethWei = 10n * TOKEN;

beforeAll(async () => {
  ({ ctx, chain, web, founder, dev, founderSession, devSession, founderAddress, active, activate } =
    await setUpFinishConsole(() => ethWei));
});

afterAll(async () => {
  await ctx?.close();
});

describe('errors in words', () => {
  it('says the rule of a field, never its regex, in the console and the API', async () => {
    const bad = await web.post(founderSession, '/console/projects', { name: 'Bad', token_symbol: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(block(bad.body, 'p', 'create-project-token_symbol-error')).toContain(
      'must be 2 to 11 capital letters or digits',
    );
    expect(bad.body).not.toContain('must match pattern');
    const api = await ctx.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: founder.headers,
      payload: { name: 'Bad', token_symbol: 'x' },
    });
    expect(api.statusCode).toBe(400);
    expect(api.json().error.details).toContainEqual({
      field: 'token_symbol',
      message: 'must be 2 to 11 capital letters or digits',
    });
    const withdraw = await web.post(founderSession, '/console/withdraw', {
      project_id: '',
      amount: '1',
      to: 'nope',
    });
    expect(block(withdraw.body, 'p', 'withdraw-to-error')).toContain(
      'must be an address: 0x followed by 40 hexadecimal digits',
    );
  });

  it('a bounty the funds cannot cover says so in tokens and links to buying and the allowance', async () => {
    chain.setFunds(active.token, founderAddress, 1000n, 250n);
    const res = await web.post(founderSession, `/console/projects/${active.id}/bounties`, {
      title: 'Too big',
      description: 'More than the allowance',
      reward_amount: '5000',
      difficulty: 'hard',
    });
    expect(res.statusCode).toBe(400);
    const message = block(res.body, 'p', `bounty-${active.id}-message`);
    expect(message).toContain('Not enough funds for a reward of 5,000 FINW');
    expect(message).toContain('of your balance (1,000 FINW) and allowance (250)');
    expect(message).toContain(`<a href="#buy-${active.id}-open">Buy tokens</a>`);
    expect(message).toContain(`<a href="#allowance-${active.id}-open">Raise the allowance</a>`);
    // The page's summary at the top links them too; the form is open with what was typed.
    expect(errorsOf(res.body).join(' ')).toContain('Buy tokens');
    expect(res.body).toMatch(
      new RegExp(`<details class="post-bounty" open>\\s*<summary id="bounty-${active.id}-open">`),
    );
    expect(res.body).toContain('value="Too big"');
  });

  it('a wallet short of ETH says what it holds and links to the faucet', async () => {
    const w = chain.wallets as unknown as { buy: (...args: unknown[]) => Promise<unknown> };
    const buy = w.buy;
    w.buy = async () => {
      throw new AppError(
        'insufficient_eth',
        'The wallet 0x… holds 0 ETH but this needs about 0.500042 ETH (500042 wei).',
      );
    };
    ethWei = 0n;
    try {
      const res = await web.post(founderSession, `/console/projects/${active.id}/buy`, { eth: '0.5' });
      expect(res.statusCode).toBe(400);
      const message = block(res.body, 'p', `buy-${active.id}-message`);
      expect(message).toContain(
        'Your wallet holds 0 ETH: spending 0.5 ETH needs that much and the gas. Get test ETH with the faucet, then try again.',
      );
      expect(message).toContain('<a href="#faucet">Get test ETH</a>');
      expect(message).not.toContain('wei');
    } finally {
      w.buy = buy;
      ethWei = 10n * TOKEN;
    }
  });

  it('the wallet says what it holds and what is needed in tokens, not base units', () => {
    expect(insufficient('token units', 0n, 5n * 10n ** 17n).message).toBe(
      'The wallet holds 0 tokens but this needs 0.5 (0 and 500000000000000000 token units).',
    );
    expect(insufficient('wei', 10n ** 18n, 25n * 10n ** 17n).message).toBe(
      'The wallet holds 1 ETH but this needs 2.5 (1000000000000000000 and 2500000000000000000 wei).',
    );
  });
});

describe('bounties you can claim', () => {
  it('says which projects the one-claim rule hides, instead of dropping their bounties silently', async () => {
    const other = await createProject(ctx.app, founder, { name: 'Rule Works', token_symbol: 'RULE' });
    const tokenAddress = await activate(other.id);
    chain.setFunds(tokenAddress, founderAddress, 1000n, 1000n);
    const first = await createBounty(ctx.app, founder, other.id, { title: 'Rule one' });
    await createBounty(ctx.app, founder, other.id, { title: 'Rule two' });
    await createBounty(ctx.app, founder, other.id, { title: 'Rule three' });
    const before = (await web.get(devSession, '/console')).body;
    expect(before).toContain('Rule two');
    await web.submit(devSession, `/console/bounties/${first.id}/claim`, {});
    const after = (await web.get(devSession, '/console')).body;
    const open = block(after, 'section', 'claimable');
    expect(open).not.toContain('Rule two');
    expect(open.replace(/<[^>]+>/g, '')).toContain(
      'You hold a claim on Rule Works: one active claim per project, so its other open bounties are not listed here',
    );
    expect(open).toContain(`<a href="/projects/${other.id}">Rule Works</a>`);
  });
});

describe('live parts', () => {
  it('answer ?fragment=live with the part alone, and nothing without a session', async () => {
    const part = await web.get(founderSession, '/console/reviews?fragment=live');
    expect(part.statusCode).toBe(200);
    expect(part.headers['cache-control']).toBe('no-store');
    expect(part.body.trimStart()).toMatch(
      /^<div id="reviews-live" data-live-region data-live-url="\/console\/reviews\?fragment=live" data-live-projects="[^"]*\b/,
    );
    expect(part.body).toContain(active.id);
    expect(part.body).not.toContain('<html');
    const overview = await web.get(devSession, '/console?fragment=live');
    expect(overview.body.trimStart()).toMatch(/^<div id="overview-live"/);
    expect(overview.body).toContain(`data-live-agent="${dev.id}"`);
    for (const url of ['/console/reviews?fragment=live', '/console?fragment=live', '/console/events']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(res.body).toBe('');
    }
    // Without the parameter the page is whole, with the stream to follow and the types it wants.
    const page = (await web.get(founderSession, '/console/reviews')).body;
    expect(page).toMatch(
      /<p id="live-status" data-live-since="evt_[0-9a-f]{32}" class="live-status" role="status" aria-live="polite" data-live-for="reviews-live" data-live-stream="\/console\/events" data-live-types="[^"]*submission\.created[^"]*"/,
    );
  });
});
