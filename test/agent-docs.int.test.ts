import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRepoHost } from '../src/dev/local-repo-host/server.ts';
import { TAGS } from '../src/infra/http/openapi-meta.ts';
import { ERROR_STATUS } from '../src/lib/errors.ts';
import { buildTestApp, registerAgent, type TestContext } from './helpers/app.ts';
import { DocsChain } from './helpers/docs-chain.ts';
import { contributorGitEnv } from './helpers/git.ts';
import { localHostWithClient } from './helpers/local-host.ts';
import { newVault } from './helpers/wallets.ts';

/**
 * The documents for agents against the real routes: /openapi.json describes every operation
 * fully, llms.txt and skill.md list every route, skill.md explains every error code, and every
 * shell block of skill.md runs against a live instance (FakeChain with dev-chain wallets, the
 * built-in repository host, so the git clone and push steps run too).
 */

type Op = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema: ErrorSchema }> }>;
};
type ErrorSchema = { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } };

const WEBHOOK_SECRET = 'docs-webhook-secret';
const KEY_LIMIT = 4321;
let tmp: string;
let host: LocalRepoHost;
let chain: DocsChain;
let ctx: TestContext;
let base: string;
let ops: { key: string; path: string; method: string; op: Op }[];
let skill: string;
let llms: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'agent-docs-'));
  const platformToken = randomBytes(16).toString('hex');
  const started = await localHostWithClient({
    dataDir: tmp,
    port: 0,
    org: 'bounty-org',
    webhook: { url: null, secret: WEBHOOK_SECRET },
    platformToken,
  });
  host = started.host;
  const repoHost = started.client;
  chain = new DocsChain();
  ctx = await buildTestApp({
    chain,
    repoHost,
    vault: newVault(),
    env: { RATE_LIMIT_PER_KEY_PER_MINUTE: String(KEY_LIMIT) },
  });
  host.setAuthenticator((key) => ctx.app.services.agents.repoLoginForKey(key));
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  host.setWebhookUrl(`${base}/api/webhooks/github`);

  const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, Record<string, Op>>;
  };
  ops = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod)
      .filter(([method]) => method !== 'head')
      .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, path, method, op })),
  );
  skill = await (await fetch(`${base}/skill.md`)).text();
  llms = await (await fetch(`${base}/llms.txt`)).text();
});

afterAll(async () => {
  await ctx?.close();
  await host?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

describe('OpenAPI document', () => {
  it('gives every operation a unique camelCase operationId, a one-line summary and a known tag', () => {
    expect(ops.length).toBeGreaterThan(30);
    for (const { key, op } of ops) {
      expect(op.operationId, key).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(op.summary, key).toMatch(/^[^\n]{5,100}$/);
      expect(op.tags?.length, key).toBe(1);
      expect(Object.keys(TAGS), key).toContain(op.tags?.[0]);
    }
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining(['registerAgent', 'listBounties', 'claimBounty', 'approveSubmission']),
    );
  });

  it('documents each error status with the envelope, its code an enum of the closed list', () => {
    for (const { key, op } of ops) {
      const errors = Object.keys(op.responses).filter((s) => Number(s) >= 400);
      expect(errors, key).toEqual(expect.arrayContaining(['400', '500']));
      for (const status of errors) {
        const codes =
          op.responses[status]?.content?.['application/json']?.schema.properties?.error?.properties?.code
            ?.enum;
        expect(codes?.length, `${key} ${status}`).toBeGreaterThan(0);
        for (const code of codes ?? [])
          expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], `${key}: ${code}`).toBe(Number(status));
      }
      const keyed = (op.security ?? []).some((s) => 'bearerAuth' in s);
      expect(Object.keys(op.responses).includes('401'), key).toBe(keyed);
    }
  });

  it('carries the examples of the main operations', () => {
    const media = (k: string, s: string) => {
      const op = ops.find((o) => o.key === k)?.op as unknown as {
        requestBody?: { content: Record<string, { example?: unknown }> };
        responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
      };
      return {
        req: op.requestBody?.content['application/json']?.example,
        res: op.responses[s]?.content?.['application/json']?.example,
      };
    };
    expect(media('POST /api/agents/register', '201').req).toBeDefined();
    expect(media('GET /api/bounties', '200').res).toBeDefined();
    expect(media('POST /api/projects/{id}/bounties', '201').req).toBeDefined();
    expect(media('POST /api/bounties/{id}/claim', '200').res).toBeDefined();
    expect(media('POST /api/bounties/{id}/submit', '201').req).toBeDefined();
    expect(media('POST /api/bounties/{id}/approve', '200').res).toBeDefined();
  });

  it('serializes error bodies through the new error schemas exactly as the error handler built them', async () => {
    // Claim had no 400 schema before: this body now goes through the merged envelope schema.
    const agent = await registerAgent(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/bounties/bnt_nothing/claim',
      headers: agent.headers,
      payload: { note: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe(
      JSON.stringify({
        error: {
          code: 'validation_error',
          message: 'The request body is invalid.',
          details: [{ field: 'body', message: 'must be empty: this endpoint takes no body' }],
          request_id: res.headers['x-request-id'],
        },
      }),
    );
  });
});

describe('llms.txt and skill.md', () => {
  it('list every documented route', () => {
    for (const { key, op } of ops) {
      expect(skill, key).toContain(`\`${key}\` (`);
      expect(llms, key).toContain(`[${key}](`);
      expect(skill, key).toContain(`\`${op.operationId}\``);
    }
  });

  it('are served with their types and the base URL the client used', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/llms.txt',
      headers: { host: 'agents.example:8443' },
    });
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toContain('(http://agents.example:8443/skill.md)');
    expect(res.body).not.toContain('{{BASE}}');
    const md = await ctx.app.inject({ method: 'GET', url: '/skill.md' });
    expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(skill).toContain(`BASE=${base}\n`);
  });

  it('llms.txt follows the llmstxt.org shape', () => {
    const lines = llms.split('\n');
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines.find((l) => l.startsWith('>'))).toMatch(/^> \S/);
    expect(llms).toMatch(/^## Docs$/m);
    expect(llms).toMatch(/^- \[[^\]]+\]\(http:\/\/127\.0\.0\.1:\d+\/skill\.md\): \S/m);
  });

  it('skill.md has front matter and a fix for every error code, and the configured rate limits', () => {
    const front = /^---\nname: (\S+)\ndescription: (.+)\nversion: (\S+)\n---\n/.exec(skill);
    expect(front?.[1]).toBe('bounty-marketplace');
    expect(front?.[3]).toMatch(/^\d+\.\d+\.\d+/);
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      const row = new RegExp(`^\\| \`${code}\` \\| ${status} \\| (.+) \\|$`, 'm').exec(skill);
      expect(row?.[1]?.trim().length ?? 0, `no fix text for ${code}`).toBeGreaterThan(20);
    }
    expect(skill).toContain(`${KEY_LIMIT} requests per minute per key`);
  });
});

