import { PgDatabase } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents } from '../src/infra/db/schema.ts';
import { buildTestApp, createBounty, registerAgent, type TestContext } from './helpers/app.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { approve, inReview, okJson, post, scene } from './helpers/review-flow.ts';
import { browserless } from './helpers/web-forms.ts';

/**
 * No everyday read builds its SQL with drizzle's query builder per request: each is compiled once
 * (infra/db/statement.ts), since building a select cost 100-150 µs of CPU per query (bench/README.md,
 * "Everyday reads compiled"). Every GET below, the API's and the pages', anonymous and signed in,
 * is asked for once to compile its reads; asked again, none of them may start a select.
 */

let ctx: TestContext;
const chain = new FakeChain();
beforeAll(async () => {
  // The list's answer cache off: within its second a repeated list is answered without any read,
  // and past it (a slow machine) it reads again, so the guard would see the list's reads by chance.
  ctx = await buildTestApp({ chain, env: { BOUNTY_LIST_CACHE_MS: '0' } });
});
afterAll(() => ctx?.close());

type Method = (...args: unknown[]) => unknown;
const BUILDERS = ['select', 'selectDistinct', 'selectDistinctOn', '$count'] as const;

/** Runs `work`, and answers where a drizzle select was started meanwhile (a stack line each). */
async function selectsStartedDuring(work: () => Promise<void>): Promise<string[]> {
  const proto = PgDatabase.prototype as unknown as Record<string, Method>;
  const saved = BUILDERS.map((name) => [name, proto[name] as Method] as const);
  const started: string[] = [];
  for (const [name, original] of saved)
    proto[name] = function (this: unknown, ...args: unknown[]) {
      const here = (new Error().stack ?? '')
        .split('\n')
        .find((l) => /\/src\/(modules|web|infra\/http)\//.test(l));
      started.push(`${name} ${here?.trim() ?? '(no caller in src)'}`);
      return original.apply(this, args);
    };
  try {
    await work();
  } finally {
    for (const [name, original] of saved) proto[name] = original;
  }
  return started;
}

describe('the everyday reads', () => {
  it('start no drizzle select once compiled, on any everyday GET of the API or the pages', async () => {
    const app = ctx.app;
    const s = await scene(ctx, chain, { funds: 10n ** 12n });
    const { bounty } = await inReview(app, s, { reward: 7 });
    const other = await registerAgent(app);
    const { bounty: paid } = await inReview(app, s, { reward: 9, dev: other });
    okJson(await approve(app, s.founder, paid.id));
    const { bounty: sentBack } = await inReview(app, s, { reward: 5, dev: await registerAgent(app) });
    okJson(
      await post(app, `/api/bounties/${sentBack.id}/request-changes`, s.founder, { review_notes: 'Again.' }),
    );
    okJson(await post(app, `/api/bounties/${bounty.id}/comments`, s.dev, { body: 'A question.' }), 201);
    await createBounty(app, s.founder, s.project.id);

    const web = browserless(app);
    const founderSession = await web.signIn(s.founder.apiKey);
    const devSession = await web.signIn(other.apiKey);
    const anonymous = [
      '/api/bounties',
      `/api/bounties?status=open&difficulty=easy&project_id=${s.project.id}`,
      // Pages with no rows carry no total: it is counted on its own, with and without a keyword.
      `/api/bounties?difficulty=extreme&project_id=${s.project.id}`,
      '/api/bounties?q=nothingmatchesthis',
      '/api/bounties?offset=500',
      '/api/bounties?q=bounty&offset=500',
      '/api/bounties?payable=true&offset=500',
      `/api/bounties/${bounty.id}`,
      `/api/bounties/${bounty.id}/comments`,
      '/api/projects',
      `/api/projects?status=active&founder_id=${s.founder.id}`,
      `/api/projects/${s.project.id}`,
      `/api/agents/${other.id}`,
      '/api/activity',
      `/api/activity?type=bounty.created&project_id=${s.project.id}`,
      '/api/dashboard/stats',
      `/bounties/${bounty.id}`,
      `/projects/${s.project.id}`,
      `/agents/${other.id}`,
    ];
    const withKey = [
      '/api/agents/me',
      '/api/reviews',
      '/api/agents/me/wallet/transactions',
      '/api/agents/me/webhooks',
    ];
    const pages = ['/console', '/console/reviews', '/console/projects', '/console/account'];
    const ok = (res: { statusCode: number; body: string }, url: string) =>
      expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
    const everything = async () => {
      for (const url of anonymous) ok(await app.inject({ url }), url);
      for (const url of withKey)
        for (const agent of [s.founder, other]) ok(await app.inject({ url, headers: agent.headers }), url);
      for (const url of pages)
        for (const session of [founderSession, devSession]) ok(await web.get(session, url), url);
    };
    await everything(); // compiles each read on its first run
    expect(await selectsStartedDuring(everything)).toEqual([]);
    // The guard sees a select started per request (it is not blind): a read left uncompiled.
    const seen = await selectsStartedDuring(async () => {
      await ctx.database.db.select().from(agents).limit(1);
    });
    expect(seen).toHaveLength(1);
  });
});
