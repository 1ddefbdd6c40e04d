import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_UP_RULES } from '../src/web/public/sign-up.ts';
import { buildTestApp, registerAgent, type TestContext } from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { csrfOf, errorsOf, expectNoStore } from './helpers/web-forms.ts';

/**
 * Sign-up from the web through `app.inject`, as a browser without JavaScript: the form and its
 * double-submit CSRF token, registration through the API's service, the key shown once with a
 * copy button, the session it starts, and errors on the form with the rule in words.
 */

const ctx = appForFile();

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The sign-up form as a browser gets it: its token in the page, the same one in a cookie. */
async function openForm(url = '/sign-up') {
  const res = await ctx.app.inject({ method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'bm_signup');
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe('Strict');
  return { res, token: csrfOf(res.body), cookie: `bm_signup=${cookie?.value}` };
}

async function signUp(
  fields: Record<string, string>,
  opts: { csrf?: string | null; cookie?: string | null; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  const form = opts.csrf === undefined || opts.cookie === undefined ? await openForm() : null;
  const csrf = opts.csrf === undefined ? form?.token : opts.csrf;
  const cookie = opts.cookie === undefined ? form?.cookie : opts.cookie;
  const payload = new URLSearchParams({ ...fields, ...(csrf ? { _csrf: csrf } : {}) }).toString();
  return ctx.app.inject({
    method: 'POST',
    url: '/sign-up',
    headers: { ...FORM, ...(cookie ? { cookie } : {}), ...opts.headers },
    payload,
  });
}

const sessionOf = (res: LightMyRequestResponse) => {
  const c = res.cookies.find((x) => x.name === 'bm_session');
  return c?.value ? `bm_session=${c.value}` : null;
};

/** Whether an agent of that name exists: the API refuses to register it a second time. */
async function nameTaken(name: string): Promise<boolean> {
  const res = await ctx.app.inject({ method: 'POST', url: '/api/agents/register', payload: { name } });
  return res.statusCode === 409;
}

describe('web sign-up', () => {
  it('is linked from /sign-in, keeping where the person was going', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/sign-in?next=/bounties/bnt_x' });
    expect(res.body).toContain('New here? <a href="/sign-up?next=%2Fbounties%2Fbnt_x">Create an agent</a>');
    expect(res.body).not.toContain('POST /api/agents/register');
  });

  it('shows a form with a name, an optional description, the rules in words and a CSRF token', async () => {
    const { res } = await openForm('/sign-up?next=/bounties/bnt_x');
    expectNoStore(res);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toContain('<label for="name">Name</label>');
    expect(res.body).toContain(
      '<label for="description">Description <span class="optional">(optional)</span>',
    );
    expect(res.body).toContain(SIGN_UP_RULES.name);
    expect(res.body).toContain('name="next" value="/bounties/bnt_x"');
  });

  it('registers, shows the key once with a copy button, and signs the browser in', async () => {
    const res = await signUp({ name: 'Web Person', description: 'Fixes parsers.', next: '/bounties/bnt_x' });
    expect(res.statusCode, errorsOf(res.body).join(' | ')).toBe(201);
    expectNoStore(res);
    const key = /id="api-key" class="secret-value" type="text" readonly value="(bmk_[^"]+)"/.exec(
      res.body,
    )?.[1];
    expect(key).toBeDefined();
    expect(res.body).toContain('it will not be shown again');
    expect(res.body).toContain('data-copy="api-key" hidden>Copy the key</button>');
    expect(res.body).toContain('<script src="/assets/page-actions.js" defer></script>');
    expect(res.body).toContain('href="/bounties/bnt_x"');
    // The same service as the API: the key is the agent's, with its description.
    const agent = await ctx.app.services.agents.authenticate(key as string);
    expect(agent).not.toBeNull();
    const own = await ctx.app.services.agents.getOwn((agent as { id: string }).id);
    expect(own).toMatchObject({ name: 'Web Person', description: 'Fixes parsers.' });
    expect(res.body).toContain('Signed in as <strong>Web Person</strong>');
    // The form's token is used up: sending the form again (a reload) registers nothing.
    const cleared = res.cookies.find((c) => c.name === 'bm_signup');
    expect(cleared?.value).toBe('');

    const session = sessionOf(res);
    expect(session).not.toBeNull();
    const console = await ctx.app.inject({
      method: 'GET',
      url: '/console',
      headers: { cookie: session as string },
    });
    expect(console.statusCode).toBe(200);
    expect(console.body).toContain('Web Person');
    expect(console.body).not.toContain(key as string);
    // It asks what the person came to do, and opens the right place.
    expect(res.body).toContain(
      '<a class="button" href="/console/projects">Post bounties: start a project</a>',
    );
    expect(res.body).toContain('href="/console">Earn: find work to claim</a>');
    // A reload sends the form again, now without its token: the key page is gone, said in words,
    // and no second agent is made.
    const reload = await signUp(
      { name: 'Web Person', description: 'Fixes parsers.', next: '/bounties/bnt_x' },
      { csrf: 'used', cookie: session as string },
    );
    expect(reload.statusCode).toBe(409);
    expect(reload.body).toContain(
      'The API key was shown once, on the page you reloaded, and cannot be shown again',
    );
    expect(reload.body).toContain('href="/console/account"');
    expect(reload.body).not.toContain('did not come from a page of this site');
    expect(reload.body).not.toContain('bmk_');
    // Signed in now: the form sends the browser on.
    const again = await ctx.app.inject({
      method: 'GET',
      url: '/sign-up',
      headers: { cookie: session as string },
    });
    expect(again.statusCode).toBe(303);
  });

  it('shows a taken name on the form, with what was typed, and starts no session', async () => {
    await registerAgent(ctx.app, { name: 'Taken Name' });
    const res = await signUp({ name: 'taken name', description: 'kept' });
    expect(res.statusCode).toBe(409);
    expect(errorsOf(res.body)).toContain(
      'An agent named “taken name” already exists (names are compared ignoring case, Unicode compatibility forms and the separators - _ . and spaces). Choose another name.',
    );
    expect(res.body).toContain('aria-invalid="true"');
    expect(res.body).toContain('value="taken name"');
    expect(res.body).toContain('>kept</textarea>');
    expect(sessionOf(res)).toBeNull();
    expect(res.body).not.toContain('bmk_');
  });

  it('states the rule of a field that breaks it', async () => {
    for (const name of ['x', ' padded-but-trimmed-is-fine ', 'no/slashes', 'n'.repeat(65)]) {
      const res = await signUp({ name });
      if (name.trim() === 'padded-but-trimmed-is-fine') {
        expect(res.statusCode, name).toBe(201);
        continue;
      }
      expect(res.statusCode, name).toBe(400);
      expect(errorsOf(res.body), name).toContain(SIGN_UP_RULES.name);
    }
    const long = await signUp({ name: 'Long Description', description: 'd'.repeat(501) });
    expect(long.statusCode).toBe(400);
    expect(errorsOf(long.body)).toContain(SIGN_UP_RULES.description);
    expect(await nameTaken('Long Description')).toBe(false);
  });

  it('refuses a form without its token, with another token, or from another site', async () => {
    const { token, cookie } = await openForm();
    const other = await openForm();
    const refused = [
      await signUp({ name: 'Csrf One' }, { csrf: null, cookie }),
      await signUp({ name: 'Csrf Two' }, { csrf: token, cookie: null }),
      await signUp({ name: 'Csrf Three' }, { csrf: token, cookie: other.cookie }),
      await signUp(
        { name: 'Csrf Four' },
        { csrf: token, cookie, headers: { 'sec-fetch-site': 'cross-site' } },
      ),
      await signUp(
        { name: 'Csrf Five' },
        { csrf: token, cookie, headers: { origin: 'https://evil.example' } },
      ),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(403);
      expect(sessionOf(res)).toBeNull();
    }
    for (const n of ['One', 'Two', 'Three', 'Four', 'Five']) expect(await nameTaken(`Csrf ${n}`)).toBe(false);
    // The same token and cookie, from this site: accepted.
    const ok = await signUp(
      { name: 'Csrf Six' },
      { csrf: token, cookie, headers: { 'sec-fetch-site': 'same-origin' } },
    );
    expect(ok.statusCode).toBe(201);
  });
});

describe('web sign-up rate limit', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await buildTestApp({ env: { RATE_LIMIT_REGISTER_PER_IP_PER_HOUR: '2' } });
  });
  afterAll(() => limited?.close());

  it('spends the registration budget per IP per hour and says when to try again', async () => {
    const send = async (name: string) => {
      const form = await limited.app.inject({ method: 'GET', url: '/sign-up' });
      const cookie = form.cookies.find((c) => c.name === 'bm_signup')?.value as string;
      return limited.app.inject({
        method: 'POST',
        url: '/sign-up',
        headers: { ...FORM, cookie: `bm_signup=${cookie}` },
        payload: new URLSearchParams({ name, _csrf: csrfOf(form.body) }).toString(),
      });
    };
    expect((await send('Limited One')).statusCode).toBe(201);
    expect((await send('Limited Two')).statusCode).toBe(201);
    const third = await send('Limited Three');
    expect(third.statusCode).toBe(429);
    expect(errorsOf(third.body).join(' ')).toMatch(/Too many agents .* Try again in \d+ minutes\./);
    expect(third.body).toContain('value="Limited Three"');
  });
});
