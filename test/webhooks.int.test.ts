import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PullRequestInfo } from '../src/infra/repo-host/repo-host.ts';
import { signWebhook } from '../src/infra/repo-host/webhook-signature.ts';
import { AppError } from '../src/lib/errors.ts';
import { createBounty, expectError, registerAgent, type TestAgent } from './helpers/app.ts';
import {
  type ActiveProject,
  activeProject,
  activity,
  approve,
  claim,
  getBounty,
  ok,
  reject,
} from './helpers/bounty-flows.ts';
import { webhookApp } from './helpers/builders.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';
import { setRepoLogin } from './helpers/repo-login.ts';
import { type DeliveryOpts, loginOf, prPayload, type Scene } from './helpers/webhook-flows.ts';

/**
 * The repository host's webhook (POST /api/webhooks/github) and submit's check of the pull
 * request on the host. A merged pull request that backs a pending submission, merged by the
 * founder, is answered `owed` at once; the owed-payouts job then approves it as the founder
 * would, exactly once, whatever is redelivered, forged or raced.
 */

const UNIT = 10n ** 18n;
const lower = (a: string) => a.toLowerCase();

/** A FakeRepoHost whose pull request reads can be made to fail, as a host that is down. */
class FlakyRepoHost extends FakeRepoHost {
  failNextPullRead: Error | null = null;
  override async getPullRequest(
    owner: string,
    repo: string,
    number: number,
  ): Promise<PullRequestInfo | null> {
    if (this.failNextPullRead) {
      const err = this.failNextPullRead;
      this.failNextPullRead = null;
      throw err;
    }
    return super.getPullRequest(owner, repo, number);
  }
}

const { chain, host, ctx, kit } = webhookApp(new FlakyRepoHost());
afterEach(async () => {
  vi.restoreAllMocks();
  // A pass a delivery nudged finishes before the next test sets its knobs.
  await ctx.app.services.owedPayouts.idle();
  chain.failNextBroadcast = null;
  host.failNextPullRead = null;
});

/** Every transfer that mined on the fake chain from this founder's token. */
const transfersOf = (s: Scene) => chain.transfers.filter((t) => t.tokenAddress === lower(s.tokenAddress));

/** Exactly one payout of `reward` whole tokens: reward minus 5% to the contributor, 5% to the treasury. */
function expectOnePayout(s: Scene, reward: bigint) {
  const fee = (reward * UNIT * 500n) / 10_000n;
  const moved = transfersOf(s).map((t) => ({
    from: t.from,
    to: t.to,
    amount: t.amountUnits,
    status: t.status,
  }));
  expect(moved).toEqual([
    {
      from: lower(s.founder.walletAddress as string),
      to: lower(s.dev.walletAddress as string),
      amount: reward * UNIT - fee,
      status: 'success',
    },
    {
      from: lower(s.founder.walletAddress as string),
      to: lower(chain.info.treasuryAddress),
      amount: fee,
      status: 'success',
    },
  ]);
}

const deliver = (body: unknown, opts?: DeliveryOpts) => kit.deliver(body, opts);
const recorded = (id: string) => kit.recorded(id);

/** A bounty in review whose pull request the founder has merged on the host (no delivery yet). */
async function mergedByFounder(reward: number): Promise<Scene> {
  const s = await kit.inReview(reward);
  kit.mergeOnHost(s);
  return s;
}

/** The bounty's status and its submissions as [id, status] pairs. */
async function brief(s: Scene) {
  const b = await kit.bountyState(s);
  return { status: b.status, submissions: b.submissions.map((x) => [x.id, x.status]) };
}

