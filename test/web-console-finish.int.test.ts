import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/errors.ts';
import { createBounty, createProject, type TestAgent, type TestContext } from './helpers/app.ts';
import { block, EXPLORER, setUpFinishConsole, TOKEN } from './helpers/console-finish.ts';
import { ok, post } from './helpers/wallets.ts';
import type { Browserless, stubWalletChain } from './helpers/web-forms.ts';

/**
 * The console finished for people, through `app.inject` as a browser without JavaScript: every
 * action that moves money or cannot be undone posts only from its confirmation, the founder's
 * checklist follows the wallet, errors are in words with the fix linked, amounts are formatted
 * and payout transactions link to the explorer, and the one-claim rule is said.
 */

let ctx: TestContext;
let chain: ReturnType<typeof stubWalletChain>;
let web: Browserless;
let founder: TestAgent;
let dev: TestAgent;
let founderSession: string;
let devSession: string;
let founderAddress: string;
let active: { id: string; token: string; symbol: string };
let proposedId: string;
let activate: (projectId: string) => Promise<string>;
let ethWei = 10n * TOKEN;

beforeAll(async () => {
  ({
    ctx,
    chain,
    web,
    founder,
    dev,
    founderSession,
    devSession,
    founderAddress,
    active,
    proposedId,
    activate,
  } = await setUpFinishConsole(() => ethWei));
});

afterAll(async () => {
  await ctx?.close();
});

/** A project's checklist: from its start to the end of its list. */
function checklistOf(html: string, projectId: string): string {
  const start = html.indexOf(`<div class="checklist-wrap" id="checklist-${projectId}">`);
  expect(start, `checklist of ${projectId}`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</ol>', start) + 5);
}

/**
 * Every form of the page posting to `action`: each must be a confirmation's form, inside a closed
 * <details>, busy once sent (data-pending), with a "Confirm: …" submit and a Cancel that sends
 * nothing (type=button). Returns the confirm buttons' texts.
 */
function confirmedOnly(html: string, action: string): string[] {
  const forms = [...html.matchAll(/<form method="post" action="([^"]+)"[^>]*>[\s\S]*?<\/form>/g)].filter(
    (m) => m[1] === action,
  );
  expect(forms.length, `forms posting to ${action}`).toBeGreaterThan(0);
  return forms.map((m) => {
    const before = html.slice(0, m.index);
    const opened = before.lastIndexOf('<details');
    expect(opened, `${action}: inside a <details>`).toBeGreaterThan(before.lastIndexOf('</details>'));
    expect(before.slice(opened)).toMatch(/^<details class="(confirm|sell-all)[^"]*">\s*<summary/);
    const form = m[0];
    expect(form).toMatch(/data-pending="[^"]+"/);
    const submits = [...form.matchAll(/<button type="submit"[^>]*>([^<]*)/g)].map((b) => b[1] ?? '');
    expect(submits).toHaveLength(1);
    expect(submits[0]).toMatch(/^Confirm: /);
    expect(form).toMatch(
      /<button type="button" class="[^"]*confirm-cancel" data-confirm-cancel>Cancel<\/button>/,
    );
    return submits[0] as string;
  });
}

