import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, registerAgent, type TestAgent, type TestContext } from './helpers/app.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { newVault } from './helpers/wallets.ts';
import { type Browserless, browserless, csrfOf, stubWalletChain } from './helpers/web-forms.ts';

/**
 * The console through `app.inject`, as a browser without JavaScript would use it: forms posted as
 * application/x-www-form-urlencoded with the session cookie, redirects followed by hand. Every
 * action is checked through the services it must have called (or the chain stub it reached).
 */

let ctx: TestContext;
let chain: ReturnType<typeof stubWalletChain>;
let host: FakeRepoHost;
let web: Browserless;
let founder: TestAgent;
let contributor: TestAgent;

beforeAll(async () => {
  chain = stubWalletChain(new FakeChain());
  host = new FakeRepoHost();
  ctx = await buildTestApp({ chain, vault: newVault(), repoHost: host });
  web = browserless(ctx.app);
  // The founder's wallet is in-app (it buys and approves through the service); the contributor's is external.
  founder = await registerAgent(ctx.app, { wallet_address: null });
  contributor = await registerAgent(ctx.app);
});

afterAll(async () => {
  await ctx?.close();
});

describe('sign-in and sessions', () => {
  it('shows a sign-in form with a password-type key field that browsers do not fill', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/sign-in?next=/console/reviews' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toMatch(
      /<input id="api_key" name="api_key" type="password" required autocomplete="off"/,
    );
    expect(res.body).toContain('<label for="api_key">API key</label>');
    expect(res.body).toContain('name="next" value="/console/reviews"');
  });

  it('sends a browser back only to a path on this site: other origins, tricks and CR/LF are ignored', async () => {
    const hostile = [
      '//evil.example/',
      '/\t/evil.example',
      '/\\evil.example',
      '/\r\nLocation: https://evil.example',
      'https://evil.example/',
      '/ /evil.example',
      'javascript:alert(1)',
    ];
    for (const next of hostile) {
      const res = await web.signInRaw(founder.apiKey, next);
      expect(res.statusCode, JSON.stringify(next)).toBe(303);
      expect(res.headers.location, JSON.stringify(next)).toBe('/console');
      const page = await ctx.app.inject({ method: 'GET', url: `/sign-in?next=${encodeURIComponent(next)}` });
      expect(page.statusCode, JSON.stringify(next)).toBe(200);
      expect(page.body).toContain('name="next" value="/console"');
    }
    // The probe's own URL: the query decodes to a tab, which browsers drop.
    const probe = await ctx.app.inject({ method: 'GET', url: '/sign-in?next=/%09/evil.example' });
    expect(probe.body).toContain('name="next" value="/console"');
    const crlf = await ctx.app.inject({ method: 'GET', url: '/sign-in?next=/x%0d%0aSet-Cookie:%20a=b' });
    expect(crlf.statusCode).toBe(200);
    const ok = await web.signInRaw(founder.apiKey, '/bounties?status=open#list');
    expect(ok.headers.location).toBe('/bounties?status=open#list');
  });

  it('resolves next as a browser would: dot segments and percent-encoding never lead off the site (issue 26)', async () => {
    const session = await web.signIn(founder.apiKey);
    const probes = ['/.//evil.example', '/..//x', '/%2e%2e//x', '/a/..//evil.example', '/.\\/evil.example'];
    for (const next of probes) {
      for (const page of ['/sign-in', '/sign-up']) {
        const url = `${page}?next=${encodeURIComponent(next)}`;
        // Signed in: straight back, on this site.
        const res = await web.get(session, url);
        expect(res.statusCode, url).toBe(303);
        expect(res.headers.location, url).toBe('/console');
        // Not signed in: the form and its links carry no way off the site.
        const anonymous = await ctx.app.inject({ method: 'GET', url });
        expect(anonymous.statusCode, url).toBe(200);
        expect(anonymous.body, url).toContain('name="next" value="/console"');
        expect(anonymous.body, url).not.toMatch(/evil\.example|\?next=%2F%2F|\?next=\/\//i);
      }
      const posted = await web.signInRaw(founder.apiKey, next);
      expect(posted.headers.location, next).toBe('/console');
    }
    // The probe's URL as sent, unencoded.
    const raw = await web.get(session, '/sign-in?next=/.//evil.example');
    expect(raw.headers.location).toBe('/console');
    const onSite = await web.get(
      session,
      `/sign-in?next=${encodeURIComponent('/bounties/../console/reviews')}`,
    );
    expect(onSite.headers.location).toBe('/console/reviews');
  });

  it('sets an HttpOnly, SameSite cookie holding no key, and the key appears nowhere afterwards', async () => {
    const res = await web.signInRaw(founder.apiKey, '/console/projects');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/projects');
    const cookie = res.cookies.find((c) => c.name === 'bm_session');
    expect(cookie).toBeDefined();
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.path).toBe('/');
    // Plain HTTP here: a Secure cookie would never come back.
    expect(cookie?.secure).toBeFalsy();
    expect(String(res.headers['set-cookie'])).not.toContain(founder.apiKey);
    const session = `bm_session=${cookie?.value}`;
    for (const url of ['/console', '/console/projects', '/console/reviews', '/console/account']) {
      const page = await web.get(session, url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body).not.toContain(founder.apiKey);
      expect(page.body).toContain(founder.name);
    }
  });

  it('a new sign-in always gets a new token (no fixation), and the open redirect is refused', async () => {
    const a = await web.signInRaw(founder.apiKey, '//evil.example/x');
    const b = await web.signInRaw(founder.apiKey);
    expect(a.headers.location).toBe('/console');
    const tokens = [a, b].map((r) => r.cookies.find((c) => c.name === 'bm_session')?.value);
    expect(tokens[0]).not.toBe(tokens[1]);
  });

  it('refuses a bad key with 401 and the form again, setting no cookie', async () => {
    const wrong = `${founder.apiKey.slice(0, -4)}AAAA`;
    for (const key of [wrong, 'not-a-key', '']) {
      const res = await web.signInRaw(key);
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain('That API key is not valid');
      expect(res.body).toContain('aria-describedby="api_key-hint sign-in-error"');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('refuses a sign-in posted from another site (login CSRF)', async () => {
    const res = await web.signInRaw(founder.apiKey, '/console', { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('sends a visitor without a session to sign in, and back afterwards', async () => {
    for (const url of ['/console', '/console/projects', '/console/reviews', '/console/account']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(303);
      expect(res.headers.location).toBe(`/sign-in?next=${encodeURIComponent(url)}`);
    }
    const forged = await ctx.app.inject({
      method: 'GET',
      url: '/console',
      headers: { cookie: 'bm_session=made-up-token' },
    });
    expect(forged.statusCode).toBe(303);
    const post = await web.post('', '/console/projects', { name: 'No session', token_symbol: 'NOSES' });
    expect(post.statusCode).toBe(303);
    const { projects } = await ctx.app.services.projects.list({
      founder_id: founder.id,
      limit: 100,
      offset: 0,
    });
    expect(projects.some((p) => p.token_symbol === 'NOSES')).toBe(false);
  });

  it('an expired session is no session', async () => {
    const session = await web.signIn(contributor.apiKey);
    ctx.clock.advance(8 * 24 * 3600_000);
    try {
      const res = await web.get(session, '/console');
      expect(res.statusCode).toBe(303);
    } finally {
      ctx.clock.advance(-8 * 24 * 3600_000);
    }
    expect((await web.get(session, '/console')).statusCode).toBe(200);
  });
});

describe('CSRF', () => {
  let session: string;
  let token: string;
  beforeAll(async () => {
    session = await web.signIn(founder.apiKey);
    token = csrfOf((await web.get(session, '/console/projects')).body);
  });

  const attempts = (): { why: string; fields: Record<string, string>; headers: Record<string, string> }[] => [
    { why: 'missing token', fields: {}, headers: {} },
    { why: 'wrong token', fields: { _csrf: `${token.slice(0, -2)}xx` }, headers: {} },
    { why: 'foreign Origin', fields: { _csrf: token }, headers: { origin: 'https://evil.example' } },
    { why: 'cross-site fetch', fields: { _csrf: token }, headers: { 'sec-fetch-site': 'cross-site' } },
  ];

  it('refuses a form without the session token, with a wrong one or from another origin: 403, nothing changed', async () => {
    for (const [i, a] of attempts().entries()) {
      const symbol = `CSRF${i}`;
      const res = await web.post(
        session,
        '/console/projects',
        { name: `Forged ${i}`, token_symbol: symbol, ...a.fields },
        { csrf: null, headers: a.headers },
      );
      expect(res.statusCode, a.why).toBe(403);
      expect(res.body).toContain('Nothing was changed');
      const { projects } = await ctx.app.services.projects.list({
        founder_id: founder.id,
        limit: 100,
        offset: 0,
      });
      expect(
        projects.some((p) => p.token_symbol === symbol),
        a.why,
      ).toBe(false);
    }
  });

  it('accepts the same form with the token, same-origin headers included', async () => {
    const res = await web.post(
      session,
      '/console/projects',
      { name: 'Honest project', token_symbol: 'HONEST', _csrf: token },
      { csrf: null, headers: { origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' } },
    );
    expect(res.statusCode, res.body).toBe(303);
  });

  it('takes the token from the X-CSRF-Token header too (htmx)', async () => {
    const res = await web.post(
      session,
      '/console/projects',
      { name: 'Header project', token_symbol: 'HEADER' },
      { csrf: null, headers: { 'x-csrf-token': token } },
    );
    expect(res.statusCode, res.body).toBe(303);
  });

  it('refuses sign-out without the token and keeps the session', async () => {
    const res = await web.post(session, '/sign-out', {}, { csrf: null });
    expect(res.statusCode).toBe(403);
    expect((await web.get(session, '/console')).statusCode).toBe(200);
  });
});

describe('sign-out', () => {
  it('ends the session: the row is gone and the old cookie no longer works', async () => {
    const session = await web.signIn(contributor.apiKey);
    const other = await web.signIn(contributor.apiKey);
    const res = await web.post(session, '/sign-out', {});
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
    const cleared = res.cookies.find((c) => c.name === 'bm_session');
    expect(cleared?.value).toBe('');
    expect((await web.get(session, '/console')).statusCode).toBe(303);
    // Only this browser's session ends.
    expect((await web.get(other, '/console')).statusCode).toBe(200);
  });
});
