import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, type TestAgent, type TestContext } from './helpers/app.ts';
import { type ConsoleForms, ETH, setUpConsoleForms } from './helpers/console-forms.ts';
import { type Browserless, errorsOf, expectNoStore } from './helpers/web-forms.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

/**
 * Every console form does what its JSON route does, through the same service: checked by the
 * state the services report afterwards, never by the page's word alone. The founder's and the
 * account forms here; the contributor's and the review forms in
 * web-console-review-forms.int.test.ts.
 */

let ctx: TestContext;
let chain: ConsoleForms['chain'];
let web: Browserless;
let founder: TestAgent;
let founderSession: string;
let projectId: string;
let repoUrl: string;

beforeAll(async () => {
  ({ ctx, chain, web, founder, founderSession } = await setUpConsoleForms());
});

afterAll(async () => {
  await ctx?.close();
});

const founderWallet = async () =>
  (await ctx.app.services.directory.require(founder.id)).walletAddress as string;

describe('founder forms', () => {
  it('creates a project; a bad symbol is shown on its field with 400 and nothing created', async () => {
    const bad = await web.post(founderSession, '/console/projects', { name: 'Bad', token_symbol: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(
      /id="create-project-token_symbol"[^>]*aria-describedby="[^"]*create-project-token_symbol-error"/,
    );
    expect(bad.body).toContain('value="Bad"');
    expectNoStore(bad);
    const { page } = await web.submit(founderSession, '/console/projects', {
      name: 'Console Project',
      token_symbol: 'cons',
      description: 'Made in the console',
    });
    expect(page.body).toContain('Project “Console Project” created');
    const { projects } = await ctx.app.services.projects.list({
      founder_id: founder.id,
      limit: 10,
      offset: 0,
    });
    expect(projects.map((p) => [p.name, p.token_symbol, p.status])).toEqual([
      ['Console Project', 'CONS', 'proposed'],
    ]);
    projectId = projects[0]?.id as string;
    // The service's own rule, shown with its status: the symbol is taken.
    const dup = await web.post(founderSession, '/console/projects', { name: 'Again', token_symbol: 'CONS' });
    expect(dup.statusCode).toBe(409);
    expect(errorsOf(dup.body).join(' ')).toMatch(/symbol/i);
  });

  it('activates with visible progress when the deployment takes a while', async () => {
    let release: () => void = () => {};
    chain.gate.next = new Promise<void>((r) => {
      release = r;
    });
    const res = await web.post(founderSession, `/console/projects/${projectId}/activate`, {});
    expect(res.statusCode).toBe(303);
    const progressUrl = `/console/projects/${projectId}/activation`;
    expect(res.headers.location).toBe(progressUrl);
    const progress = await web.get(founderSession, progressUrl);
    expect(progress.body).toContain(`hx-get="/console/projects/${projectId}/activation/status"`);
    expect(progress.body).toContain('<noscript><meta http-equiv="refresh" content="2"></noscript>');
    const list = await web.get(founderSession, '/console/projects');
    expect(list.body).toContain('Activating…');
    // A second activation meanwhile is the service's 409, shown on the form.
    const again = await web.post(founderSession, `/console/projects/${projectId}/activate`, {});
    expect(again.statusCode).toBe(409);
    release();
    await expect.poll(async () => (await ctx.app.services.projects.get(projectId)).status).toBe('active');
    const status = await web.get(founderSession, `${progressUrl}/status`);
    expect(status.headers['hx-redirect']).toBe('/console/projects');
    const done = await web.get(founderSession, progressUrl);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/console/projects');
    repoUrl = (await ctx.app.services.projects.get(projectId)).repo_url as string;
    expect(repoUrl).toContain('bounty-org');
    // The stub deploys no curve: give it one, as the wallet's holdings read it.
    const curve = (await ctx.app.services.projects.require(projectId)).curveAddress as string;
    chain.setCurve(curve, { a: 10n ** 12n, b: 1000n, supplyUnits: 10_000n * ETH });
  });

  it('faucet, buy and allowance go through the in-app wallet; the funds show on the page', async () => {
    const address = await founderWallet();
    await web.submit(founderSession, '/console/faucet', {});
    expect(chain.calls.at(-1)).toMatchObject({ kind: 'faucet', from: address });
    const bought = await web.submit(founderSession, `/console/projects/${projectId}/buy`, { eth: '0.5' });
    expect(chain.calls.at(-1)).toMatchObject({
      kind: 'buy',
      from: address,
      args: [expect.any(String), ETH / 2n],
    });
    expect(bought.page.body).toContain('Bought 500 CONS for 0.5 ETH');
    // The stub mints nothing on the ledger: the balance is the test's to set.
    const token = (await ctx.app.services.projects.get(projectId)).token_address as string;
    chain.setFunds(token, address, 1000n, 0n);
    const set = await web.submit(founderSession, `/console/projects/${projectId}/allowance`, {
      amount: '400',
    });
    expect(set.page.body).toContain('Allowance set to 400 CONS');
    const status = await ctx.app.services.wallets.approvalStatus(founder.id, address, projectId);
    expect(status).toMatchObject({ balance: '1000', allowance: '400', available: '400' });
    expect(set.page.body).toMatch(/<dt>Allowance<\/dt><dd>400 CONS<\/dd>/);
    const bad = await web.post(founderSession, `/console/projects/${projectId}/buy`, { eth: '-1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(`id="buy-${projectId}-eth-error"`);
  });

  it('posts a bounty; one the funds cannot cover is refused with the service’s message', async () => {
    // The form says what a reward is worth before it is posted: the fee, and a token's price now.
    const form = (await web.get(founderSession, '/console/projects')).body;
    expect(form).toMatch(
      /The contributor gets it minus the 5% platform fee; 1 CONS sells for ≈ [0-9.]+ ETH now\./,
    );
    const { page } = await web.submit(founderSession, `/console/projects/${projectId}/bounties`, {
      title: 'Fix the parser',
      description: 'It chokes on tabs.',
      reward_amount: '100',
      difficulty: 'easy',
    });
    expect(page.body).toContain('Bounty “Fix the parser” posted for 100 CONS');
    const { bounties } = await ctx.app.services.bounties.list({
      project_id: projectId,
      limit: 10,
      offset: 0,
    });
    expect(bounties.map((b) => [b.title, b.reward_amount, b.difficulty, b.status])).toEqual([
      ['Fix the parser', 100, 'easy', 'open'],
    ]);
    const tooMuch = await web.post(founderSession, `/console/projects/${projectId}/bounties`, {
      title: 'Too big',
      description: 'More than the allowance',
      reward_amount: '1000',
      difficulty: 'hard',
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.body).toContain(`id="bounty-${projectId}-message"`);
    const empty = await web.post(founderSession, `/console/projects/${projectId}/bounties`, {
      title: '',
      description: 'x',
      reward_amount: 'ten',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain(`id="bounty-${projectId}-title-error"`);
    expect(empty.body).toContain(`id="bounty-${projectId}-reward_amount-error"`);
    expect(
      (await ctx.app.services.bounties.list({ project_id: projectId, limit: 10, offset: 0 })).total,
    ).toBe(1);
  });
});

describe('account forms', () => {
  it('rotates the key: shown once, the old key stops, other browsers are signed out, this one stays', async () => {
    const agent = await registerAgent(ctx.app);
    const here = await web.signIn(agent.apiKey);
    const elsewhere = await web.signIn(agent.apiKey);
    const res = await web.post(here, '/console/rotate-key', {});
    expect(res.statusCode).toBe(200);
    expectNoStore(res);
    const newKey = /id="new-key"[^>]*value="([^"]+)"/.exec(res.body)?.[1] as string;
    expect(newKey).toMatch(/^bmk_/);
    expect(await ctx.app.services.agents.authenticate(agent.apiKey)).toBeNull();
    expect((await ctx.app.services.agents.authenticate(newKey))?.id).toBe(agent.id);
    expect((await web.get(here, '/console/account')).body).not.toContain(newKey);
    expect((await web.get(elsewhere, '/console')).statusCode).toBe(303);
  });

  it('rotating the key through the API signs out every browser the old key signed in', async () => {
    const agent = await registerAgent(ctx.app);
    const one = await web.signIn(agent.apiKey);
    const two = await web.signIn(agent.apiKey);
    const other = await registerAgent(ctx.app);
    const bystander = await web.signIn(other.apiKey);
    expect((await web.get(one, '/console')).statusCode).toBe(200);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/agents/me/rotate-key',
      headers: agent.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const session of [one, two]) {
      const page = await web.get(session, '/console');
      expect(page.statusCode).toBe(303);
      expect(page.headers.location).toMatch(/^\/sign-in/);
    }
    // Another agent's browser is not touched.
    expect((await web.get(bystander, '/console')).statusCode).toBe(200);
  });

  it('adds a webhook (secret shown once), rotates its secret and deletes it', async () => {
    const bad = await web.post(founderSession, '/console/webhooks', { url: 'ftp://x', types: ['nope'] });
    expect(bad.statusCode).toBe(400);
    const added = await web.post(founderSession, '/console/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      types: ['bounty.created', 'submission.approved'],
    });
    expect(added.statusCode, errorsOf(added.body).join()).toBe(200);
    const secret = /id="new-secret"[^>]*value="(whsec_[^"]+)"/.exec(added.body)?.[1];
    expect(secret).toBeDefined();
    const [hook] = await ctx.app.services.agentWebhooks.list(founder.id);
    expect(hook).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      types: ['bounty.created', 'submission.approved'],
    });
    const page = await web.get(founderSession, '/console/account');
    expect(page.body).toContain('bounty.created, submission.approved');
    expect(page.body).not.toContain(secret);
    const rotated = await web.post(founderSession, `/console/webhooks/${hook?.id}/rotate-secret`, {});
    const next = /id="new-secret"[^>]*value="(whsec_[^"]+)"/.exec(rotated.body)?.[1];
    expect(next).toBeDefined();
    expect(next).not.toBe(secret);
    await web.submit(founderSession, `/console/webhooks/${hook?.id}/delete`, {});
    expect(await ctx.app.services.agentWebhooks.list(founder.id)).toEqual([]);
    const gone = await web.post(founderSession, `/console/webhooks/${hook?.id}/delete`, {});
    expect(gone.statusCode).toBe(404);
  });

  it('verifies a webhook’s URL again and changes it, each URL answering the challenge first', async () => {
    const rx = await startReceiver(undefined, { echo: false });
    const next = await startReceiver();
    try {
      const added = await web.post(founderSession, '/console/webhooks', { url: rx.url });
      expect(added.statusCode, errorsOf(added.body).join()).toBe(200);
      expect(added.body).toContain('did not answer the challenge (answered 200 without the challenge');
      const [hook] = await ctx.app.services.agentWebhooks.list(founder.id);
      expect(hook?.status).toBe('pending_verification');
      const page = await web.get(founderSession, '/console/account');
      expect(page.body).toContain('not verified');
      expect(page.body).toContain(`action="/console/webhooks/${hook?.id}/verify"`);

      rx.setEcho(true);
      const { page: after } = await web.submit(founderSession, `/console/webhooks/${hook?.id}/verify`, {});
      expect(after.body).toContain('answered the challenge: it receives events from now on');
      expect((await ctx.app.services.agentWebhooks.list(founder.id))[0]?.status).toBe('active');
      expect(rx.verifications).toHaveLength(2);

      const bad = await web.post(founderSession, `/console/webhooks/${hook?.id}/url`, { url: 'ftp://x' });
      expect(bad.statusCode).toBe(400);
      const moved = await web.submit(founderSession, `/console/webhooks/${hook?.id}/url`, { url: next.url });
      expect(moved.page.body).toContain(`${next.url} answered the challenge`);
      expect(next.verifications).toHaveLength(1);
      expect((await ctx.app.services.agentWebhooks.list(founder.id))[0]).toMatchObject({
        url: next.url,
        status: 'active',
      });
      await web.submit(founderSession, `/console/webhooks/${hook?.id}/delete`, {});
    } finally {
      await Promise.all([rx.close(), next.close()]);
    }
  });
});
