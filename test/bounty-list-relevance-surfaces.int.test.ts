import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relevanceId, seedBountyList, seedRelevanceRows } from './helpers/bounty-list-seed.ts';
import { appForFile, listening } from './helpers/builders.ts';
import { cliInProcess } from './helpers/cli-in-process.ts';

/**
 * `sort=relevance` on every surface that lists bounties: the board's Sort select, MCP's
 * `search_bounties` (its input is the API's query schema) and the CLI's `bounty bounties --sort`
 * answer the API's order, and refuse relevance without words to search for.
 */
const ctx = appForFile();
const base = listening(ctx);
let tmp: string;
const RANKED = [relevanceId(2), relevanceId(1), relevanceId(3)];

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'relevance-'));
  await seedBountyList(ctx.database);
  await seedRelevanceRows(ctx.database);
});
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function searchBounties(args: Record<string, unknown>): Promise<CallToolResult> {
  const client = new Client({ name: 'relevance-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base()}/mcp`)));
  try {
    return (await client.callTool({ name: 'search_bounties', arguments: args })) as CallToolResult;
  } finally {
    await client.close();
  }
}

describe('sort=relevance on every surface', () => {
  it('the API ranks title matches first', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/bounties?q=quasar&sort=relevance' });
    expect(res.json().bounties.map((b: { id: string }) => b.id)).toEqual(RANKED);
  });

  it('the board sorts by best match from its Sort select, and says what it needs', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/?q=quasar&sort=relevance' });
    expect(res.statusCode).toBe(200);
    const shown = [...res.body.matchAll(/data-bounty-id="(bnt_[0-9a-f]+)"/g)].map((m) => m[1]);
    expect([...new Set(shown)]).toEqual(RANKED);
    expect(res.body).toMatch(/<option value="relevance" selected>Best match/);
    const newest = await ctx.app.inject({ method: 'GET', url: '/?q=quasar' });
    expect(newest.body).toMatch(/<option value="" selected>Newest first/);
    const refused = await ctx.app.inject({ method: 'GET', url: '/?sort=relevance' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Sort: best match ranks search results; type words to search for.');
  });

  it("MCP's search_bounties takes sort from the API's schema", async () => {
    const ranked = await searchBounties({ q: 'quasar', sort: 'relevance' });
    expect(ranked.isError ?? false).toBe(false);
    const found = ranked.structuredContent as { bounties: { id: string }[] };
    expect(found.bounties.map((b) => b.id)).toEqual(RANKED);
    const refused = await searchBounties({ sort: 'relevance' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ code: 'validation_error' });
  });

  it("the CLI's --sort", async () => {
    const out = await cliInProcess(['bounties', '--q', 'quasar', '--sort', 'relevance', '--json'], {
      apiUrl: base(),
      apiKey: '',
      configHome: tmp,
    });
    expect(JSON.parse(out).bounties.map((b: { id: string }) => b.id)).toEqual(RANKED);
  });
});