describe('POST /api/webhooks/github: a merged pull request', () => {
  it('answers owed at once for the founder merge; the owed-payouts job pays it once: bounty done, one router transaction', async () => {
    const s = await mergedByFounder(100);
    const nudges = kit.holdNudges();
    const id = randomUUID();
    const res = await deliver(prPayload(s.prUrl), { id });
    const body = ok<Record<string, string>>(res);
    // At once: the answer carries no transaction, nothing is signed inside the request, and the
    // owed-payouts job is nudged.
    expect(body).toEqual({ status: 'owed', bounty_id: s.bounty.id, submission_id: s.submissionId });
    expect(nudges.calls()).toBe(1);
    expect(await recorded(id)).toBe(true);
    expect(kit.signedFor(s)).toEqual([]);
    expect(transfersOf(s)).toEqual([]);
    const owed = await kit.bountyState(s);
    expect(owed).toMatchObject({ status: 'in_review', payment_owed: true });
    expect(owed.submissions).toEqual([
      expect.objectContaining({ id: s.submissionId, status: 'pending', founder_merged: true }),
    ]);

    // The job pays it, as the founder would approve it.
    expect(await kit.payOwed()).toBe(1);
    expect(await brief(s)).toEqual({ status: 'done', submissions: [[s.submissionId, 'approved']] });
    expect((await kit.bountyState(s)).payment_owed).toBe(false);
    expectOnePayout(s, 100n);
    // One router transaction, signed by the payout key, carries both transfers: both or neither.
    const [tx, ...more] = kit.signedFor(s);
    expect(more).toEqual([]);
    expect(tx).toMatchObject({
      signer: lower(chain.payoutSigner.address),
      from: lower(s.founder.walletAddress as string),
      to: lower(s.dev.walletAddress as string),
      amountUnits: 95n * UNIT,
      feeUnits: 5n * UNIT,
    });
    expect(transfersOf(s).map((t) => t.hash)).toEqual([tx?.hash, tx?.hash]);
    const [paid] = (await kit.bountyState(s)).submissions;
    expect(paid).toMatchObject({ contributor_tx_hash: tx?.hash, platform_fee_tx_hash: tx?.hash });

    // Approved as the founder would: the same event, with the merge noted and the hash for both.
    const [event] = await activity(ctx.app, { type: 'submission.approved', project_id: s.project.id });
    expect(event).toMatchObject({
      bounty_id: s.bounty.id,
      project_id: s.project.id,
      data: expect.objectContaining({
        submission_id: s.submissionId,
        contributor_tx_hash: tx?.hash,
        platform_fee_tx_hash: tx?.hash,
      }),
    });
    const detail = ok<{ bounty: { submissions: { review_notes: string | null }[] } }>(
      await getBounty(ctx.app, s.bounty.id),
    ).bounty;
    expect(detail.submissions[0]?.review_notes).toContain(s.prUrl);
    // Nothing is owed any more: another pass pays nothing.
    await kit.payOwed();
    expect(kit.signedFor(s)).toHaveLength(1);
    expect(await kit.eventsOf(s, 'payout.failed')).toEqual([]);
  });

  it('takes a delivery as GitHub sends it: charset in the content type, a long pull request body', async () => {
    const s = await mergedByFounder(15);
    const payload = prPayload(s.prUrl);
    // GitHub allows 65,536 characters in a pull request description, and the delivery carries it
    // along with the full repository, user and label objects: well over the API's 64 KiB limit.
    const longBody = { ...payload, pull_request: { ...payload.pull_request, body: 'é'.repeat(65_536) } };
    const raw = JSON.stringify(longBody);
    expect(Buffer.byteLength(raw)).toBeGreaterThan(64 * 1024);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/webhooks/github',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'x-github-event': 'pull_request',
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': signWebhook(host.webhookSecret, raw),
      },
      payload: raw,
    });
    expect(ok(res).status).toBe('owed');
    // The webhook's own nudge starts the pass that pays it: no test-driven pass here.
    await expect.poll(async () => (await kit.bountyState(s)).status, { timeout: 10_000 }).toBe('done');
    expectOnePayout(s, 15n);
  });

  it('still bounds the body: over 1 MiB is 413 and nothing happens', async () => {
    const s = await mergedByFounder(15);
    const payload = prPayload(s.prUrl);
    const huge = { ...payload, pull_request: { ...payload.pull_request, body: 'x'.repeat(1024 * 1024) } };
    const res = await deliver(huge);
    expectError(res, 413, 'payload_too_large');
    await kit.payOwed();
    expect(transfersOf(s)).toEqual([]);
    expect(await kit.bountyState(s)).toMatchObject({ status: 'in_review', payment_owed: false });
  });

  it('answers the same delivery id again with duplicate and pays nothing more', async () => {
    const s = await mergedByFounder(40);
    const nudges = kit.holdNudges();
    const id = randomUUID();
    expect(ok(await deliver(prPayload(s.prUrl), { id })).status).toBe('owed');
    // Before the payout and after it: a duplicate, which nudges nothing.
    for (let i = 0; i < 2; i++)
      expect(ok(await deliver(prPayload(s.prUrl), { id }))).toEqual({ status: 'duplicate' });
    expect(nudges.calls()).toBe(1);
    expect(await kit.payOwed()).toBe(1);
    for (let i = 0; i < 2; i++)
      expect(ok(await deliver(prPayload(s.prUrl), { id }))).toEqual({ status: 'duplicate' });
    await kit.payOwed();
    expect(kit.signedFor(s)).toHaveLength(1);
    expectOnePayout(s, 40n);
  });

  it('ignores another delivery of the same merge: the submission is no longer pending, no second payout', async () => {
    const s = await mergedByFounder(60);
    const nudges = kit.holdNudges();
    expect(ok(await deliver(prPayload(s.prUrl))).status).toBe('owed');
    // Another delivery of the same merge before the payout: still owed, the merge recorded once.
    expect(ok(await deliver(prPayload(s.prUrl)))).toEqual({
      status: 'owed',
      bounty_id: s.bounty.id,
      submission_id: s.submissionId,
    });
    expect(nudges.calls()).toBe(2);
    expect(await kit.eventsOf(s, 'submission.merged')).toHaveLength(1);
    expect(await kit.payOwed()).toBe(1);
    expect(kit.signedFor(s)).toHaveLength(1);
    const again = randomUUID();
    expect(ok(await deliver(prPayload(s.prUrl), { id: again }))).toEqual({ status: 'ignored' });
    expect(await recorded(again)).toBe(true);
    // The founder approving by hand afterwards is refused too.
    expectError(await approve(ctx.app, s.founder, s.bounty.id), 400, 'not_in_review');
    await kit.payOwed();
    expect(kit.signedFor(s)).toHaveLength(1);
    expectOnePayout(s, 60n);
    expect(await brief(s)).toEqual({ status: 'done', submissions: [[s.submissionId, 'approved']] });
  });

  it('pays once when deliveries of the merge race each other, the owed-payouts job and the founder', async () => {
    const s = await mergedByFounder(30);
    const id = randomUUID();
    const [deliveries, approval] = await Promise.all([
      Promise.all([
        deliver(prPayload(s.prUrl), { id }),
        deliver(prPayload(s.prUrl), { id }),
        deliver(prPayload(s.prUrl)),
        deliver(prPayload(s.prUrl)),
      ]),
      approve(ctx.app, s.founder, s.bounty.id),
    ]);
    // A delivery never pays, so never waits on a payout: each is acknowledged.
    for (const r of deliveries) expect(['owed', 'duplicate', 'ignored']).toContain(ok(r).status);
    expect(deliveries.filter((r) => r.json().status === 'duplicate').length).toBeLessThanOrEqual(1);
    // The founder's own approval pays, or meets the job paying (409), or finds it paid (400).
    if (approval.statusCode === 200) {
      expect(approval.json().status).toBe('done');
    } else {
      expect([400, 409], approval.body).toContain(approval.statusCode);
      expect(['operation_in_progress', 'not_in_review']).toContain(approval.json().error.code);
    }
    await kit.payOwed();
    expect(kit.signedFor(s)).toHaveLength(1);
    expectOnePayout(s, 30n);
    // The host redelivers: nothing is left to pay.
    const redo = ok(await deliver(prPayload(s.prUrl), { id }));
    expect(['duplicate', 'ignored']).toContain(redo.status);
    expect(ok(await deliver(prPayload(s.prUrl)))).toEqual({ status: 'ignored' });
    await kit.payOwed();
    expectOnePayout(s, 30n);
    expect(await brief(s)).toEqual({ status: 'done', submissions: [[s.submissionId, 'approved']] });
  });

  it('acknowledges a founder merge whose payout fails on chain: payout.failed once to both, reject 409, the next pass pays once', async () => {
    const s = await mergedByFounder(20);
    kit.holdNudges();
    const id = randomUUID();
    chain.failNextBroadcast = new Error('ECONNRESET rpc-node-3.internal:8545');
    expect(ok<Record<string, string>>(await deliver(prPayload(s.prUrl), { id }))).toEqual({
      status: 'owed',
      bounty_id: s.bounty.id,
      submission_id: s.submissionId,
    });
    // Handled: the host does not retry it forever.
    expect(await recorded(id)).toBe(true);
    expect(await kit.payOwed()).toBe(0);
    expect(chain.failNextBroadcast).toBeNull();
    // The founder and the contributor are told, without the node's own words.
    const failures = await kit.eventsOf(s, 'payout.failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]?.recipients?.toSorted()).toEqual([s.founder.id, s.dev.id].toSorted());
    expect(failures[0]?.data).toMatchObject({ submission_id: s.submissionId, reason: 'upstream_error' });
    expect(JSON.stringify(failures[0]?.data)).not.toContain('rpc-node-3');
    expect(await brief(s)).toEqual({ status: 'in_review', submissions: [[s.submissionId, 'pending']] });
    expect(await kit.bountyState(s)).toMatchObject({ payment_owed: true });
    expect(transfersOf(s)).toEqual([]);
    // Owed whatever happened to the payout: the founder cannot reject it.
    expectError(await reject(ctx.app, s.founder, s.bounty.id), 409, 'payment_owed');

    // The same delivery again is a duplicate; the next pass pays, once, and tells nothing more.
    expect(ok(await deliver(prPayload(s.prUrl), { id }))).toEqual({ status: 'duplicate' });
    expect(await kit.payOwed()).toBe(1);
    expectOnePayout(s, 20n);
    expect(await kit.eventsOf(s, 'payout.failed')).toHaveLength(1);
    expect(await kit.bountyState(s)).toMatchObject({ status: 'done', payment_owed: false });
    expectError(await approve(ctx.app, s.founder, s.bounty.id), 400, 'not_in_review');
    expect(ok(await deliver(prPayload(s.prUrl)))).toEqual({ status: 'ignored' });
    await kit.payOwed();
    expect(kit.signedFor(s)).toHaveLength(1);
    expectOnePayout(s, 20n);
  });
});

