import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRepoHost } from '../src/dev/local-repo-host/server.ts';
import { randomRuns, randomSeed } from './helpers/counts.ts';
import { deepJson, prng, type Rng, segmentFor, valueFor } from './helpers/fuzz-values.ts';
import { localHostWithClient } from './helpers/local-host.ts';

/**
 * Issue 26: the built-in repository host answers no input with a 5xx. Every route of its REST
 * subset gets seeded hostile requests (path segments with control characters and broken
 * percent-encoding, bodies of every wrong shape, depth and media type, any credentials); every
 * error is GitHub's `basic-error` shape. HOST_FUZZ_SEED replays; HOST_FUZZ_RUNS per route.
 */
const SEED = randomSeed('HOST_FUZZ_SEED');
const RUNS = randomRuns('HOST_FUZZ_RUNS', 12, 120);
const PLATFORM = 'platform-token-for-fuzz';
const KEYS = new Map([
  ['key-alice', 'alice'],
  ['key-bob', 'bob'],
]);
const REPO = 'fuzzed';

/** The host's routes, `{}` where a segment goes; each with the body fields it reads. */
const ROUTES: [string, string, string[]][] = [
  ['GET', '/user', []],
  ['GET', '/rate_limit', []],
  ['POST', '/orgs/{}/repos', ['name', 'description', 'private', 'auto_init']],
  ['GET', '/repos/{}/{}', []],
  ['PUT', '/repos/{}/{}/collaborators/{}', ['permission']],
  ['GET', '/repos/{}/{}/pulls', []],
  ['POST', '/repos/{}/{}/pulls', ['title', 'head', 'base', 'body', 'draft']],
  ['GET', '/repos/{}/{}/pulls/{}', []],
  ['PATCH', '/repos/{}/{}/pulls/{}', ['title', 'state', 'body', 'base']],
  ['GET', '/repos/{}/{}/pulls/{}/files', []],
  ['GET', '/repos/{}/{}/pulls/{}/merge', []],
  ['PUT', '/repos/{}/{}/pulls/{}/merge', ['commit_title', 'merge_method', 'sha']],
  ['POST', '/repos/{}/{}/statuses/{}', ['state', 'context', 'description', 'target_url']],
  ['GET', '/repos/{}/{}/commits/{}/status', []],
  ['GET', '/repos/{}/{}/commits/{}/check-runs', []],
];

let tmp: string;
let host: LocalRepoHost;

beforeAll(async () => {
  console.log(`[host-fuzz seed=${SEED}] replay: HOST_FUZZ_SEED=${SEED}`);
  tmp = mkdtempSync(join(tmpdir(), 'local-repo-host-fuzz-'));
  const started = await localHostWithClient(
    {
      dataDir: join(tmp, 'data'),
      host: '127.0.0.1',
      port: 0,
      webhook: { url: null, secret: 'fuzz-secret' },
      platformToken: PLATFORM,
    },
    KEYS,
  );
  host = started.host;
  await started.client.ensureRepository(REPO, {
    description: 'Fuzzed · proj-fuzz',
    projectId: 'proj-fuzz',
    founderLogin: 'alice',
  });
});

afterAll(async () => {
  await host?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const basic = (key: string) => `Basic ${Buffer.from(`x:${key}`).toString('base64')}`;

function credentials(r: Rng): Record<string, string> {
  return r.pick<Record<string, string>>([
    {},
    { authorization: `token ${PLATFORM}` },
    { authorization: 'token key-alice' },
    { authorization: basic('key-bob') },
    { authorization: basic('key-bob'), origin: 'https://evil.example' },
    { authorization: 'token nobody' },
    { authorization: `Bearer ${'x'.repeat(9000)}` },
  ]);
}

function bodyFor(r: Rng, fields: string[]): { type: string; text: string } {
  const kind = r.int(12);
  if (kind === 0) return { type: 'application/json', text: deepJson(20_000) };
  if (kind === 1) return { type: 'text/plain', text: '{"title":"x"}' };
  if (kind === 2) return { type: 'application/json', text: '{"title":' };
  if (kind === 3) return { type: 'application/x-www-form-urlencoded', text: 'title=x' };
  const out: Record<string, unknown> = {};
  for (const f of fields) if (r.chance(0.8)) out[f] = valueFor(r, { type: 'string' }, {});
  return { type: 'application/json', text: JSON.stringify(out) };
}

describe(`the built-in host, fuzzed (HOST_FUZZ_SEED=${SEED}, ${RUNS} per route)`, () => {
  it('answers every route without a 5xx, every error in GitHub shape', async () => {
    const r = prng(SEED);
    const real = [host.org, REPO, 'main', '1', 'alice'];
    for (const [method, pattern, fields] of ROUTES) {
      for (let i = 0; i < RUNS; i++) {
        let n = 0;
        const path = pattern.replace(/\{\}/g, () => {
          // Mostly the real org and repository, so requests reach the code behind the lookup.
          const own = [host.org, REPO][n++];
          return own && r.chance(0.7) ? own : segmentFor(r, real);
        });
        const headers: Record<string, string> = { ...credentials(r) };
        let body: string | undefined;
        if (method !== 'GET') {
          const b = bodyFor(r, fields);
          headers['content-type'] = b.type;
          body = b.text;
        }
        const what = `${method} ${path.slice(0, 120)} (run ${i}, HOST_FUZZ_SEED=${SEED})`;
        const res = await fetch(`${host.apiUrl}${path}`, { method, headers, body });
        const text = await res.text();
        expect(res.status, `${what} -> ${text.slice(0, 300)}`).toBeLessThan(500);
        if (res.status < 400) continue;
        let json: { message?: unknown; status?: unknown } = {};
        expect(
          () => {
            json = JSON.parse(text);
          },
          `${what} -> ${res.status} ${JSON.stringify(text.slice(0, 300))}: an error body in GitHub shape`,
        ).not.toThrow();
        expect(typeof json.message, what).toBe('string');
        expect(json.status, what).toBe(String(res.status));
      }
    }
  });

  it('answers a path that resolved out of /api/v3 (`..` segments; seed 1191387281) in GitHub shape', async () => {
    for (const path of ['/repos/../../pulls/alice/files', '/repos/../..', '/../x']) {
      const res = await fetch(`${host.apiUrl}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toMatchObject({ message: 'Not Found', status: '404' });
    }
  });
});
