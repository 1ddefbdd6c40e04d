import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBounty,
  expectAuthRequired,
  expectError,
  registerAgent,
  type TestAgent,
} from './helpers/app.ts';
import { appForFile } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { claim, inReview, type Scene, scene } from './helpers/review-flow.ts';

/**
 * One 401/403 matrix over the whole API, read from the OpenAPI document itself: every operation
 * that needs a key refuses each way of not having one (none, Basic, malformed, a well-formed key
 * nobody holds) with 401 and `WWW-Authenticate: Bearer`; every operation that documents 403 is
 * called by the agent it must refuse, on a real resource, and answers 403 `forbidden`. A new
 * operation that documents 403 fails here until the matrix says who it refuses.
 */

type Json = Record<string, unknown>;
interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  op: Json;
}

let ops: Operation[];
let s: Scene;
let stranger: TestAgent;
let ids: { project: string; review: string; claimed: string; submission: string };

const chain = new FakeChain();
const ctx = appForFile({ chain });
beforeAll(async () => {
  const spec = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as Json;
  ops = Object.entries(spec.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => ['get', 'post', 'patch', 'put', 'delete'].includes(m))
      .map(([m, op]) => ({ method: m.toUpperCase() as Operation['method'], path, op: op as Json })),
  );
  s = await scene(ctx, chain);
  stranger = await registerAgent(ctx.app);
  const review = await inReview(ctx.app, s);
  const claimed = await createBounty(ctx.app, s.founder, s.project.id, { reward_amount: 10 });
  await claim(ctx.app, await registerAgent(ctx.app), claimed.id);
  ids = {
    project: s.project.id,
    review: review.bounty.id,
    claimed: claimed.id,
    submission: review.submission.id,
  };
});

const needsKey = (o: Operation) => {
  const security = (o.op.security ?? []) as Json[];
  return security.length > 0 && security.every((r) => 'bearerAuth' in r);
};
const key = (o: Operation) => `${o.method} ${o.path}`;

/** Who each operation that documents 403 refuses, on which resource, with a body that is valid. */
const FORBIDDEN: Record<string, { who: () => TestAgent; url: () => string; body?: () => Json }> = {
  'POST /api/projects/{id}/activate': {
    who: () => stranger,
    url: () => `/api/projects/${ids.project}/activate`,
  },
  'POST /api/projects/{id}/bounties': {
    who: () => stranger,
    url: () => `/api/projects/${ids.project}/bounties`,
    body: () => ({ title: 'Not mine', description: 'Not my project.', reward_amount: 1 }),
  },
  'GET /api/projects/{id}/approval-status': {
    who: () => stranger,
    url: () => `/api/projects/${ids.project}/approval-status`,
  },
  // The founder may not claim its own project's bounty.
  'POST /api/bounties/{id}/claim': { who: () => s.founder, url: () => `/api/bounties/${ids.claimed}/claim` },
  'POST /api/bounties/{id}/unclaim': {
    who: () => stranger,
    url: () => `/api/bounties/${ids.claimed}/unclaim`,
  },
  'GET /api/bounties/{id}/repository': {
    who: () => stranger,
    url: () => `/api/bounties/${ids.claimed}/repository`,
  },
  'POST /api/bounties/{id}/pull-request': {
    who: () => stranger,
    url: () => `/api/bounties/${ids.claimed}/pull-request`,
    body: () => ({ title: 'Mine now', head: 'main' }),
  },
  'GET /api/bounties/{id}/submissions/{submission_id}/changes': {
    who: () => stranger,
    url: () => `/api/bounties/${ids.review}/submissions/${ids.submission}/changes`,
  },
  'POST /api/bounties/{id}/submit': {
    who: () => stranger,
    url: () => `/api/bounties/${ids.claimed}/submit`,
    body: () => ({ pr_url: `${s.repoUrl}/pull/999` }),
  },
  'POST /api/bounties/{id}/approve': {
    who: () => stranger,
    url: () => `/api/bounties/${ids.review}/approve`,
  },
  'POST /api/bounties/{id}/reject': {
    who: () => stranger,
    url: () => `/api/bounties/${ids.review}/reject`,
    body: () => ({ review_notes: 'Not yours to reject.' }),
  },
  'POST /api/bounties/{id}/request-changes': {
    who: () => stranger,
    url: () => `/api/bounties/${ids.review}/request-changes`,
    body: () => ({ review_notes: 'Not yours to ask.' }),
  },
};

describe('the 401/403 matrix', () => {
  it('refuses every operation that needs a key, each way of not having one: 401 and WWW-Authenticate', async () => {
    const guarded = ops.filter(needsKey);
    expect(guarded.length).toBeGreaterThan(30);
    for (const o of guarded) {
      expect(Object.keys(o.op.responses as Json), `${key(o)} documents 401`).toContain('401');
      const url = o.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'id' ? 'x_1' : `${name}_1`));
      const method = o.method === 'DELETE' || o.method === 'PUT' ? 'POST' : o.method;
      if (method !== o.method) {
        // expectAuthRequired speaks GET/POST/PATCH; DELETE and PUT are checked by hand.
        const res = await ctx.app.inject({ method: o.method, url });
        expectError(res, 401, 'unauthorized');
        expect(res.headers['www-authenticate']).toBe('Bearer');
        continue;
      }
      await expectAuthRequired(ctx.app, method, url, method === 'GET' ? undefined : {});
    }
  });

  it('answers 403 forbidden to the agent each operation must refuse, on a real resource', async () => {
    const documented = ops.filter((o) => Object.keys(o.op.responses as Json).includes('403') && needsKey(o));
    expect(documented.map(key).sort()).toEqual(Object.keys(FORBIDDEN).sort());
    for (const o of documented) {
      const entry = FORBIDDEN[key(o)];
      if (!entry) continue;
      const res = await ctx.app.inject({
        method: o.method,
        url: entry.url(),
        headers: entry.who().headers,
        ...(entry.body ? { payload: entry.body() } : {}),
      });
      expect([res.statusCode, res.json().error?.code], `${key(o)}: ${res.body}`).toEqual([403, 'forbidden']);
    }
  });
});
