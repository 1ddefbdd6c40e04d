import { beforeAll, describe, expect, it } from 'vitest';
import { BOARD_EVENT_TYPES, EVENT_TYPES } from '../src/modules/activity/activity.schemas.ts';
import { createBounty, registerAgent, type TestAgent } from './helpers/app.ts';
import { appForFile, fundedProject } from './helpers/builders.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { type Browserless, browserless, errorsOf } from './helpers/web-forms.ts';

/**
 * What a bounty's page offers each viewer (a visitor, a signed-in agent, the founder, the
 * claimant), its claim / give back / submit forms through `app.inject` as a browser without
 * JavaScript, and what an approval paid, linked to the explorer.
 */

const EXPLORER = 'https://explorer.example';
const chain = new FakeChain();
const host = new FakeRepoHost();
const ctx = appForFile({ chain, repoHost: host, env: { CHAIN_EXPLORER_URL: EXPLORER } });
let web: Browserless;
let founder: TestAgent;
let dev: TestAgent;
let other: TestAgent;
let project: { id: string; token_symbol: string };
let repoUrl: string;
let bounty: { id: string };
let second: { id: string };
let devSession: string;
let otherSession: string;

beforeAll(async () => {
  web = browserless(ctx.app);
  founder = await registerAgent(ctx.app, { name: 'Founder Grace' });
  dev = await registerAgent(ctx.app, { name: 'Dev Linus' });
  other = await registerAgent(ctx.app, { name: 'Other Ada' });
  const active = await fundedProject(ctx, chain, { founder, name: 'Parser Works', funds: 6000n });
  project = active.project;
  repoUrl = active.repoUrl;
  bounty = await createBounty(ctx.app, founder, project.id, { title: 'Fix the lexer', reward_amount: 50 });
  second = await createBounty(ctx.app, founder, project.id, { title: 'Second one', reward_amount: 10 });
  await ctx.app.services.payability.refresh(project.id);
  devSession = await web.signIn(dev.apiKey);
  otherSession = await web.signIn(other.apiKey);
});

const page = (session: string, id = bounty.id) => web.get(session, `/bounties/${id}`);

/** Posts a bounty form that must succeed (303) and opens the page it leads to, notice included. */
async function act(session: string, url: string, fields: Record<string, string> = {}) {
  const res = await web.post(session, url, fields);
  expect(res.statusCode, errorsOf(res.body).join(' | ') || res.body.slice(0, 300)).toBe(303);
  const notice = res.cookies.find((c) => c.name === 'bm_notice');
  expect(notice?.path).toBe('/bounties');
  const next = await web.get(
    session,
    String(res.headers.location),
    `bm_notice=${encodeURIComponent(notice?.value ?? '')}`,
  );
  return { res, page: next };
}
const branch = () => `bounty-${bounty.id}`;

describe('an open bounty', () => {
  it('asks a visitor to sign in or create an agent, and links the repository', async () => {
    const res = await page('');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Sign in or create an agent to claim it.');
    const next = encodeURIComponent(`/bounties/${bounty.id}`);
    expect(res.body).toContain(`href="/sign-up?next=${next}">Create an agent</a>`);
    expect(res.body).toContain(`href="/sign-in?next=${next}">Sign in</a>`);
    expect(res.body).toContain(`<a class="mono" href="${repoUrl}" rel="noopener">${repoUrl}</a>`);
    expect(res.body).not.toContain('action="/bounties/');
  });

  it('offers a signed-in agent the claim form (with its CSRF token), the founder none', async () => {
    const res = await page(otherSession);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatch(
      new RegExp(
        `<form method="post" action="/bounties/${bounty.id}/claim" id="claim" data-pending="Claiming…">`,
      ),
    );
    expect(res.body).toContain('<button type="submit" class="button">Claim this bounty</button>');
    expect(res.body).not.toContain('git clone');
    const mine = await page(await web.signIn(founder.apiKey));
    expect(mine.body).toContain("Your project's bounty");
    expect(mine.body).not.toContain('id="claim"');
  });

  it('refuses a claim without a session or without the CSRF token', async () => {
    const anonymous = await web.post('', `/bounties/${bounty.id}/claim`, {});
    expect(anonymous.statusCode).toBe(303);
    expect(anonymous.headers.location).toBe(`/sign-in?next=${encodeURIComponent(`/bounties/${bounty.id}`)}`);
    const forged = await web.post(devSession, `/bounties/${bounty.id}/claim`, {}, { csrf: 'forged' });
    expect(forged.statusCode).toBe(403);
    expect((await ctx.app.services.bounties.get(bounty.id)).status).toBe('open');
  });
});

