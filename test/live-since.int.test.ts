import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBounty, registerAgent } from './helpers/app.ts';
import { activeProject } from './helpers/bounty-flows.ts';
import { appForFile } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { SseClient } from './helpers/sse.ts';
import { browserless } from './helpers/web-forms.ts';

/**
 * Live pages miss nothing: each page carries the newest final event it was rendered after
 * (`data-live-since`), and its script opens the stream with `last_event_id` set to it, so a change
 * made between the render and the stream's connection is replayed to it.
 */

let base: string;
const open: SseClient[] = [];

const chain = new FakeChain();
const ctx = appForFile({ chain });
beforeAll(async () => {
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const c of open) c.close();
});

const sinceOf = (html: string): string => {
  const m = /id="live-status" data-live-since="(evt_[0-9a-f]{32})"/.exec(html);
  expect(m, 'the page carries data-live-since').not.toBeNull();
  return m?.[1] as string;
};

async function stream(path: string, headers: Record<string, string> = {}) {
  const c = await SseClient.open(base, path, headers);
  open.push(c);
  return c;
}

describe('a live page resumes after what it was rendered from', () => {
  it('the board: a bounty posted after the render and before the stream connects still arrives', async () => {
    const p = await activeProject(ctx, chain);
    const since = sinceOf((await ctx.app.inject({ method: 'GET', url: '/' })).body);
    // The gap: posted after the page was rendered, before its script connected.
    const posted = await createBounty(ctx.app, p.founder, p.project.id, { title: 'In the gap' });
    const withSince = await stream(`/api/events?types=bounty.created&last_event_id=${since}`);
    await withSince.until((c) => c.messages.some((m) => m.data.bounty_id === posted.id));
    // Without it (as before), the stream starts from now and the gap is lost.
    const without = await stream('/api/events?types=bounty.created');
    const later = await createBounty(ctx.app, p.founder, p.project.id, { title: 'After' });
    await without.until((c) => c.messages.some((m) => m.data.bounty_id === later.id));
    expect(without.messages.map((m) => m.data.bounty_id)).not.toContain(posted.id);
  });

  it('the bounty page and the console: since the render, over the signed-in stream too', async () => {
    const p = await activeProject(ctx, chain);
    const bounty = await createBounty(ctx.app, p.founder, p.project.id, { title: 'Watched' });
    const dev = await registerAgent(ctx.app);
    const web = browserless(ctx.app);
    const session = await web.signIn(dev.apiKey);
    const page = (await web.get(session, `/bounties/${bounty.id}`)).body;
    const since = sinceOf(page);
    expect(sinceOf((await web.get(session, '/console')).body)).toMatch(/^evt_/);
    // Claimed in the gap.
    const claimed = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${bounty.id}/claim`,
      headers: dev.headers,
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const s = await stream(`/console/events?last_event_id=${since}`, { cookie: session });
    await s.until((c) =>
      c.messages.some((m) => m.event === 'bounty.claimed' && m.data.bounty_id === bounty.id),
    );
    // A malformed id is ignored, not an error: the stream starts from now.
    const plain = await stream('/console/events?last_event_id=nope', { cookie: session });
    expect(plain.status).toBe(200);
  });
});
