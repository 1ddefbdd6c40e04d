import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAgent, TestContext } from './helpers/app.ts';
import { type ConsoleForms, ETH, setUpConsoleForms, setUpFounderProject } from './helpers/console-forms.ts';
import type { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { deliverMerge } from './helpers/merge-webhook.ts';
import { setRepoLogin } from './helpers/repo-login.ts';
import type { Browserless } from './helpers/web-forms.ts';

/**
 * Every console form does what its JSON route does, through the same service: checked by the
 * state the services report afterwards, never by the page's word alone. The contributor's and the
 * review forms, on the project and bounty the founder forms of web-console-actions.int.test.ts
 * make (made here through the same forms by setUpFounderProject).
 */

let ctx: TestContext;
let chain: ConsoleForms['chain'];
let host: FakeRepoHost;
let web: Browserless;
let founder: TestAgent;
let contributor: TestAgent;
let founderSession: string;
let contributorSession: string;
let projectId: string;
let repoUrl: string;

beforeAll(async () => {
  ({ ctx, chain, host, web, founder, contributor, founderSession, contributorSession } =
    await setUpConsoleForms());
  ({ projectId, repoUrl } = await setUpFounderProject({
    ctx,
    chain,
    host,
    web,
    founder,
    contributor,
    founderSession,
    contributorSession,
  }));
});

afterAll(async () => {
  await ctx?.close();
});

const founderWallet = async () =>
  (await ctx.app.services.directory.require(founder.id)).walletAddress as string;
const bountyStatus = async (id: string) => (await ctx.app.services.bounties.get(id)).status;

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
    const gaveBack = await web.submit(contributorSession, `/console/bounties/${bountyId}/unclaim`, {});
    expect(gaveBack.page.body).toContain('it is open again. You may claim it again in 24 hours.');
    expect(await bountyStatus(bountyId)).toBe('open');
    // The founder cannot claim its own bounty: the service's 403, on the page.
    const own = await web.post(founderSession, `/console/bounties/${bountyId}/claim`, {});
    expect(own.statusCode).toBe(403);
    // Its giver waits out RECLAIM_COOLDOWN_HOURS (24): the service's 409, on the page.
    const early = await web.post(contributorSession, `/console/bounties/${bountyId}/claim`, {});
    expect(early.statusCode).toBe(409);
    expect(early.body).toContain('you may claim it again from ');
    ctx.clock.advance(24 * 3_600_000);
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
    expect(queue.body).toContain(`id="approve-${bountyId}-merge"`);
    const merges = host.merges.length;
    const approved = await web.submit(founderSession, `/console/bounties/${bountyId}/approve`, {
      review_notes: 'Clean work',
      merge: 'true',
    });
    const sub = (await ctx.app.services.bounties.get(bountyId)).submissions[0];
    expect(sub).toMatchObject({ status: 'approved', review_notes: 'Clean work', founder_merged: true });
    // Merged on the host first, at the head the review showed.
    expect(host.merges.slice(merges)).toHaveLength(1);
    expect(approved.page.body).toContain(
      `Merged, approved and paid: the contributor&#39;s share and the platform fee in one transaction, ${sub?.contributor_tx_hash}.`,
    );
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
