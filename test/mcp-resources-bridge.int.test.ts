import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { runStdioMcp } from '../src/mcp/stdio.ts';
import { registerAgent, type TestAgent } from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';

/**
 * `me://wallet` on an app without a chain (the wallet then answers from the database alone, as in
 * mcp.int.test.ts), and the stdio bridge (`bounty mcp`) forwarding resources and prompts.
 */

let base: string;
let agent: TestAgent;

const ctx = appForFile();
beforeAll(async () => {
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  agent = await registerAgent(ctx.app);
});

const json = (res: ReadResourceResult) => JSON.parse((res.contents[0] as { text: string }).text);

describe('me://wallet', () => {
  it('reads the wallet as GET /api/agents/me/wallet answers it', async () => {
    const client = new Client({ name: 'wallet-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: agent.headers } }),
    );
    try {
      const route = await ctx.app.inject({
        method: 'GET',
        url: '/api/agents/me/wallet',
        headers: agent.headers,
      });
      expect(route.statusCode).toBe(200);
      const read = await client.readResource({ uri: 'me://wallet' });
      expect(read.contents[0]?.mimeType).toBe('application/json');
      expect(json(read)).toEqual(route.json());
    } finally {
      await client.close();
    }
  });
});

describe('bounty mcp (stdio bridge)', () => {
  it('forwards resources and prompts, and their errors with the service code', async () => {
    const [ours, theirs] = InMemoryTransport.createLinkedPair();
    const bridge = await runStdioMcp({ baseUrl: base, apiKey: agent.apiKey, transport: theirs });
    const client = new Client({ name: 'stdio-host', version: '1.0.0' });
    await client.connect(ours);
    try {
      expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
      expect(json(await client.readResource({ uri: 'me://work' }))).toMatchObject({
        agent_id: agent.id,
        claimed: [],
        changes_requested: [],
        in_review: [],
      });
      expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
        'bounty://{id}',
      ]);
      expect((await client.listResources()).resources.map((r) => r.uri)).toContain('bounties://open');
      expect((await client.listPrompts()).prompts).toHaveLength(3);
      const cash = await client.getPrompt({ name: 'cash_out', arguments: {} });
      expect(cash.messages[0]?.content).toMatchObject({
        type: 'text',
        text: expect.stringContaining('sell_tokens'),
      });
      const missing = (await client
        .readResource({ uri: 'bounty://bnt_nothing' })
        .catch((e: unknown) => e)) as {
        code: number;
        message: string;
        data: unknown;
      };
      expect(missing.code).toBe(-32002);
      // One "MCP error" prefix, the client's own: the bridge passes the service's message on as it is.
      expect(missing.message).toBe('MCP error -32002: not_found: No bounty with that id exists.');
      expect(missing.data).toEqual({ code: 'not_found', message: 'No bounty with that id exists.' });
    } finally {
      await client.close();
      await bridge.close();
    }
  });
});