describe('the claimant', () => {
  it('claims from the page and sees this bounty’s steps, never its key', async () => {
    const { res, page: after } = await act(devSession, `/bounties/${bounty.id}/claim`, {});
    expect(res.headers.location).toBe(`/bounties/${bounty.id}#next-step`);
    expect((await ctx.app.services.bounties.get(bounty.id)).claimed_by).toBe(dev.id);
    const html = after.body;
    expect(html).toContain('You claimed “Fix the lexer”. The steps below take it from here.');
    expect(html).toContain(`git clone ${repoUrl}`);
    expect(html).toContain(`git checkout -b ${branch()}`);
    expect(html).toContain(
      `BOUNTY_API_KEY=&#39;&lt;your API key&gt;&#39; git -c credential.helper=&#39;!f() { echo username=agent; echo &quot;password=$BOUNTY_API_KEY&quot;; }; f&#39; push origin ${branch()}`,
    );
    expect(html).not.toContain(dev.apiKey);
    expect(html).toContain(`href="${repoUrl}/compare/main...${branch()}?expand=1&amp;title=Fix+the+lexer"`);
    expect(html).toContain(`action="/bounties/${bounty.id}/submit" id="submit"`);
    // An example in the hint, never in the field, where it reads as a value.
    expect(html).toContain(`Like <code>${repoUrl}/pull/1</code>`);
    expect(html).not.toContain('placeholder=');
    expect(html).toContain(`action="/bounties/${bounty.id}/unclaim" id="unclaim"`);
    // The notice is shown once: that page cleared it.
    expect(after.cookies.find((c) => c.name === 'bm_notice')?.value).toBe('');
    expect((await page(devSession)).body).not.toContain('You claimed “');
  });

  it('shows others no steps and no claim form once it is claimed', async () => {
    const res = await page(otherSession);
    expect(res.body).not.toContain('git clone');
    expect(res.body).not.toContain('id="claim"');
    expect(res.body).toContain('<a href="/agents/');
  });

  it('shows a refused claim on the claim form with the service’s status', async () => {
    const res = await web.post(devSession, `/bounties/${second.id}/claim`, {});
    expect(res.statusCode).toBe(409);
    expect(errorsOf(res.body)).toContain(
      'You already have an active claim on this project; finish or unclaim it first.',
    );
    expect(res.body).toContain('id="claim-error"');
  });

  it('keeps a pull request address the service refused, with its message', async () => {
    const res = await web.post(devSession, `/bounties/${bounty.id}/submit`, {
      pr_url: 'https://elsewhere.example/x/pull/1',
    });
    expect(res.statusCode).toBe(400);
    expect(errorsOf(res.body).length).toBeGreaterThan(0);
    expect(res.body).toContain('value="https://elsewhere.example/x/pull/1"');
    expect(res.body).toContain('aria-invalid="true"');
  });

  it('submits the pull request from the page; then the page says it is in review', async () => {
    const prUrl = `${repoUrl}/pull/7`;
    const login = (await ctx.app.services.directory.require(dev.id)).repoLogin as string;
    host.adoptAuthor(prUrl, login);
    const { page: after } = await act(devSession, `/bounties/${bounty.id}/submit`, { pr_url: prUrl });
    expect(after.body).toContain('Your pull request was submitted: the founder reviews it now.');
    expect(after.body).toContain('Your pull request is in review');
    expect(after.body).not.toContain('id="submit"');
    expect((await ctx.app.services.bounties.get(bounty.id)).status).toBe('in_review');
  });

  it('shows what the approval paid, each transaction linked to the explorer', async () => {
    const approved = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${bounty.id}/approve`,
      headers: founder.headers,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const res = await page('');
    const sym = project.token_symbol;
    // 50 tokens, 5% platform fee.
    expect(res.body).toContain(`<strong>47.5 ${sym}</strong> to Dev Linus, 2.5 ${sym} platform fee.`);
    const sub = (await ctx.app.services.bounties.get(bounty.id)).submissions[0];
    // One router transaction carries both: shown once, linked to the explorer.
    const hash = sub?.contributor_tx_hash;
    expect(sub?.platform_fee_tx_hash).toBe(hash);
    expect(res.body).toContain(
      `One transaction paid the contributor's share and the platform fee: <a class="mono hash" href="${EXPLORER}/tx/${hash}" rel="noopener">${hash}</a>`,
    );
    expect(res.body.split(`${hash}</a>`)).toHaveLength(2);
    // Before paying, the facts name the share and the fee.
    expect(res.body).toContain(`<dt>Contributor's share</dt><dd>47.5 ${sym}, worth`);
    expect(res.body).toContain(`<dt>Platform fee</dt><dd>2.5 ${sym}</dd>`);
    expect(res.body).not.toContain('id="next-step"');
  });
});

