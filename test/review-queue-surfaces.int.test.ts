import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAgent } from './helpers/app.ts';
import { type ActiveProject, activeProject, ok } from './helpers/bounty-flows.ts';
import { appForFile, listening, pullRequestInReview } from './helpers/builders.ts';
import { cliInProcess } from './helpers/cli-in-process.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { browserless } from './helpers/web-forms.ts';

/**
 * One review queue (issue 27): the console's review page, MCP's `review_queue` and the CLI's
 * `bounty reviews` (run in process, on the typed client) show what `GET /api/reviews` answers for
 * the same founder: the same submissions, in the same order, with the same amounts.
 */

const FEE_BPS = 250;

const chain = new FakeChain();
const host = new FakeRepoHost();
const ctx = appForFile({ chain, repoHost: host, env: { PLATFORM_FEE_BPS: String(FEE_BPS) } });
const base = listening(ctx);
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'review-queue-'));
});
afterAll(async () => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

interface Queue {
  reviews: {
    bounty: { id: string; reward_amount: number; project_id: string };
    submission: { id: string };
    payout: { contributor_units: string; fee_units: string };
  }[];
  total: number;
}

const inReview = (p: ActiveProject, reward: number) => pullRequestInReview(ctx, host, p, reward);

async function mcpQueue(founder: TestAgent): Promise<Queue> {
  const client = new Client({ name: 'review-queue-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base()}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${founder.apiKey}` } },
    }),
  );
  try {
    const res = await client.callTool({ name: 'review_queue', arguments: { limit: 100 } });
    expect(res.isError ?? false, JSON.stringify(res.content)).toBe(false);
    return res.structuredContent as unknown as Queue;
  } finally {
    await client.close();
  }
}

/** `bounty <args>` in this process, with the founder's key; what it printed on stdout. */
const cli = (founder: TestAgent, args: string[]) =>
  cliInProcess(args, { apiUrl: base(), apiKey: founder.apiKey, configHome: tmp });

describe('the review queue', () => {
  it('is the same on the API, the console, MCP and the CLI: same submissions, same order, same amounts', async () => {
    const one = await activeProject(ctx, chain);
    const two = await activeProject(ctx, chain, 1_000_000n, one.founder);
    const stranger = await activeProject(ctx, chain);
    await inReview(one, 80);
    await inReview(stranger, 5);
    await inReview(two, 7);
    await inReview(one, 40);
    const founder = one.founder;

    const api = ok<Queue>(
      await ctx.app.inject({ method: 'GET', url: '/api/reviews?limit=100', headers: founder.headers }),
    );
    expect(api.reviews.map((r) => r.bounty.reward_amount)).toEqual([80, 7, 40]);
    // 2.5%: what each line below must say, in whole tokens.
    const words = [
      { contributor: '78', fee: '2' },
      { contributor: '6.825', fee: '0.175' },
      { contributor: '39', fee: '1' },
    ];
    const order = api.reviews.map((r) => r.submission.id);

    // MCP answers exactly what the route does.
    expect(await mcpQueue(founder)).toEqual(api);

    // The CLI: --json is the API's answer; the table lists the same rows in the same order.
    expect(JSON.parse(await cli(founder, ['reviews', '--json', '--limit', '100']))).toEqual(api);
    const table = await cli(founder, ['reviews', '--limit', '100']);
    const rows = table.split('\n').filter((l) => l.startsWith('bnt_'));
    expect(rows.map((l) => order.find((id) => l.includes(id)))).toEqual(order);
    api.reviews.forEach((r, i) => {
      const w = words[i] as (typeof words)[number];
      expect(rows[i]).toMatch(
        new RegExp(`^${r.bounty.id}\\s+${r.bounty.reward_amount}\\s+${w.contributor}\\s+${w.fee}\\s`),
      );
    });

    // The console's queue: the same cards in the same order, each with the same amounts.
    const web = browserless(ctx.app);
    const page = (await web.get(await web.signIn(founder.apiKey), '/console/reviews')).body;
    const cards = [
      ...page.matchAll(/<article class="card review" id="review-([^"]+)">([\s\S]*?)<\/article>/g),
    ];
    expect(cards.map((c) => c[1])).toEqual(api.reviews.map((r) => r.bounty.id));
    api.reviews.forEach((r, i) => {
      const w = words[i] as (typeof words)[number];
      const card = cards[i]?.[2] ?? '';
      expect(card).toContain(`href="/agents/`);
      const symbol =
        r.bounty.project_id === one.project.id ? one.project.token_symbol : two.project.token_symbol;
      expect(card).toContain(`Approving pays <strong>${w.contributor} ${symbol}</strong>`);
      expect(card).toContain(`and ${w.fee} ${symbol} platform fee`);
    });
    expect(page).toContain('Waiting for review <span class="count">(3)</span>');
  });
});