describe('POST /api/webhooks/github: signature', () => {
  it('refuses a missing, malformed, wrong or stale signature with 403 and changes nothing', async () => {
    const s = await mergedByFounder(10);
    const payload = prPayload(s.prUrl);
    const raw = JSON.stringify(payload);
    const id = randomUUID();
    const signedBefore = chain.signed.length;
    const cases: DeliveryOpts[] = [
      { id, signature: null },
      { id, signature: '' },
      { id, signature: 'sha256=' },
      { id, signature: `sha1=${signWebhook(host.webhookSecret, raw).slice(7, 47)}` },
      { id, signature: signWebhook(host.webhookSecret, raw).slice(7) },
      { id, signature: `sha256=${'0'.repeat(64)}` },
      { id, signature: `sha256=${'z'.repeat(64)}` },
      { id, secret: 'another-secret' },
      { id, signature: signWebhook(host.webhookSecret, `${raw} `) },
    ];
    for (const c of cases) {
      const res = await deliver(payload, c);
      expectError(res, 403, 'forbidden');
    }
    // The right signature of another body: the merged flag flipped after signing.
    const flipped = raw.replace('"merged":true', '"merged":false');
    expect(flipped).not.toBe(raw);
    expectError(
      await deliver(flipped, { id, signature: signWebhook(host.webhookSecret, raw) }),
      403,
      'forbidden',
    );
    // Without any identifying headers too: the signature is checked first.
    expectError(await deliver(payload, { id: null, event: null, signature: null }), 403, 'forbidden');

    expect(chain.signed.length).toBe(signedBefore);
    expect(transfersOf(s)).toEqual([]);
    expect(await brief(s)).toEqual({ status: 'in_review', submissions: [[s.submissionId, 'pending']] });
    // A forged request does not burn the delivery id: the genuine delivery still works.
    expect(await recorded(id)).toBe(false);
    expect(ok(await deliver(payload, { id })).status).toBe('owed');
    await kit.payOwed();
    expectOnePayout(s, 10n);
  });
});