describe('changes requested', () => {
  it('gives the claimant the notes, the deadline and one next step: push, then submit the same pull request (filled in)', async () => {
    const third = await createBounty(ctx.app, founder, project.id, { title: 'Third one', reward_amount: 5 });
    const author = await registerAgent(ctx.app, { name: 'Rev Iser' });
    const session = await web.signIn(author.apiKey);
    await act(session, `/bounties/${third.id}/claim`);
    const prUrl = `${repoUrl}/pull/9`;
    host.adoptAuthor(prUrl, (await ctx.app.services.directory.require(author.id)).repoLogin as string);
    await act(session, `/bounties/${third.id}/submit`, { pr_url: prUrl });
    const sent = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${third.id}/request-changes`,
      headers: founder.headers,
      payload: { review_notes: 'Add a test for tabs.' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const due = (await ctx.app.services.bounties.get(third.id)).revision_due_at as string;
    const res = await page(session, third.id);
    const next = res.body.slice(res.body.indexOf('id="next-step"'), res.body.indexOf('id="about-h"'));
    expect(next).toContain('<strong>The founder asked for changes</strong>');
    expect(next).toContain('<blockquote class="review-notes"><div class="md"><p>Add a test for tabs.</p>');
    expect(next).toContain(`<time datetime="${due}">${due.slice(0, 16).replace('T', ' ')} UTC</time>`);
    expect(next).toContain('Next: push your changes, then submit again');
    // One next step, not the first-time five: the clone and branch commands fold away.
    expect(next).not.toContain('<h3>Clone the repository</h3>');
    expect(next).not.toContain('<h3>Open a pull request</h3>');
    expect(next).toMatch(/<details class="more-steps">[\s\S]*git checkout -b bounty-/);
    // The submit form names the pull request already under review.
    expect(next).toContain(`action="/bounties/${third.id}/submit" id="submit"`);
    expect(next).toContain(`value="${prUrl}"`);
    expect(next).toContain('Submit again for review');
    // Badges are words.
    expect(res.body).toContain('>Changes requested</span>');
    expect(res.body).not.toContain('Changes_requested');
  });
});

describe('giving a bounty back', () => {
  it('reopens it from the page, and the claim form is back', async () => {
    await act(otherSession, `/bounties/${second.id}/claim`, {});
    const { page: after } = await act(otherSession, `/bounties/${second.id}/unclaim`, {});
    expect(after.body).toContain('You gave “Second one” back; it is open again.');
    expect(after.body).toContain('Claim this bounty');
    expect((await ctx.app.services.bounties.get(second.id)).status).toBe('open');
  });
});

describe('the live part', () => {
  it('follows the project’s public events of this bounty, and re-renders as a fragment', async () => {
    const res = await page('');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<script src="/assets/console-live.js" defer></script>');
    const status = /<p id="live-status"[^>]*>/.exec(res.body)?.[0] ?? '';
    expect(status).toContain('data-live-for="bounty-live"');
    expect(status).toContain(
      `data-live-stream="/api/events?types=bounty.claimed,bounty.unclaimed,bounty.claim_expired,submission.created,submission.rejected,submission.changes_requested,submission.approved,submission.merged&amp;project_id=${project.id}"`,
    );
    expect(status).toContain('data-live-types="bounty.claimed bounty.unclaimed');
    expect(res.body).toContain(
      `<div id="bounty-live" data-live-url="/bounties/${bounty.id}?fragment=live" data-live-bounties="${bounty.id}"`,
    );
    // The stream it names is a valid one (an unknown type or field would be 400).
    const url = /data-live-stream="([^"]+)"/.exec(status)?.[1]?.replaceAll('&amp;', '&') as string;
    const stream = await ctx.app.inject({ method: 'GET', url, payloadAsStream: true });
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-type']).toContain('text/event-stream');
    stream.stream().destroy();

    // The fragment: the region itself, no layout, the same facts; uncached.
    const fragment = await web.get('', `/bounties/${bounty.id}?fragment=live`);
    expect(fragment.statusCode).toBe(200);
    expect(fragment.headers['cache-control']).toBe('no-store');
    expect(fragment.body.trimStart()).toMatch(/^<div id="bounty-live" /);
    expect(fragment.body).not.toContain('<html');
    expect(fragment.body).not.toContain('id="live-status"');
    expect(fragment.body).toContain(`to Dev Linus, 2.5 ${project.token_symbol} platform fee.`);
  });

  it('answers the claimant’s fragment with its forms, and leaves the page’s notice for the page', async () => {
    const fourth = await createBounty(ctx.app, founder, project.id, {
      title: 'Fourth one',
      reward_amount: 5,
    });
    const author = await registerAgent(ctx.app, { name: 'Frag Ment' });
    const session = await web.signIn(author.apiKey);
    const res = await web.post(session, `/bounties/${fourth.id}/claim`, {});
    expect(res.statusCode).toBe(303);
    const notice = res.cookies.find((c) => c.name === 'bm_notice');
    const cookie = `bm_notice=${encodeURIComponent(notice?.value ?? '')}`;
    const fragment = await web.get(session, `/bounties/${fourth.id}?fragment=live`, cookie);
    expect(fragment.body).toContain(`action="/bounties/${fourth.id}/submit" id="submit"`);
    expect(fragment.body).not.toContain('You claimed “Fourth one”.');
    // The fragment did not take the notice: the page still shows it.
    expect(fragment.cookies.find((c) => c.name === 'bm_notice')).toBeUndefined();
    const full = await web.get(session, `/bounties/${fourth.id}`, cookie);
    expect(full.body).toContain('You claimed “Fourth one”.');
  });
});

describe('a notice about a long title', () => {
  it('claims a bounty titled with 200 emoji: 303 and the notice, never a split character (issue 26)', async () => {
    const title = '😀'.repeat(200);
    const emoji = await createBounty(ctx.app, founder, project.id, { title, reward_amount: 5 });
    await ctx.app.services.payability.refresh(project.id);
    const { res, page: after } = await act(otherSession, `/bounties/${emoji.id}/claim`, {});
    expect(res.headers.location).toBe(`/bounties/${emoji.id}#next-step`);
    const notice = res.cookies.find((c) => c.name === 'bm_notice')?.value ?? '';
    expect(() => encodeURIComponent(notice)).not.toThrow();
    expect(notice).toMatch(/^You claimed “(😀)+/u);
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('You claimed “😀😀😀');
    // Given back, so the other tests' bounties are unaffected.
    await act(otherSession, `/bounties/${emoji.id}/unclaim`, {});
  });
});

describe('the live board', () => {
  it('hands its script every public event that changes the list, from the service’s own list', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/?project_id=${project.id}` });
    expect(res.statusCode).toBe(200);
    const types = /data-live-types="([^"]*)"/.exec(res.body)?.[1]?.split(',');
    expect(types).toEqual([...BOARD_EVENT_TYPES]);
    // A bounty sent back for changes is claimed again: the board must hear of it (it once did not).
    expect(types).toContain('submission.changes_requested');
    expect(types).toEqual(EVENT_TYPES.filter((t) => t.startsWith('bounty.') || t.startsWith('submission.')));
    expect(res.body).toContain(`data-live-query="?project_id=${project.id}"`);
  });
});
