import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerAgent } from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';

/**
 * `tools/list` fits a client's context and every client can read it: under 30 KB in all, no
 * `type` arrays and no empty schemas (what the MCP Inspector reports as not portable), each output
 * schema one level deep with the JSON type of each top-level field.
 */

let base: string;

const ctx = appForFile();
beforeAll(async () => {
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});

async function listTools(apiKey?: string) {
  const client = new Client({ name: 'tools-list-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} },
    }),
  );
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

/** Every place a JSON Schema sits inside `schema`, with its path. */
function* schemasIn(schema: unknown, path: string): Generator<[string, Record<string, unknown>]> {
  if (typeof schema !== 'object' || schema === null) return;
  const s = schema as Record<string, unknown>;
  yield [path, s];
  for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, unknown>))
    yield* schemasIn(v, `${path}.properties.${k}`);
  if (s.items) yield* schemasIn(s.items, `${path}.items`);
  if (typeof s.additionalProperties === 'object')
    yield* schemasIn(s.additionalProperties, `${path}.additionalProperties`);
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    for (const [i, v] of ((s[key] ?? []) as unknown[]).entries()) yield* schemasIn(v, `${path}.${key}.${i}`);
}

describe('tools/list', () => {
  it('is under 30 KB, with portable schemas only', async () => {
    const agent = await registerAgent(ctx.app);
    for (const tools of [await listTools(), await listTools(agent.apiKey)]) {
      expect(tools.length).toBeGreaterThan(20);
      const size = JSON.stringify(tools).length;
      expect(size, `tools/list is ${size} bytes`).toBeLessThan(30 * 1024);
      for (const tool of tools) {
        for (const [where, schema] of [
          ...schemasIn(tool.inputSchema, `${tool.name}.input`),
          ...schemasIn(tool.outputSchema, `${tool.name}.output`),
        ]) {
          expect(Array.isArray(schema.type), `${where}: a type array`).toBe(false);
          expect(Object.keys(schema).length, `${where}: an empty schema`).toBeGreaterThan(0);
          expect(schema.$schema, `${where}: $schema repeated`).toBeUndefined();
        }
        expect(tool.inputSchema.type).toBe('object');
        if (tool.outputSchema) expect(tool.outputSchema.additionalProperties, tool.name).toBe(true);
      }
    }
  });

  it('still names each output field with its type: get_bounty and review_queue', async () => {
    const tools = await listTools();
    const props = (name: string) =>
      (tools.find((t) => t.name === name)?.outputSchema?.properties ?? {}) as Record<
        string,
        { type?: string }
      >;
    expect(props('get_bounty').bounty?.type).toBe('object');
    expect(props('get_bounty').comments?.type).toBe('array');
    expect(props('review_queue').reviews?.type).toBe('array');
    expect(props('review_queue').total?.type).toBe('number');
  });
});
