import { describe, expect, it, vi } from 'vitest';
import { createBounty, registerAgent } from './helpers/app.ts';
import { activeProject, UnitsChain } from './helpers/bounty-flows.ts';
import { appForFile } from './helpers/builders.ts';
import { browserless, csrfOf } from './helpers/web-forms.ts';

/** The board's rendering for visitors who are not signed in: shared while nothing changed. */
describe('the board page cache', () => {
  const chain = new UnitsChain();
  const ctx = appForFile({ chain });

  const board = (url = '/?status=any') => ctx.app.inject({ method: 'GET', url });

  it('renders once per URL while no event was recorded and for at most 5 s', async () => {
    const p = await activeProject(ctx, chain);
    const first = await createBounty(ctx.app, p.founder, p.project.id, { title: 'Cached one' });
    const list = vi.spyOn(ctx.app.services.bounties, 'list');
    try {
      const a = await board();
      const b = await board();
      expect(a.statusCode).toBe(200);
      expect(b.body).toBe(a.body);
      expect(b.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(b.headers['content-security-policy']).toBe(a.headers['content-security-policy']);
      expect(list).toHaveBeenCalledTimes(1);
      expect(a.body).toContain(first.id);
      // Another URL is another page.
      await board('/?status=any&difficulty=hard');
      expect(list).toHaveBeenCalledTimes(2);

      // A new bounty records an event: the next view renders again and shows it.
      const second = await createBounty(ctx.app, p.founder, p.project.id, { title: 'Cached two' });
      const c = await board();
      expect(list).toHaveBeenCalledTimes(3);
      expect(c.body).toContain(second.id);

      // Time alone (ages, the curve's quote) renders it again after 5 s.
      await board();
      expect(list).toHaveBeenCalledTimes(3);
      ctx.clock.advance(5_001);
      await board();
      expect(list).toHaveBeenCalledTimes(4);
    } finally {
      list.mockRestore();
    }
  });

  it('a signed-in visitor gets the same board content, with its own header, from the same rendering', async () => {
    const p = await activeProject(ctx, chain);
    const bounty = await createBounty(ctx.app, p.founder, p.project.id, { title: 'Shared content' });
    const web = browserless(ctx.app);
    const founder = await web.signIn(p.founder.apiKey);
    const other = await registerAgent(ctx.app);
    const dev = await web.signIn(other.apiKey);
    const list = vi.spyOn(ctx.app.services.bounties, 'list');
    const content = (html: string) => html.slice(html.indexOf('<main'), html.indexOf('</main>'));
    try {
      const anonymous = await board('/?status=any&limit=7');
      const mine = await web.get(founder, '/?status=any&limit=7');
      const theirs = await web.get(dev, '/?status=any&limit=7');
      expect(list).toHaveBeenCalledTimes(1);
      expect(mine.statusCode).toBe(200);
      expect(mine.headers['cache-control']).toBe('no-store');
      expect(content(mine.body)).toBe(content(anonymous.body));
      expect(content(theirs.body)).toBe(content(anonymous.body));
      expect(content(mine.body)).toContain(bounty.id);
      // The personal part is each visitor's own: its name and its CSRF token, never another's.
      expect(mine.body).toContain(p.founder.name);
      expect(mine.body).not.toContain(other.name);
      expect(theirs.body).toContain(other.name);
      expect(csrfOf(mine.body)).not.toBe(csrfOf(theirs.body));
      expect(anonymous.body).not.toContain('Signed in as');
      // Nothing but the header differs: the rest of the page is the anonymous one, byte for byte.
      const header = (html: string) =>
        html.slice(html.indexOf('<header class="site-header">'), html.indexOf('</header>') + 9);
      expect(header(mine.body)).toContain('Signed in as');
      expect(mine.body.replace(header(mine.body), header(anonymous.body))).toBe(anonymous.body);
      expect(anonymous.body).not.toContain('bm:site-header');
      // A change renders it again for signed-in visitors too.
      await createBounty(ctx.app, p.founder, p.project.id, { title: 'After the render' });
      await web.get(founder, '/?status=any&limit=7');
      expect(list).toHaveBeenCalledTimes(2);
    } finally {
      list.mockRestore();
    }
  });
});