describe('actions that move money or cannot be undone', () => {
  it('post only from their confirmation: activate, buy, allowance', async () => {
    const page = (await web.get(founderSession, '/console/projects')).body;
    expect(confirmedOnly(page, `/console/projects/${proposedId}/activate`)).toEqual([
      'Confirm: activate Later Works',
    ]);
    expect(confirmedOnly(page, `/console/projects/${active.id}/buy`)).toEqual(['Confirm: buy FINW']);
    expect(confirmedOnly(page, `/console/projects/${active.id}/allowance`)).toEqual([
      'Confirm: set the allowance',
    ]);
    // A refused confirmation comes back open, its message inside it.
    const bad = await web.post(founderSession, `/console/projects/${active.id}/buy`, { eth: 'lots' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(
      new RegExp(`<details class="confirm" open>\\s*<summary id="buy-${active.id}-open"`),
    );
    expect(block(bad.body, 'form', `buy-${active.id}`)).toContain('must be an amount like 0.5');
  });

  it('post only from their confirmation: rotate the key, rotate a secret, delete a webhook', async () => {
    await ctx.app.services.agentWebhooks.create(founder.id, { url: 'http://127.0.0.1:9/finish-hook' });
    const [hook] = await ctx.app.services.agentWebhooks.list(founder.id);
    const page = (await web.get(founderSession, '/console/account')).body;
    expect(confirmedOnly(page, '/console/rotate-key')).toEqual(['Confirm: rotate my API key']);
    expect(confirmedOnly(page, `/console/webhooks/${hook?.id}/rotate-secret`)).toEqual([
      'Confirm: rotate the secret',
    ]);
    expect(confirmedOnly(page, `/console/webhooks/${hook?.id}/delete`)).toEqual([
      'Confirm: delete this webhook',
    ]);
    expect(page).toContain('<script src="/assets/console.js" defer></script>');
    await web.submit(founderSession, `/console/webhooks/${hook?.id}/delete`, {});
  });

  it('post only from their confirmation: unclaim, withdraw, approve, request changes, reject', async () => {
    chain.setFunds(active.token, founderAddress, 1000n, 1000n);
    const bounty = await createBounty(ctx.app, founder, active.id, {
      title: 'Confirm me',
      reward_amount: 100,
    });
    ok(await post(ctx.app, dev, `/api/bounties/${bounty.id}/claim`));
    const mine = (await web.get(devSession, '/console')).body;
    expect(confirmedOnly(mine, `/console/bounties/${bounty.id}/unclaim`)).toEqual(['Confirm: give it back']);
    const founderHome = (await web.get(founderSession, '/console')).body;
    expect(confirmedOnly(founderHome, '/console/withdraw')).toEqual(['Confirm: send it']);

    const repoUrl = (await ctx.app.services.projects.get(active.id)).repo_url as string;
    ok(await post(ctx.app, dev, `/api/bounties/${bounty.id}/submit`, { pr_url: `${repoUrl}/pull/3` }), 201);
    const queue = (await web.get(founderSession, '/console/reviews')).body;
    expect(confirmedOnly(queue, `/console/bounties/${bounty.id}/approve`)).toEqual([
      'Confirm: approve and pay 95 FINW',
    ]);
    expect(confirmedOnly(queue, `/console/bounties/${bounty.id}/request-changes`)).toEqual([
      'Confirm: request changes',
    ]);
    expect(confirmedOnly(queue, `/console/bounties/${bounty.id}/reject`)).toEqual(['Confirm: reject']);
    expect(queue).toContain('<script src="/assets/console-live.js" defer></script>');
  });
});

describe('payout tables', () => {
  it('show what each payout sent, in tokens, and link its transaction to the explorer', async () => {
    const { bounties } = await ctx.app.services.bounties.list({
      project_id: active.id,
      status: 'in_review',
      limit: 1,
      offset: 0,
    });
    const id = bounties[0]?.id as string;
    await web.submit(founderSession, `/console/bounties/${id}/approve`, { review_notes: 'Thanks' });
    const hash = (await ctx.app.services.bounties.get(id)).submissions[0]?.contributor_tx_hash as string;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    const link = `<a href="${EXPLORER}/tx/${hash}" rel="noopener noreferrer" class="tx-link"><code title="${hash}">`;

    const queue = (await web.get(founderSession, '/console/reviews')).body;
    const row = /<tr id="payout-[^"]+">[\s\S]*?<\/tr>/.exec(queue)?.[0] ?? '';
    expect(row).toMatch(/To the contributor <\/span>95 FINW<\/td>/);
    expect(row).toMatch(/Platform fee <\/span>5 FINW<\/td>/);
    expect(row.split(link)).toHaveLength(3);

    const mine = (await web.get(devSession, '/console')).body;
    const sub = /<tr id="submission-[^"]+">[\s\S]*?<\/tr>/.exec(mine)?.[0] ?? '';
    const text = sub.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
    expect(text).toContain('95 FINW to you, 5 FINW fee');
    // One router transaction carries both transfers: shown once.
    expect(sub.split(link)).toHaveLength(2);
    expect(text).toContain('Transaction:');
  });
});

