import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, registerAgent, type TestAgent, type TestContext } from './helpers/app.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { deliverMerge } from './helpers/merge-webhook.ts';
import { setRepoLogin } from './helpers/repo-login.ts';
import { newVault } from './helpers/wallets.ts';
import {
  type Browserless,
  browserless,
  errorsOf,
  expectNoStore,
  stubWalletChain,
} from './helpers/web-forms.ts';

/**
 * Every console form does what its JSON route does, through the same service: checked by the
 * state the services report afterwards, never by the page's word alone.
 */

let ctx: TestContext;
let chain: ReturnType<typeof stubWalletChain>;
let host: FakeRepoHost;
let web: Browserless;
let founder: TestAgent;
let contributor: TestAgent;
let founderSession: string;
let contributorSession: string;
let projectId: string;
let repoUrl: string;

const ETH = 10n ** 18n;

beforeAll(async () => {
  chain = stubWalletChain(new FakeChain());
  host = new FakeRepoHost();
  ctx = await buildTestApp({ chain, vault: newVault(), repoHost: host });
  web = browserless(ctx.app);
  founder = await registerAgent(ctx.app, { wallet_address: null });
  contributor = await registerAgent(ctx.app);
  founderSession = await web.signIn(founder.apiKey);
  contributorSession = await web.signIn(contributor.apiKey);
});

afterAll(async () => {
  await ctx?.close();
});

const founderWallet = async () =>
  (await ctx.app.services.directory.require(founder.id)).walletAddress as string;
const bountyStatus = async (id: string) => (await ctx.app.services.bounties.get(id)).status;

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