describe('POST /api/webhooks/github: everything else is acknowledged and ignored', () => {
  it('ignores a pull request closed without merging, and opened/edited/reopened actions', async () => {
    const s = await mergedByFounder(10);
    for (const body of [
      prPayload(s.prUrl, { merged: false }),
      prPayload(s.prUrl, { merged: null }),
      prPayload(s.prUrl, { action: 'opened', merged: false }),
      prPayload(s.prUrl, { action: 'reopened', merged: false }),
      prPayload(s.prUrl, { action: 'edited', merged: true }),
      prPayload(s.prUrl, { action: 'synchronize', merged: false }),
    ]) {
      const id = randomUUID();
      expect(ok(await deliver(body, { id }))).toEqual({ status: 'ignored' });
      expect(await recorded(id)).toBe(true);
    }
    expect(transfersOf(s)).toEqual([]);
    expect(await brief(s)).toEqual({ status: 'in_review', submissions: [[s.submissionId, 'pending']] });
  });

  it('ignores other events, even with a merged-looking body', async () => {
    const s = await mergedByFounder(10);
    for (const [event, body] of [
      ['ping', { zen: 'Keep it logically awesome.', hook_id: 1 }],
      ['push', { ref: 'refs/heads/main' }],
      ['pull_request_review', prPayload(s.prUrl)],
      ['issues', { action: 'closed' }],
    ] as const) {
      expect(ok(await deliver(body, { event }))).toEqual({ status: 'ignored' });
    }
    expect(transfersOf(s)).toEqual([]);
    expect((await brief(s)).status).toBe('in_review');
  });

  it('ignores a merged pull request that backs no pending submission', async () => {
    const s = await mergedByFounder(10);
    const signedBefore = chain.signed.length;
    const unknownPr = `${s.repoUrl}/pull/99999`;
    const otherRepo = `http://127.0.0.1:9/bounty-org/somewhere-else/pull/${s.prUrl.split('/').pop()}`;
    for (const url of [unknownPr, otherRepo]) {
      expect(ok(await deliver(prPayload(url)))).toEqual({ status: 'ignored' });
    }
    expect(chain.signed.length).toBe(signedBefore);
    expect((await brief(s)).status).toBe('in_review');

    // A rejected submission's pull request merged later: nothing pending, nothing paid.
    const rejectedRes = await ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${s.bounty.id}/reject`,
      headers: s.founder.headers,
      payload: { review_notes: 'Not this one.' },
    });
    ok(rejectedRes);
    expect(ok(await deliver(prPayload(s.prUrl)))).toEqual({ status: 'ignored' });
    expect(transfersOf(s)).toEqual([]);
    expect((await brief(s)).status).toBe('open');
  });

  it('answers a malformed delivery with an error envelope and records nothing', async () => {
    const s = await mergedByFounder(10);
    const cases: [unknown, DeliveryOpts, number, string][] = [
      ['{"action": "closed", ', {}, 400, 'validation_error'],
      ['', {}, 400, 'validation_error'],
      [{ action: 'closed' }, {}, 502, 'upstream_error'],
      [{ ...prPayload(s.prUrl), pull_request: 'merged' }, {}, 502, 'upstream_error'],
      [{ ...prPayload(s.prUrl), repository: { full_name: 'no-slash' } }, {}, 502, 'upstream_error'],
      [
        {
          ...prPayload(s.prUrl),
          pull_request: { ...prPayload(s.prUrl).pull_request, html_url: 'javascript:1' },
        },
        {},
        502,
        'upstream_error',
      ],
      [
        { ...prPayload(s.prUrl), pull_request: { ...prPayload(s.prUrl).pull_request, merged: 'yes' } },
        {},
        502,
        'upstream_error',
      ],
      [prPayload(s.prUrl), { id: null }, 400, 'validation_error'],
      [prPayload(s.prUrl), { event: null }, 400, 'validation_error'],
    ];
    for (const [body, opts, status, code] of cases) {
      const id = opts.id === null ? null : randomUUID();
      const res = await deliver(body, { ...opts, id });
      expectError(res, status, code);
      if (id) expect(await recorded(id)).toBe(false);
    }
    expect(transfersOf(s)).toEqual([]);
    expect((await brief(s)).status).toBe('in_review');
  });

  it('takes only JSON', async () => {
    const raw = JSON.stringify(prPayload('http://127.0.0.1:9/bounty-org/x/pull/1'));
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/webhooks/github',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-github-event': 'pull_request',
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': signWebhook(host.webhookSecret, raw),
      },
      payload: `payload=${encodeURIComponent(raw)}`,
    });
    expectError(res, 415, 'unsupported_media_type');
  });
});

describe('submit checks the pull request on the repository host', () => {
  async function claimed(): Promise<{ p: ActiveProject; dev: TestAgent; bountyId: string }> {
    const p = await activeProject(ctx, chain);
    const dev = await registerAgent(ctx.app);
    await setRepoLogin(ctx, dev.id, loginOf(dev, 'dev'));
    const bounty = await createBounty(ctx.app, p.founder, p.project.id, { reward_amount: 5 });
    ok(await claim(ctx.app, dev, bounty.id));
    return { p, dev, bountyId: bounty.id };
  }
  /** The host's pull request, authored by the contributor (submit checks the author too). */
  const hostPr = (dev: TestAgent, prUrl: string, pr: Partial<PullRequestInfo> = {}) =>
    host.setPullRequest(prUrl, { state: 'open', authorLogin: loginOf(dev, 'dev'), ...pr });
  const submitUrl = (dev: TestAgent, bountyId: string, prUrl: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/bounties/${bountyId}/submit`,
      headers: dev.headers,
      payload: { pr_url: prUrl },
    });
  const statusOf = async (bountyId: string) =>
    ok<{ bounty: { status: string; submissions: unknown[] } }>(await getBounty(ctx.app, bountyId)).bounty;

  it('refuses a pull request the host does not have (400 invalid_pr_url); the bounty stays claimed', async () => {
    const { p, dev, bountyId } = await claimed();
    const prUrl = `${p.repoUrl}/pull/7`;
    host.removePullRequest(prUrl);
    const err = expectError(await submitUrl(dev, bountyId, prUrl), 400, 'invalid_pr_url');
    expect(err.message).toContain(prUrl);
    const b = await statusOf(bountyId);
    expect(b.status).toBe('claimed');
    expect(b.submissions).toEqual([]);

    // Once the pull request exists, the same URL is accepted.
    hostPr(dev, prUrl);
    expect(
      ok<{ submission: { pr_url: string } }>(await submitUrl(dev, bountyId, prUrl), 201).submission.pr_url,
    ).toBe(prUrl);
    expect((await statusOf(bountyId)).status).toBe('in_review');
  });

  it('refuses a pull request closed without merging (400)', async () => {
    const { p, dev, bountyId } = await claimed();
    const prUrl = `${p.repoUrl}/pull/8`;
    hostPr(dev, prUrl, { state: 'closed', merged: false });
    expectError(await submitUrl(dev, bountyId, prUrl), 400, 'invalid_pr_url');
    expect((await statusOf(bountyId)).status).toBe('claimed');
  });

  it('accepts a pull request already merged before submit; the founder then approves it by hand', async () => {
    const { p, dev, bountyId } = await claimed();
    const prUrl = `${p.repoUrl}/pull/9`;
    hostPr(dev, prUrl, { state: 'closed', merged: true });
    const sub = ok<{ submission: { status: string; pr_url: string } }>(
      await submitUrl(dev, bountyId, prUrl),
      201,
    ).submission;
    expect(sub).toMatchObject({ status: 'pending', pr_url: prUrl });
    expect((await statusOf(bountyId)).status).toBe('in_review');
    const done = ok<Record<string, string>>(await approve(ctx.app, p.founder, bountyId));
    expect(done.status).toBe('done');
  });

  it('answers 502 when the host cannot be asked, and lets the claimant retry', async () => {
    const { p, dev, bountyId } = await claimed();
    const prUrl = `${p.repoUrl}/pull/10`;
    hostPr(dev, prUrl);
    host.failNextPullRead = new AppError(
      'upstream_error',
      'The repository host failed to read the pull request.',
    );
    expectError(await submitUrl(dev, bountyId, prUrl), 502, 'upstream_error');
    expect((await statusOf(bountyId)).status).toBe('claimed');
    ok(await submitUrl(dev, bountyId, prUrl), 201);
  });

  it('does not ask the host about a URL outside the project repository (400 before any host call)', async () => {
    const { p, dev, bountyId } = await claimed();
    host.failNextPullRead = new AppError('upstream_error', 'must not be called');
    for (const url of [
      `${p.repoUrl}-other/pull/1`,
      `${p.repoUrl}/pull/0`,
      `${p.repoUrl}/pull/abc`,
      `${p.repoUrl}/issues/1`,
      'https://github.com/someone/else/pull/1',
    ]) {
      expectError(await submitUrl(dev, bountyId, url), 400, 'invalid_pr_url');
    }
    expect(host.failNextPullRead).not.toBeNull();
  });
});
