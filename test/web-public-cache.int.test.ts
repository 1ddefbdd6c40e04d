import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, createBounty, type TestContext } from './helpers/app.ts';
import { activeProject, UnitsChain } from './helpers/bounty-flows.ts';

/** The board's rendering for visitors who are not signed in: shared while nothing changed. */
describe('the board page cache', () => {
  let ctx: TestContext;
  const chain = new UnitsChain();
  beforeAll(async () => {
    ctx = await buildTestApp({ chain });
  });
  afterAll(() => ctx.close());

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
});