describe("the founder's checklist", () => {
  const steps = async () => {
    const html = (await web.get(founderSession, '/console/projects')).body;
    const list = checklistOf(html, active.id);
    const state = (step: string) =>
      new RegExp(`<li class="step step-(\\w+)" id="step-${step}-${active.id}">`).exec(list)?.[1];
    return {
      html,
      list,
      eth: state('eth'),
      buy: state('buy'),
      allowance: state('allowance'),
      post: state('post'),
    };
  };

  it('says what is done from the wallet, the funds and the bounties, and links each step', async () => {
    const fresh = await createProject(ctx.app, founder, { name: 'Fresh Works', token_symbol: 'FRSH' });
    await activate(fresh.id);
    ethWei = 0n;
    const html = (await web.get(founderSession, '/console/projects')).body;
    const list = checklistOf(html, fresh.id);
    for (const step of ['eth', 'buy', 'allowance', 'post'])
      expect(list).toContain(`<li class="step step-todo" id="step-${step}-${fresh.id}">`);
    expect(list).toContain('Getting started <span class="meta">(0 of 4 done)</span>');
    // The dev chain: a faucet button in the step; its error would show in it.
    expect(list).toContain(`<form method="post" action="/console/faucet" id="faucet-${fresh.id}"`);
    expect(list).toContain(`<input type="hidden" name="from" value="faucet-${fresh.id}">`);
    expect(list).toContain(`href="#buy-${fresh.id}-open"`);
    expect(list).toContain(`href="#allowance-${fresh.id}-open"`);
    expect(list).toContain(`href="#bounty-${fresh.id}-open"`);
    ethWei = 10n * TOKEN;
  });

  it('is done step by step, then folds into one line', async () => {
    chain.setFunds(active.token, founderAddress, 0n, 0n);
    await web.submit(founderSession, `/console/projects/${active.id}/buy`, { eth: '0.5' });
    expect(await steps()).toMatchObject({ eth: 'done', buy: 'todo', allowance: 'todo', post: 'done' });
    chain.setFunds(active.token, founderAddress, 500n, 0n);
    expect(await steps()).toMatchObject({ buy: 'done', allowance: 'todo' });
    chain.setFunds(active.token, founderAddress, 500n, 200n);
    const done = await steps();
    expect(done).toMatchObject({ eth: 'done', buy: 'done', allowance: 'done', post: 'done' });
    expect(done.list).toMatch(
      /<details class="checklist-done">\s*<summary[^>]*><span aria-hidden="true">✓<\/span> Ready/,
    );
    // The funds, for people: grouped, with their unit; every digit in the title when it differs.
    chain.setFundsUnits(active.token, founderAddress, 494877548106190203700365n, 1000n * TOKEN);
    const { html } = await steps();
    expect(html).toContain(
      '<dt>Balance</dt><dd><span class="amount" title="494877.548106190203700365 FINW">494,878 FINW</span></dd>',
    );
    expect(html).toContain(
      '<dt>Allowance</dt><dd><span class="amount" title="1000 FINW">1,000 FINW</span></dd>',
    );
  });

  it('a faucet error from a step shows in that step', async () => {
    const c = chain as unknown as { faucet: (...args: unknown[]) => Promise<unknown> };
    const faucet = c.faucet;
    c.faucet = async () => {
      throw new AppError('chain_unavailable', 'The chain did not answer; try again.');
    };
    ethWei = 0n;
    try {
      const res = await web.post(founderSession, '/console/faucet', { from: `faucet-${active.id}` });
      expect(res.statusCode).toBe(503);
      expect(block(res.body, 'form', `faucet-${active.id}`)).toContain('The chain did not answer');
      expect(res.body).toContain(`<a href="#faucet-${active.id}">Go to the form</a>`);
      // Anything else in `from` is not a form id: the wallet section's faucet form shows it.
      const other = await web.post(founderSession, '/console/faucet', { from: '"><script>' });
      expect(other.body).toContain('<a href="#faucet">Go to the form</a>');
    } finally {
      c.faucet = faucet;
      ethWei = 10n * TOKEN;
    }
  });
});
