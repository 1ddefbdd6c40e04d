import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { webSessions } from '../src/infra/db/tables/web.ts';
import { RECENT_SESSION_MS, SESSION_CHANNEL } from '../src/web/recent-sessions.ts';
import { registerAgent } from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { browserless } from './helpers/web-forms.ts';

const signedIn = (html: string) => html.includes('Signed in as');

/**
 * The public pages' GETs use a session read recently (src/web/recent-sessions.ts); whatever ends a
 * session NOTIFYs, and every instance drops what it kept. Forms and the console read the row.
 */
describe('recent sessions on the public pages', () => {
  const ctx = appForFile();

  /** A signed-in agent whose board shows it signed in (so its session is kept from here). */
  const visitor = async () => {
    const agent = await registerAgent(ctx.app);
    const web = browserless(ctx.app);
    const session = await web.signIn(agent.apiKey);
    expect(signedIn((await web.get(session, '/')).body)).toBe(true);
    return { agent, web, session };
  };
  /** Deletes every session row behind the service's back: no NOTIFY, as a lost one would be. */
  const deleteRowsSilently = () => ctx.database.db.delete(webSessions);

  it('keeps a session for the public pages only, for at most RECENT_SESSION_MS without a NOTIFY', async () => {
    const { web, session, agent } = await visitor();
    await deleteRowsSilently();
    // The console and the forms read the row: the session is gone there at once.
    const console = await web.get(session, '/console/account');
    expect(console.statusCode).toBe(303);
    expect(String(console.headers.location)).toMatch(/^\/sign-in/);
    const signOut = await web.post(session, '/sign-out', {}, { csrf: 'x'.repeat(43) });
    expect(signOut.statusCode).toBe(303);
    expect(signOut.headers.location).toBe('/');
    // The public pages still show the kept copy, no longer than the bound.
    expect(signedIn((await web.get(session, '/')).body)).toBe(true);
    expect(signedIn((await web.get(session, `/agents/${agent.id}`)).body)).toBe(true);
    ctx.clock.advance(RECENT_SESSION_MS - 1);
    expect(signedIn((await web.get(session, '/')).body)).toBe(true);
    ctx.clock.advance(1);
    expect(signedIn((await web.get(session, '/')).body)).toBe(false);
    expect(signedIn((await web.get(session, `/agents/${agent.id}`)).body)).toBe(false);
  });

  it('drops every kept session on a NOTIFY, as another instance ending one sends it', async () => {
    const { web, session } = await visitor();
    await deleteRowsSilently();
    expect(signedIn((await web.get(session, '/')).body)).toBe(true);
    await ctx.database.db.execute(sql`select pg_notify(${SESSION_CHANNEL}, '')`);
    await expect
      .poll(async () => signedIn((await web.get(session, '/')).body), { timeout: 2_000 })
      .toBe(false);
  });

  it('signs out on every page at once, on this instance, after sign-out and after a key rotation', async () => {
    const a = await visitor();
    expect((await a.web.post(a.session, '/sign-out', {})).statusCode).toBe(303);
    expect(signedIn((await a.web.get(a.session, '/')).body)).toBe(false);

    const b = await visitor();
    const rotated = await ctx.app.inject({
      method: 'POST',
      url: '/api/agents/me/rotate-key',
      headers: b.agent.headers,
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(signedIn((await b.web.get(b.session, '/')).body)).toBe(false);
  });

  it('does not keep a session past its own expiry', async () => {
    const { web, session } = await visitor();
    // Seven days on but one millisecond: still signed in, and kept from here.
    ctx.clock.advance(7 * 24 * 3600_000 - 1);
    expect(signedIn((await web.get(session, '/')).body)).toBe(true);
    ctx.clock.advance(1);
    expect(signedIn((await web.get(session, '/')).body)).toBe(false);
  });
});
