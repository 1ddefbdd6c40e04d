import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../src/lib/errors.ts';
import { createBounty, registerAgent, type TestAgent } from './helpers/app.ts';
import { chainAppForFile, fundedChainProject } from './helpers/builders.ts';
import { randomRuns, randomSeed } from './helpers/counts.ts';
import { deepJson, prng, type Rng, resolveRef, segmentFor, valueFor } from './helpers/fuzz-values.ts';
import { ETH, newVault, TOKEN } from './helpers/wallets.ts';
import { browserless, csrfOf } from './helpers/web-forms.ts';

/**
 * Issue 26: no input answers 5xx, and every error is the contract's envelope with the status its
 * code maps to. Every operation of the OpenAPI document gets seeded hostile requests (shaped by its
 * own schemas, then bent: control characters, lone surrogates, huge and deep bodies, wrong types,
 * wrong content types, other agents' ids, bad keys), and so does every form of the web console,
 * against a real chain (anvil), so the wallet and chain routes run for real.
 * FUZZ_SEED replays a run; FUZZ_RUNS sets the requests per operation.
 */
const SEED = randomSeed('FUZZ_SEED');
const RUNS = randomRuns('FUZZ_RUNS', 6, 60);

type Json = Record<string, unknown>;
interface Operation {
  method: string;
  path: string;
  op: Json;
}

/** The endless event stream never answers as a whole; its errors are covered in events tests. */
const SKIP = new Set(['GET /api/events']);
const FORMS = [
  '/sign-up',
  '/sign-in',
  '/sign-out',
  '/console/bounties/:id/claim',
  '/console/bounties/:id/unclaim',
  '/console/bounties/:id/submit',
  '/console/projects/:id/sell',
  '/console/withdraw',
  '/console/projects/:id/activate',
  '/console/rotate-key',
  '/console/webhooks',
  '/console/webhooks/:id/delete',
  '/console/webhooks/:id/rotate-secret',
  '/console/projects',
  '/console/projects/:id/buy',
  '/console/projects/:id/allowance',
  '/console/faucet',
  '/console/projects/:id/bounties',
  '/console/bounties/:id/approve',
  '/console/bounties/:id/request-changes',
  '/console/bounties/:id/reject',
];
const FORM_FIELDS = [
  'api_key',
  'name',
  'description',
  'next',
  'title',
  'reward_amount',
  'difficulty',
  'pr_url',
  'notes',
  'amount',
  'tokens',
  'to',
  'project_id',
  'url',
  'events',
  'eth',
  'token_symbol',
];