describe('contributor and review forms', () => {
  let bountyId: string;
  beforeAll(async () => {
    const { bounties } = await ctx.app.services.bounties.list({
      project_id: projectId,
      limit: 10,
      offset: 0,
    });
    bountyId = bounties[0]?.id as string;
  });

  it('claims from the console, shows the time left, unclaims and claims again', async () => {
    const overview = await web.get(contributorSession, '/console');
    expect(overview.body).toContain(`action="/console/bounties/${bountyId}/claim"`);
    const claimed = await web.submit(contributorSession, `/console/bounties/${bountyId}/claim`, {});
    expect(await bountyStatus(bountyId)).toBe('claimed');
    expect(claimed.page.body).toMatch(
      /Time left: <strong>(71 h 59 min|72 h 0 min|3 d 0 h|2 d 23 h)<\/strong>/,
    );
    await web.submit(contributorSession, `/console/bounties/${bountyId}/unclaim`, {});
    expect(await bountyStatus(bountyId)).toBe('open');
    // The founder cannot claim its own bounty: the service's 403, on the page.
    const own = await web.post(founderSession, `/console/bounties/${bountyId}/claim`, {});
    expect(own.statusCode).toBe(403);
    await web.submit(contributorSession, `/console/bounties/${bountyId}/claim`, {});
    expect(await bountyStatus(bountyId)).toBe('claimed');
  });

  it('submits a pull request URL; a foreign URL is refused on its field', async () => {
    const bad = await web.post(contributorSession, `/console/bounties/${bountyId}/submit`, {
      pr_url: 'https://elsewhere.example/x/pull/1',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(`id="submit-${bountyId}-message"`);
    const prUrl = `${repoUrl}/pull/7`;
    const login = (await ctx.app.services.directory.require(contributor.id)).repoLogin as string;
    host.setPullRequest(prUrl, {
      authorLogin: login,
      title: 'Tabs are whitespace',
      additions: 12,
      deletions: 3,
      changedFiles: 2,
    });
    const ok = await web.submit(contributorSession, `/console/bounties/${bountyId}/submit`, {
      pr_url: prUrl,
    });
    expect(ok.page.body).toContain('Your pull request was submitted');
    expect(await bountyStatus(bountyId)).toBe('in_review');
  });

  it('shows the review queue with the diff summary, refuses a reject without notes, and approves with notes', async () => {
    const queue = await web.get(founderSession, '/console/reviews');
    expect(queue.body).toContain('Tabs are whitespace');
    expect(queue.body).toMatch(/\+12<\/span> <span class="deletions">−3<\/span> in 2 files/);
    expect(queue.body).toContain(contributor.name);
    const noNotes = await web.post(founderSession, `/console/bounties/${bountyId}/reject`, {
      review_notes: '  ',
    });
    expect(noNotes.statusCode).toBe(400);
    expect(noNotes.body).toContain(`id="reject-${bountyId}-review_notes-error"`);
    expect(await bountyStatus(bountyId)).toBe('in_review');
    const address = await founderWallet();
    const token = (await ctx.app.services.projects.get(projectId)).token_address as string;
    chain.setFunds(token, address, 1000n, 400n);
    const approved = await web.submit(founderSession, `/console/bounties/${bountyId}/approve`, {
      review_notes: 'Clean work',
    });
    const sub = (await ctx.app.services.bounties.get(bountyId)).submissions[0];
    expect(sub).toMatchObject({ status: 'approved', review_notes: 'Clean work' });
    expect(approved.page.body).toContain(`Contributor transaction ${sub?.contributor_tx_hash}`);
    expect(approved.page.body).toContain(`fee transaction ${sub?.platform_fee_tx_hash}`);
    // One router transaction pays the contributor and the fee: one hash for both.
    expect(sub?.contributor_tx_hash).toBe(sub?.platform_fee_tx_hash);
    const row = /<tr id="payout-[^"]+">[\s\S]*?<\/tr>/.exec(approved.page.body)?.[0] ?? '';
    expect(row).toMatch(/status-confirmed">confirmed/);
    // Its payout row shows that transaction in the contributor column and in the fee column.
    expect(row).not.toContain('not sent yet');
    expect(row.split(`title="${sub?.contributor_tx_hash}"`)).toHaveLength(3);
    const mine = await web.get(contributorSession, '/console');
    expect(mine.body).toContain('Clean work');
    // 100 tokens less the 5% fee, held in an external wallet: shown, but sold from that wallet.
    const earning = /<tr id="earning-[^"]+">[\s\S]*?<\/tr>/.exec(mine.body)?.[0] ?? '';
    expect(earning).toContain('1 approved submission');
    expect(earning).toMatch(/Earned <\/span>95 CONS/);
    expect(earning).not.toContain('sell-all');
    expect(mine.body).toContain('Your wallet is external');
  });

  it('rejects a second bounty with notes; the contributor reads them and the bounty reopens', async () => {
    await web.submit(founderSession, `/console/projects/${projectId}/bounties`, {
      title: 'Second job',
      description: 'Another one',
      reward_amount: '50',
      difficulty: 'medium',
    });
    const { bounties } = await ctx.app.services.bounties.list({
      project_id: projectId,
      status: 'open',
      limit: 10,
      offset: 0,
    });
    const second = bounties[0]?.id as string;
    await web.submit(contributorSession, `/console/bounties/${second}/claim`, {});
    const login = (await ctx.app.services.directory.require(contributor.id)).repoLogin as string;
    host.adoptAuthor(`${repoUrl}/pull/8`, login);
    await web.submit(contributorSession, `/console/bounties/${second}/submit`, {
      pr_url: `${repoUrl}/pull/8`,
    });
    await web.submit(founderSession, `/console/bounties/${second}/reject`, { review_notes: 'Missing tests' });
    expect(await bountyStatus(second)).toBe('open');
    const mine = await web.get(contributorSession, '/console');
    expect(mine.body).toMatch(/status-rejected">rejected<\/span><\/td>\s*<td>Missing tests<\/td>/);
  });

  it('a pull request the founder merged is owed: no reject form, the project page says so, and it is paid', async () => {
    await web.submit(founderSession, `/console/projects/${projectId}/bounties`, {
      title: 'Third job',
      description: 'Merged by the founder',
      reward_amount: '30',
      difficulty: 'easy',
    });
    const { bounties } = await ctx.app.services.bounties.list({
      project_id: projectId,
      status: 'open',
      limit: 10,
      offset: 0,
    });
    const third = bounties.find((b) => b.title === 'Third job')?.id as string;
    await web.submit(contributorSession, `/console/bounties/${third}/claim`, {});
    const login = (await ctx.app.services.directory.require(contributor.id)).repoLogin as string;
    const prUrl = `${repoUrl}/pull/9`;
    host.adoptAuthor(prUrl, login);
    await web.submit(contributorSession, `/console/bounties/${third}/submit`, { pr_url: prUrl });
    // The founder merges it with no allowance left: owed, and not payable yet.
    let founderLogin = (await ctx.app.services.directory.require(founder.id)).repoLogin;
    if (!founderLogin) {
      founderLogin = `founder-${founder.id.slice(-12)}`;
      await setRepoLogin(ctx, founder.id, founderLogin);
    }
    const address = await founderWallet();
    const token = (await ctx.app.services.projects.get(projectId)).token_address as string;
    const funds = await chain.readFunds(token, address);
    chain.setFundsUnits(token, address, funds.balanceUnits, 0n);
    host.setPullRequest(prUrl, {
      state: 'closed',
      merged: true,
      mergedByLogin: founderLogin,
      authorLogin: login,
    });
    const merged = await deliverMerge(ctx.app, host.webhookSecret, prUrl);
    expect(merged.statusCode, merged.body).toBe(200);
    expect(merged.json()).toMatchObject({ status: 'owed', bounty_id: third });
    await ctx.app.services.owedPayouts.run();
    expect(await bountyStatus(third)).toBe('in_review');

    const queue = await web.get(founderSession, '/console/reviews');
    expect(queue.body).toContain('You merged it: the reward is owed.');
    expect(queue.body).toContain(`action="/console/bounties/${third}/approve"`);
    expect(queue.body).not.toContain(`action="/console/bounties/${third}/reject"`);
    // The service refuses a reject sent anyway: 409, shown on the page.
    const forced = await web.post(founderSession, `/console/bounties/${third}/reject`, {
      review_notes: 'No',
    });
    expect(forced.statusCode).toBe(409);
    expect(await bountyStatus(third)).toBe('in_review');
    const projectPage = await web.get('', `/projects/${projectId}`);
    expect(projectPage.body).toMatch(/<dt>Merged, payment owed<\/dt><dd>1<\/dd>/);

    // The allowance covers it again: the next pass pays it.
    chain.setFundsUnits(token, address, funds.balanceUnits, funds.allowanceUnits);
    await ctx.app.services.owedPayouts.run();
    expect(await bountyStatus(third)).toBe('done');
    expect((await web.get(founderSession, '/console/reviews')).body).not.toContain(
      `action="/console/bounties/${third}/approve"`,
    );
    expect((await web.get('', `/projects/${projectId}`)).body).not.toContain('Merged, payment owed');
  });

  it('withdraws ETH from the in-app wallet to an outside address', async () => {
    const to = `0x${'ab'.repeat(20)}`;
    await web.submit(founderSession, '/console/withdraw', { project_id: '', amount: '0.25', to });
    expect(chain.calls.at(-1)).toMatchObject({
      kind: 'sendEth',
      args: [expect.stringMatching(/^0x/i), ETH / 4n],
    });
    const bad = await web.post(founderSession, '/console/withdraw', {
      project_id: '',
      amount: '1',
      to: 'nope',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('id="withdraw-to-error"');
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
});
