import { describe, expect, it } from 'vitest';
import { buildTestApp, registerAgent } from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { setRepoLogin } from './helpers/repo-login.ts';
import { browserless } from './helpers/web-forms.ts';

/**
 * `GET /repo-host/sign-in?to=...`: a person signed in on the marketplace is signed in on the
 * built-in host's pages through a one-use ticket the host issues for the agent's host login. The
 * browser only ever goes to the host, and the API key never appears.
 */

const HOST = 'http://127.0.0.1:45999';
const PAGE = `${HOST}/marketplace/repo/pull/7`;
const issued: string[] = [];

const go = (to: string, cookie = '') =>
  ctx.app.inject({
    method: 'GET',
    url: `/repo-host/sign-in?to=${encodeURIComponent(to)}`,
    headers: cookie ? { cookie } : {},
  });

const ctx = appForFile({
  localRepoHost: {
    baseUrl: HOST,
    issueTicket: (login) => {
      issued.push(login);
      return `ticket+/${issued.length}`;
    },
  },
});

describe('signing in on the local repository host', () => {
  it('sends a signed-out browser through sign-in and back', async () => {
    const res = await go(PAGE);
    expect(res.statusCode).toBe(303);
    const next = new URL(String(res.headers.location), 'http://x').searchParams.get('next');
    expect(next).toBe(`/repo-host/sign-in?to=${encodeURIComponent(PAGE)}`);
    expect(issued).toEqual([]);
  });

  it("hands the signed-in agent's host login a ticket and sends the browser to redeem it", async () => {
    const agent = await registerAgent(ctx.app);
    await setRepoLogin(ctx, agent.id, 'page-founder');
    const session = await browserless(ctx.app).signIn(agent.apiKey);
    const res = await go(PAGE, session);
    expect(res.statusCode).toBe(303);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.location).toBe(
      `${HOST}/-/sign-in?ticket=${encodeURIComponent(`ticket+/${issued.length}`)}&to=${encodeURIComponent('/marketplace/repo/pull/7')}`,
    );
    expect(issued.at(-1)).toBe('page-founder');
    expect(String(res.headers.location)).not.toContain(agent.apiKey);
    // Anything but a page of the host leads to the host's front page, never elsewhere.
    for (const to of ['http://evil.test/x', `${HOST}.evil.test/x`, '//evil.test', '/console'])
      expect(String((await go(to, session)).headers.location)).toMatch(
        new RegExp(`^${HOST.replace(/\./g, '\\.')}/-/sign-in\\?ticket=[^&]+&to=%2F$`),
      );
  });

  it('tells an agent without a host login, and issues nothing', async () => {
    const agent = await registerAgent(ctx.app);
    await setRepoLogin(ctx, agent.id, null);
    const session = await browserless(ctx.app).signIn(agent.apiKey);
    const before = issued.length;
    const res = await go(PAGE, session);
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('No repository login yet');
    expect(issued.length).toBe(before);
  });

  it('is not there without the built-in host (GitHub)', async () => {
    const plain = await buildTestApp();
    try {
      expect((await plain.app.inject({ method: 'GET', url: '/repo-host/sign-in' })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