describe(`every route, fuzzed (FUZZ_SEED=${SEED}, ${RUNS} per operation)`, () => {
  let spec: Json;
  let founder: TestAgent;
  let dev: TestAgent;
  const ids: string[] = [];
  /** Real ids by the collection they belong to, so a calm request names a thing that exists. */
  const real = new Map<string, string[]>();
  const realFor = (path: string) => {
    const collection = /\/([a-z-]+)\/\{[^}]+\}/.exec(path)?.[1] ?? '';
    return real.get(collection) ?? ids;
  };

  const { ctx, tc } = chainAppForFile((tc) => ({ chain: tc.chain, vault: newVault() }));
  beforeAll(async () => {
    console.log(`[fuzz-routes seed=${SEED}] replay: FUZZ_SEED=${SEED}`);
    founder = await registerAgent(ctx.app, { wallet_address: tc.account(3).address });
    dev = await registerAgent(ctx.app, { wallet_address: null });
    const project = await fundedChainProject(ctx, tc, founder, {
      account: 3,
      eth: 5n * ETH,
      allowance: 10n ** 9n * TOKEN,
    });
    const bounty = await createBounty(ctx.app, founder, project.id);
    await ctx.app.inject({ method: 'POST', url: `/api/bounties/${bounty.id}/claim`, headers: dev.headers });
    ids.push(project.id, bounty.id, founder.id, dev.id);
    real.set('projects', [project.id]);
    real.set('bounties', [bounty.id]);
    real.set('agents', [founder.id, dev.id]);
    spec = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });

  const operations = (): Operation[] =>
    Object.entries(spec.paths as Record<string, Json>).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([m]) => ['get', 'post', 'patch', 'put', 'delete'].includes(m))
        .map(([m, op]) => ({ method: m.toUpperCase(), path, op: op as Json }))
        .filter((o) => !SKIP.has(`${o.method} ${o.path}`)),
    );

  function rekey(used: string | undefined, key: string) {
    for (const a of [founder, dev]) {
      if (a.headers.authorization === used) a.headers = { authorization: `Bearer ${key}` };
    }
  }

  function authFor(r: Rng): Record<string, string> {
    return r.pick([
      founder.headers,
      dev.headers,
      dev.headers,
      {},
      { authorization: 'Bearer bmk_notakey' },
      { authorization: `Bearer ${'k'.repeat(5000)}` },
      { authorization: 'Basic Zm9vOmJhcg==' },
    ]) as Record<string, string>;
  }

  async function request(r: Rng, o: Operation) {
    // A calm request looks like a client's: real ids, a real key, a body its schema accepts but
    // for its values. The rest are hostile from the first byte.
    const calm = r.chance(0.35);
    const url = o.path.replace(/\{[^}]+\}/g, () => (calm ? r.pick(realFor(o.path)) : segmentFor(r, ids)));
    const params = ((o.op.parameters ?? []) as Json[]).filter((p) => p.in === 'query');
    const query = new URLSearchParams();
    for (const p of params) {
      if (r.chance(0.5)) query.append(String(p.name), String(valueFor(r, p.schema as Json, spec) ?? ''));
    }
    if (r.chance(0.05)) query.append('%zz', '%00');
    const headers: Record<string, string> = calm ? { ...r.pick([founder, dev]).headers } : { ...authFor(r) };
    if (r.chance(0.3)) headers['idempotency-key'] = r.pick(['k1', '', 'x'.repeat(300), '\u00e9\u00e9']);
    let payload: string | undefined;
    const body = (o.op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
    if (o.method !== 'GET' && (body || r.chance(0.2))) {
      const schema = body?.['application/json']?.schema as Json | undefined;
      const kind = calm ? 19 : r.int(20);
      headers['content-type'] =
        kind === 0 ? 'text/plain' : kind === 1 ? 'application/xml' : 'application/json';
      payload =
        kind === 2
          ? deepJson(20_000)
          : kind === 3
            ? '{"a":'
            : kind === 4
              ? ''
              : JSON.stringify(
                  valueFor(r, schema?.$ref ? resolveRef(spec, String(schema.$ref)) : schema, spec),
                );
    }
    const qs = query.toString();
    const res = await ctx.app.inject({
      method: o.method as 'GET',
      url: qs ? `${url}?${qs}` : url,
      headers,
      payload,
    });
    return { res, used: headers.authorization };
  }

  function expectEnvelope(res: LightMyRequestResponse, what: string) {
    expect(res.statusCode, `${what} -> ${res.body.slice(0, 300)}`).toBeLessThan(500);
    if (res.statusCode < 400) return;
    let body: { error?: { code?: string; message?: string } };
    try {
      body = res.json();
    } catch {
      throw new Error(`${what} -> ${res.statusCode} not JSON: ${res.body.slice(0, 200)}`);
    }
    const code = body.error?.code as keyof typeof ERROR_STATUS;
    expect(code in ERROR_STATUS, `${what}: unknown code ${code}`).toBe(true);
    expect(ERROR_STATUS[code], `${what}: ${code} with ${res.statusCode}`).toBe(res.statusCode);
    expect(typeof body.error?.message, what).toBe('string');
  }

  it('opens the claimant a pull request on the host, never a 5xx (FUZZ_SEED=652173258)', async () => {
    // First, while the claimant's key and claim are as set up. That seed's run 5 reached this with the claimant's key and a valid body: the test host lacked
    // what every real host has (openPullRequestAs), and the answer was 503.
    const bountyId = (real.get('bounties') ?? [])[0] as string;
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${bountyId}/pull-request`,
      headers: dev.headers,
      payload: { title: 'Fuzzed', head: 'work' },
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('answers every operation of the OpenAPI document without a 5xx, errors in the envelope', async () => {
    const r = prng(SEED);
    const ops = operations();
    expect(ops.length).toBeGreaterThan(30);
    let sent = 0;
    const reached = new Set<string>();
    for (const o of ops) {
      for (let i = 0; i < RUNS; i++) {
        const { res, used } = await request(r, o);
        expectEnvelope(res, `${o.method} ${o.path} (run ${i}, FUZZ_SEED=${SEED})`);
        // A rotated key ends the old one: the agent goes on with the new one, so later runs
        // still reach the code behind authentication.
        const rotated = o.path === '/api/agents/me/rotate-key' && res.statusCode === 200;
        if (rotated) rekey(used, res.json().api_key);
        sent++;
        if (res.statusCode < 300) reached.add(`${o.method} ${o.path}`);
      }
    }
    expect(sent).toBe(ops.length * RUNS);
    // Shaped by the schemas, a good part of the requests gets past validation to the code behind.
    console.log(`[fuzz-routes] ${reached.size} of ${ops.length} operations answered 2xx at least once`);
    expect(reached.size).toBeGreaterThan(ops.length / 4);
  });

  it('answers every web form without a 5xx, signed in or not, with or without its token', async () => {
    const r = prng(SEED + 1);
    const web = browserless(ctx.app);
    const session = await web.signIn((await registerAgent(ctx.app, { wallet_address: null })).apiKey);
    const csrf = csrfOf((await web.get(session, '/console/account')).body);
    for (const path of FORMS) {
      for (let i = 0; i < RUNS; i++) {
        const url = path.replace(/:id/g, () => segmentFor(r, ids));
        const fields: Record<string, string> = {};
        for (const f of FORM_FIELDS)
          if (r.chance(0.4)) fields[f] = String(valueFor(r, { type: 'string' }, {}));
        if (r.chance(0.8)) fields._csrf = r.chance(0.9) ? csrf : 'forged';
        const signedIn = r.chance(0.8);
        const payload = new URLSearchParams(fields).toString();
        const res = await ctx.app.inject({
          method: 'POST',
          url,
          headers: {
            'content-type': r.chance(0.9) ? 'application/x-www-form-urlencoded' : 'application/json',
            ...(signedIn ? { cookie: session } : {}),
          },
          payload: r.chance(0.05) ? '%' : payload,
        });
        expect(
          res.statusCode,
          `POST ${url} (run ${i}, FUZZ_SEED=${SEED}) -> ${res.body.slice(0, 300)}`,
        ).toBeLessThan(500);
      }
    }
  });
});
