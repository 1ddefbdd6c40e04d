import { describe, expect, it } from 'vitest';
import { loginFromName, withSuffix } from '../src/modules/agents/repo-identity.ts';
import { expectError, registerAgent, type TestAgent, type TestContext } from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';

/**
 * `repo_login`, the agent's login on the repository host: assigned at registration on the
 * built-in local host (GitHub's login rules, unique ignoring case), linked with a token on GitHub
 * (`POST /api/agents/me/repo-identity`).
 */

const LINK = '/api/agents/me/repo-identity';
let n = 0;
const name = (base: string) => `${base}${process.pid}n${++n}`;

async function me(ctx: TestContext, a: TestAgent) {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/agents/me', headers: a.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().agent as { repo_login: string | null };
}

const link = (ctx: TestContext, a: TestAgent, payload: unknown) =>
  ctx.app.inject({ method: 'POST', url: LINK, headers: a.headers, payload: payload as object });

describe('repo_login on the local host', () => {
  const ctx = appForFile();

  it('is derived from the name at registration and shown in register, me and the public profile', async () => {
    const base = name('Ada Lovelace.');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/agents/register',
      payload: { name: base },
    });
    expect(res.statusCode, res.body).toBe(201);
    const login = res.json().agent.repo_login;
    expect(login).toBe(loginFromName(base));
    expect(login).toMatch(/^ada-lovelace-\d+n\d+$/);
    const key = res.json().agent.api_key;
    const own = await ctx.app.inject({
      method: 'GET',
      url: '/api/agents/me',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(own.json().agent.repo_login).toBe(login);
    const pub = await ctx.app.inject({ method: 'GET', url: `/api/agents/${res.json().agent.id}` });
    expect(pub.json().agent.repo_login).toBe(login);
  });

  it('is unique ignoring case: names that map to the same login get a suffix', async () => {
    // Names are unique after folding case and separators, so distinct names meet on a login only
    // past its 39 characters.
    const base = `${name('twin')}-${'x'.repeat(40)}`;
    const first = await registerAgent(ctx.app, { name: `${base} bot` });
    const second = await registerAgent(ctx.app, { name: `${base}.BOAT` });
    const third = await registerAgent(ctx.app, { name: `${base}_bit` });
    const logins = [await me(ctx, first), await me(ctx, second), await me(ctx, third)].map(
      (a) => a.repo_login,
    );
    const login = loginFromName(`${base} bot`);
    expect(login).toHaveLength(39);
    expect(logins[0]).toBe(login);
    for (const l of logins.slice(1)) {
      expect(l).toHaveLength(39);
      expect(l).toMatch(new RegExp(`^${login.slice(0, 32)}-[0-9a-f]{6}$`));
    }
    expect(new Set(logins.map((l) => l?.toLowerCase())).size).toBe(3);
  });

  it('follows GitHub login rules', () => {
    expect(loginFromName('--A__b..c--')).toBe('a-b-c');
    expect(loginFromName('__')).toBe('agent');
    const long = loginFromName('x'.repeat(64));
    expect(long).toHaveLength(39);
    expect(withSuffix(long, 'abc123')).toHaveLength(39);
    expect(withSuffix(`${'y'.repeat(31)}-zzzz`, 'abc123')).toBe(`${'y'.repeat(31)}-abc123`);
    for (const l of [loginFromName('a - b'), withSuffix('a-', 'ff')])
      expect(l).toMatch(/^[a-z0-9](?:-?[a-z0-9])*$/);
  });

  it('cannot be linked: 409 invalid_state, the assigned login stays', async () => {
    const a = await registerAgent(ctx.app);
    const before = (await me(ctx, a)).repo_login;
    expectError(await link(ctx, a, { token: 'anything' }), 409, 'invalid_state');
    expect((await me(ctx, a)).repo_login).toBe(before);
  });
});

describe('POST /api/agents/me/repo-identity on GitHub', () => {
  const host = new FakeRepoHost({ kind: 'github' });
  const ctx = appForFile({ repoHost: host });

  it('starts null; links the login GET /user answers for the token, and is shown publicly', async () => {
    const a = await registerAgent(ctx.app);
    expect((await me(ctx, a)).repo_login).toBeNull();
    host.setUser('ghp_alpha', 'Octo-Alpha');
    const res = await link(ctx, a, { token: 'ghp_alpha' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().agent).toMatchObject({ id: a.id, repo_login: 'Octo-Alpha' });
    expect(res.body).not.toContain('ghp_alpha');
    expect((await me(ctx, a)).repo_login).toBe('Octo-Alpha');
    // Linking the same account again is fine; another account replaces it.
    expect((await link(ctx, a, { token: 'ghp_alpha' })).statusCode).toBe(200);
    host.setUser('ghp_alpha2', 'octo-alpha-two');
    expect((await link(ctx, a, { token: 'ghp_alpha2' })).json().agent.repo_login).toBe('octo-alpha-two');
  });

  it('is 400 invalid_repo_token when the host refuses the token, changing nothing', async () => {
    const a = await registerAgent(ctx.app);
    expectError(await link(ctx, a, { token: 'ghp_revoked' }), 400, 'invalid_repo_token');
    expect((await me(ctx, a)).repo_login).toBeNull();
  });

  it('is 409 repo_login_taken when another agent holds that login, ignoring case', async () => {
    const first = await registerAgent(ctx.app);
    const second = await registerAgent(ctx.app);
    host.setUser('ghp_first', 'shared-login');
    host.setUser('ghp_second', 'SHARED-login');
    expect((await link(ctx, first, { token: 'ghp_first' })).statusCode).toBe(200);
    expectError(await link(ctx, second, { token: 'ghp_second' }), 409, 'repo_login_taken');
    expect((await me(ctx, second)).repo_login).toBeNull();
  });

  it('validates the body', async () => {
    const a = await registerAgent(ctx.app);
    for (const payload of [{}, { token: '' }, { token: 7 }, { token: 'x', extra: 1 }])
      expectError(await link(ctx, a, payload), 400, 'validation_error');
  });
});
