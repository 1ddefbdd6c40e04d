import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../src/lib/errors.ts';
import { appForFile } from './helpers/builders.ts';

/**
 * What /llms.txt links is readable by a language model: every link answers 200 with Markdown (or
 * JSON for the JSON document and reads), never the JavaScript page at /docs; each operation has a
 * Markdown page generated from its route schema, and docs/api.md is served as Markdown.
 */

let base: string;
let llms: string;
let ops: { key: string; operationId: string }[];

const ctx = appForFile();
beforeAll(async () => {
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  llms = await (await fetch(`${base}/llms.txt`)).text();
  const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  ops = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod)
      .filter(([method]) => method !== 'head')
      .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, operationId: op.operationId })),
  );
});

const links = (md: string) => [...md.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => m[1] as string);

describe('/llms.txt links', () => {
  it('links no /docs# fragment of the JavaScript page, and every operation to its Markdown page', () => {
    expect(llms).not.toMatch(/\/docs#/);
    expect(llms).not.toMatch(/\]\([^)]*\/docs\)/);
    for (const { key, operationId } of ops)
      expect(llms, key).toContain(`[${key}](${base}/docs/operations/${operationId}.md)`);
    expect(links(llms)).toEqual(
      expect.arrayContaining([`${base}/docs/api.md`, `${base}/docs/operations.md`]),
    );
  });

  it('answers every link it lists with 200, its type and a body', async () => {
    const listed = [...new Set(links(llms))];
    expect(listed.length).toBeGreaterThan(ops.length);
    for (const url of listed) {
      expect(url.startsWith(`${base}/`), url).toBe(true);
      const res = await fetch(url);
      const body = await res.text();
      expect(res.status, url).toBe(200);
      const path = new URL(url).pathname;
      const type = path.endsWith('.md') ? 'text/markdown' : 'application/json';
      expect(res.headers.get('content-type'), url).toMatch(new RegExp(`^${type}(;|$)`));
      if (type === 'text/markdown') expect(body.trim().length, url).toBeGreaterThan(100);
      else expect(Object.keys(JSON.parse(body)).length, url).toBeGreaterThan(0);
    }
  });

  it('serves docs/api.md as written, with its MCP section', async () => {
    const res = await fetch(`${base}/docs/api.md`);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const md = await res.text();
    expect(md).toMatch(/^# API decisions/);
    expect(md).toMatch(/^## MCP server$/m);
    expect(llms).toContain(`(${base}/docs/api.md#mcp-server)`);
  });
});

describe('operation pages', () => {
  it('say the method, path, auth, parameters, fields and every error code with its fix', async () => {
    const md = await (await fetch(`${base}/docs/operations/claimBounty.md`)).text();
    expect(md).toMatch(/^# POST \/api\/bounties\/\{id\}\/claim\n\n> Claim an open bounty\n/);
    expect(md).toContain(`\`POST ${base}/api/bounties/{id}/claim\``);
    expect(md).toContain('API key required: `Authorization: Bearer <api_key>`');
    expect(md).toContain('Idempotency-Key');
    expect(md).toMatch(/^\| `id` \| path \| string \| yes \|/m);
    expect(md).toMatch(
      /^\| `bounty\.status` \| "open" \\\| "claimed" \\\| "in_review" \\\| "done" \| yes \|/m,
    );
    expect(md).toMatch(
      /^\| `bounty\.revision_due_at` \| string \(date-time\) \\\| null \| yes \| The founder requested/m,
    );
    for (const code of ['invalid_state', 'claim_limit', 'forbidden', 'not_found', 'unauthorized'] as const)
      expect(md, code).toMatch(new RegExp(`^\\| ${ERROR_STATUS[code]} \\| \`${code}\` \\| \\S`, 'm'));
    expect(md).toMatch(/```json\n\{\n {2}"bounty"/);
  });

  it('carry request bodies with what must be sent, and query parameters with their defaults', async () => {
    const create = await (await fetch(`${base}/docs/operations/createBounty.md`)).text();
    expect(create).toContain('## Request body');
    expect(create).toMatch(
      /^\| `title` \| string \| yes \| \(1 to 200 characters; no control or bidi-override characters\) \|$/m,
    );
    expect(create).toMatch(/^\| `difficulty` \| .+ \| no \|/m);
    const list = await (await fetch(`${base}/docs/operations/listBounties.md`)).text();
    expect(list).toMatch(/^\| `limit` \| query \| integer \| no \| \(1 to 100; default 20\) \|$/m);
    expect(list).toContain('## Response 304');
    const pub = await (await fetch(`${base}/docs/operations/listBounties.md`)).text();
    expect(pub).toContain('Public: no API key.');
  });

  it('answer an unknown operation with 404 not_found pointing at the index', async () => {
    for (const path of ['/docs/operations/noSuchThing.md', '/docs/operations/claimBounty']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(404);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('not_found');
      expect(body.error.message).toContain('/docs/operations.md');
    }
  });
});
