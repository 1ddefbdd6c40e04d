import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokensToUnits } from '../src/infra/chain/chain.ts';
import {
  buildTestApp,
  createBounty,
  createProject,
  markProjectActive,
  registerAgent,
  type TestAgent,
  type TestContext,
} from './helpers/app.ts';
import { cliInProcess } from './helpers/cli-in-process.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { browserless } from './helpers/web-forms.ts';

/**
 * Dollars next to ETH values on every surface: pages show "≈ $12.34", the CLI "($12.34)", MCP tools
 * carry `reward_usd`, where the service has an ETH/USD price (ETH_USD_FEED_ADDRESS), and nothing
 * where it has none: the same database, with and without a feed. (The feed itself on anvil, and
 * the wallet's `value_usd`: eth-usd.chain.int.test.ts.)
 */

const FEED = '0x00000000000000000000000000000000000000fe';
// $3,000,000 per ETH (8 decimals), so the tiny curve quote of the bounty is some dollars.
const ANSWER = 300_000_000_000_000n;

let priced: TestContext;
let plain: TestContext;
let chain: FakeChain;
let founder: TestAgent;
let bounty: { id: string };
let usd: string;
let tmp: string;

beforeAll(async () => {
  chain = new FakeChain();
  priced = await buildTestApp({ chain, env: { ETH_USD_FEED_ADDRESS: FEED } });
  plain = await buildTestApp({ chain, database: priced.database });
  // Set before any answer reads the price (a reading, even none, serves a minute).
  chain.priceFeed = {
    answer: ANSWER,
    decimals: 8,
    updatedAt: BigInt(Math.floor(priced.clock.now().getTime() / 1000)),
  };
  founder = await registerAgent(priced.app);
  const project = await createProject(priced.app, founder);
  const { tokenAddress } = await markProjectActive(priced, project.id);
  const row = await priced.app.services.projects.require(project.id);
  chain.setCurve(row.curveAddress as string, { a: 10n ** 12n, b: 1000n, supplyUnits: tokensToUnits(10_000) });
  await priced.app.services.holdings.refreshMissingCurves();
  chain.setFunds(tokenAddress, founder.walletAddress as string, 6000n, 6000n);
  bounty = await createBounty(priced.app, founder, project.id, { title: 'Priced work', reward_amount: 100 });
  const res = await priced.app.inject({ method: 'GET', url: `/api/bounties/${bounty.id}` });
  usd = res.json().bounty.reward_usd;
  // 95 tokens' share sells for about 9.5e13 wei: about $285 at $3,000,000.
  expect(usd).toMatch(/^[1-9][0-9]{2}\.[0-9]{2}$/);
});

afterAll(async () => {
  await plain?.close();
  await priced?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const page = async (ctx: TestContext, url: string, cookie?: string) => {
  const res = await ctx.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res.body;
};

/** The bounty's card on the board. */
function cardOf(html: string): string {
  const start = html.indexOf(`data-bounty-id="${bounty.id}"`);
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</li>', start));
}

describe('dollars on pages', () => {
  it('the board shows them next to the ETH worth, only with a price', async () => {
    expect(cardOf(await page(priced, '/'))).toContain(`ETH <span class="usd">(≈ $${usd})</span>`);
    const without = cardOf(await page(plain, '/'));
    expect(without).toMatch(/≈ 0\.000\d+ ETH/);
    expect(without).not.toContain('$');
  });

  it("the bounty page shows them next to the contributor's share, only with a price", async () => {
    expect(await page(priced, `/bounties/${bounty.id}`)).toContain(`(≈ $${usd})`);
    expect(await page(plain, `/bounties/${bounty.id}`)).not.toContain('≈ $');
  });

  it("the console's open bounties show them, only with a price", async () => {
    const contributor = await registerAgent(priced.app);
    const withFeed = await browserless(priced.app).signIn(contributor.apiKey);
    expect(await page(priced, '/console', withFeed)).toContain(`≈ $${usd}`);
    const withoutFeed = await browserless(plain.app).signIn(contributor.apiKey);
    const html = await page(plain, '/console', withoutFeed);
    expect(html).toContain(bounty.id);
    expect(html).not.toContain('≈ $');
  });
});

describe('dollars in the CLI and MCP', () => {
  let bases: { priced: string; plain: string };
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'usd-surfaces-'));
    bases = {
      priced: await priced.app.listen({ port: 0, host: '127.0.0.1' }),
      plain: await plain.app.listen({ port: 0, host: '127.0.0.1' }),
    };
  });
  const cli = (base: string, args: string[]) =>
    cliInProcess(args, { apiUrl: base, apiKey: founder.apiKey, configHome: tmp });

  it('the CLI prints them next to the ETH worth, only with a price', async () => {
    expect(await cli(bases.priced, ['bounty', bounty.id])).toContain(` ETH ($${usd}) to you`);
    expect(await cli(bases.priced, ['bounties'])).toContain(` ETH ($${usd})`);
    const without = await cli(bases.plain, ['bounty', bounty.id]);
    expect(without).toMatch(/≈ [0-9.]+ ETH to you/);
    expect(without).not.toContain('$');
  });

  it("MCP's get_bounty carries reward_usd, null without a price", async () => {
    const rewardUsd = async (base: string) => {
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      try {
        const res = (await client.callTool({
          name: 'get_bounty',
          arguments: { bounty_id: bounty.id },
        })) as CallToolResult;
        expect(res.isError ?? false).toBe(false);
        return (res.structuredContent as { bounty: { reward_usd: string | null } }).bounty.reward_usd;
      } finally {
        await client.close();
      }
    };
    expect(await rewardUsd(bases.priced)).toBe(usd);
    expect(await rewardUsd(bases.plain)).toBeNull();
  });
});