/** Sections of skill.md by heading number, with their shell blocks. */
function shellSections(md: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of md.split(/^## /m).slice(1)) {
    const id = /^(F?\d+)\./.exec(part)?.[1];
    const blocks = [...part.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
    if (id && blocks.length) out.set(id, blocks.join('\n'));
    else expect(blocks, `shell block in an unnumbered section: ${part.slice(0, 40)}`).toEqual([]);
  }
  return out;
}

function run(script: string, cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('skill.md on a live instance', () => {
  it('runs every shell block: a founder posts, an agent earns the bounty and is paid', async () => {
    const sections = shellSections(skill);
    // The founder's post comes first (there must be work to find); the review before the payout.
    const order = ['0', 'F1', '1', '2', '3', '4', '5', '6', 'F2', '7', '8'];
    expect([...sections.keys()].sort()).toEqual([...order].sort());
    const blocks = order.map((id) => `echo '### ${id}' >&2\n${sections.get(id)}`);
    // Every curl reports its status and URL on stderr, to check each one against the document.
    const prelude = `set -euo pipefail
curl() { command curl -w '%{stderr}HTTP %{http_code} %{method} %{url_effective}\\n' "$@"; }`;
    const script = [prelude, ...blocks].join('\n');
    const work = mkdtempSync(join(tmp, 'agent-'));
    const result = await run(script, work, contributorGitEnv(work, 'agent'));
    expect(result.code, `${result.stderr}\n${result.stdout}`).toBe(0);

    const calls = [...result.stderr.matchAll(/^HTTP (\d{3}) (\S+) (\S+)$/gm)].map((m) => ({
      status: Number(m[1]),
      method: m[2] as string,
      url: new URL(m[3] as string),
    }));
    const curls = [...script.matchAll(/(^|[\s($|])curl\s/gm)].length - 1; // minus the prelude's own
    expect(calls.length).toBe(curls);
    const called = new Set<string>();
    for (const call of calls) {
      if (call.url.origin === new URL(host.apiUrl).origin) {
        expect(`${call.method} ${call.status}`).toBe('POST 201'); // the pull request
        continue;
      }
      const found = ops.find(
        (o) =>
          o.method === call.method.toLowerCase() &&
          new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(call.url.pathname),
      );
      expect(found, `${call.method} ${call.url.pathname} is not a documented operation`).toBeDefined();
      const success = Object.keys(found?.op.responses ?? {}).find((s) => s.startsWith('2'));
      expect(call.status, `${call.method} ${call.url}`).toBe(Number(success));
      called.add(found?.op.operationId as string);
    }
    expect([...called]).toEqual(
      expect.arrayContaining([
        'registerAgent',
        'listBounties',
        'claimBounty',
        'submitPullRequest',
        'streamEvents',
        'createBounty',
        'approveSubmission',
      ]),
    );
    // The walk-through really ends paid: the event arrived and both payout legs mined.
    expect(result.stdout).toMatch(/^event: submission\.approved$/m);
    expect(result.stdout).toContain('"done"');
    expect(chain.paid.length).toBe(2);
  }, 120_000);
});
