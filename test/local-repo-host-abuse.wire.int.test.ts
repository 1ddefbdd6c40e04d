import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRepoHost } from '../src/dev/local-repo-host/server.ts';
import { localHostWithClient } from './helpers/local-host.ts';

/**
 * Issue 26, the built-in repository host: no input answers 500. A control character in any path
 * segment and JSON nested 20,000 deep are 400 in GitHub's error shape; a body must say it is JSON
 * (415); a request with Basic credentials from another origin is 403.
 */

const PLATFORM = 'platform-token-for-abuse';
const KEYS = new Map([
  ['key-alice', 'alice'],
  ['key-bob', 'bob'],
]);
const REPO = 'abuse';

let tmp: string;
let host: LocalRepoHost;

type Json = Record<string, unknown>;

async function call(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
) {
  const res = await fetch(`${host.baseUrl}${path}`, { method, ...init });
  const text = await res.text();
  let body: Json | null = null;
  try {
    body = text ? (JSON.parse(text) as Json) : null;
  } catch {
    body = { text };
  }
  return { status: res.status, body };
}

const basic = (key: string) => `Basic ${Buffer.from(`x:${key}`).toString('base64')}`;
const pullsPath = () => `/api/v3/repos/${host.org}/${REPO}/pulls`;
const countPulls = async () =>
  ((await call('GET', `${pullsPath()}?state=all`)).body as unknown as unknown[]).length;

/** GitHub's `basic-error`: message, documentation_url and the status as a string. */
function expectBasicError(res: { status: number; body: Json | null }, status: number, what: string) {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
  expect(res.body, what).toMatchObject({ status: String(status) });
  expect(typeof res.body?.message, what).toBe('string');
  expect(typeof res.body?.documentation_url, what).toBe('string');
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'local-repo-host-abuse-'));
  const started = await localHostWithClient(
    {
      dataDir: join(tmp, 'data'),
      host: '127.0.0.1',
      port: 0,
      webhook: { url: null, secret: 'abuse-secret' },
      platformToken: PLATFORM,
    },
    KEYS,
  );
  host = started.host;
  await started.client.ensureRepository(REPO, {
    description: 'Abuse · proj-abuse',
    projectId: 'proj-abuse',
    founderLogin: 'alice',
  });
});

afterAll(async () => {
  await host?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

describe('control characters in a path', () => {
  it('are 400 in every segment, anonymous or not, never reaching git', async () => {
    const o = host.org;
    const paths = [
      // The probe's request.
      `/api/v3/repos/${o}/${REPO}/commits/%00/status`,
      `/api/v3/repos/${o}/${REPO}/commits/main%00/status`,
      `/api/v3/repos/${o}/${REPO}/commits/%01/check-runs`,
      `/api/v3/repos/${o}/${REPO}/commits/a%2F%00b/status`,
      `/api/v3/repos/${o}/%00/pulls`,
      `/api/v3/repos/%7F/${REPO}`,
      `/api/v3/repos/${o}/${REPO}/pulls/1%0a`,
      `/${o}/${REPO}%00/info/refs?service=git-upload-pack`,
      `/${o}/%00`,
      `/${o}/${REPO}/pull/%00`,
    ];
    for (const path of paths) {
      expectBasicError(await call('GET', path), 400, path);
      expectBasicError(await call('GET', path, { headers: { authorization: 'token key-bob' } }), 400, path);
    }
    const write = await call('POST', `/api/v3/repos/${o}/${REPO}/statuses/%00`, {
      headers: { authorization: 'token key-alice', 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'success', context: 'ci' }),
    });
    expectBasicError(write, 400, 'statuses/%00');
    // A clean ref still answers as before.
    expect((await call('GET', `/api/v3/repos/${o}/${REPO}/commits/main/status`)).status).toBe(200);
  });
});

describe('bodies', () => {
  it('JSON nested 20,000 deep is 400, creating nothing', async () => {
    const before = await countPulls();
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const inArray = `{"title":${'['.repeat(20_000)}${']'.repeat(20_000)},"head":"main","base":"main"}`;
    for (const body of [deep, inArray]) {
      const res = await call('POST', pullsPath(), {
        headers: { authorization: 'token key-bob', 'content-type': 'application/json' },
        body,
      });
      expectBasicError(res, 400, 'deep body');
    }
    // 64 levels, the app's own limit, still parses (and fails validation as any wrong title would).
    const shallow = await call('POST', pullsPath(), {
      headers: { authorization: 'token key-bob', 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'x',
        head: 'main',
        base: 'main',
        extra: JSON.parse(`${'{"a":'.repeat(60)}1${'}'.repeat(60)}`),
      }),
    });
    expect(shallow.status).not.toBe(400);
    expect(shallow.status).toBeLessThan(500);
    expect(await countPulls()).toBe(before);
  });

  it('must say they are JSON: text/plain and forms are 415', async () => {
    const body = JSON.stringify({ title: 'Sneaky', head: 'main', base: 'main' });
    for (const type of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await call('POST', pullsPath(), {
        headers: { authorization: 'token key-bob', 'content-type': type },
        body,
      });
      expectBasicError(res, 415, type);
    }
    const none = await call('POST', pullsPath(), { headers: { authorization: 'token key-bob' }, body });
    expectBasicError(none, 415, 'no content type');
    // GitHub's own media type and a charset are JSON.
    for (const type of ['application/vnd.github+json', 'application/json; charset=utf-8']) {
      const res = await call('PUT', `/api/v3/repos/${host.org}/${REPO}/collaborators/bob`, {
        headers: { authorization: `token ${PLATFORM}`, 'content-type': type },
        body: JSON.stringify({ permission: 'push' }),
      });
      expect(res.status, type).toBe(204);
    }
  });
});

describe('Basic credentials across sites', () => {
  it('are refused (403) from another origin, taken from this one', async () => {
    const body = JSON.stringify({ state: 'success', context: 'cross-site' });
    const path = `/api/v3/repos/${host.org}/${REPO}/statuses/main`;
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1:1']) {
      const res = await call('POST', path, {
        headers: { authorization: basic('key-alice'), origin, 'content-type': 'application/json' },
        body,
      });
      expectBasicError(res, 403, origin);
    }
    const siteOnly = await call('GET', `/api/v3/user`, {
      headers: { authorization: basic('key-alice'), 'sec-fetch-site': 'cross-site' },
    });
    expectBasicError(siteOnly, 403, 'sec-fetch-site');
    const own = await call('GET', `/api/v3/user`, {
      headers: { authorization: basic('key-alice'), origin: host.baseUrl },
    });
    expect(own.status).toBe(200);
    const noOrigin = await call('GET', `/api/v3/user`, { headers: { authorization: basic('key-alice') } });
    expect(noOrigin.status).toBe(200);
  });
});
