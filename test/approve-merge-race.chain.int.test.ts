import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { and, eq, inArray } from 'drizzle-orm';
import { type Address, getAddress, type Hex, parseAbiItem } from 'viem';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { activityEvents } from '../src/infra/db/schema.ts';
import { GithubHost } from '../src/infra/repo-host/github-host.ts';
import {
  activeProject,
  call,
  claimPushSubmit,
  fundFounder,
  postBounty,
  type Registered,
  register,
} from './helpers/bounty-work.ts';
import { startWebApp, WEBHOOK_SECRET, type WebApp } from './helpers/browser.ts';
import type { TestChain } from './helpers/chain.ts';
import { randomRuns, randomSeed } from './helpers/counts.ts';
import { seededRandom } from './helpers/crash.ts';
import { deliverMerge } from './helpers/merge-webhook.ts';

/**
 * Approve with merge, raced, on a chain that mines a block a second and the real built-in host (a
 * real git merge, its own signed merge webhook). For each of several bounties at once, in a seeded
 * order with seeded delays: the founder's `POST /approve {"merge": true}` (sometimes twice), a
 * second delivery of the host's merge webhook, a pass of the owed-payouts job and one of the payout
 * reconciler (both also run on their own every second). The chain's Transfer logs are the judge:
 * for each bounty exactly one transfer of the contributor's share to the contributor and one of
 * the fee to the treasury, both in one PayoutRouter transaction; the pull request merged exactly
 * once (the host and the repository's history say so); the bounty done and the submission approved.
 * APPROVE_RACE_SEED replays an order; APPROVE_RACE_BOUNTIES sets how many bounties race.
 */

const run = promisify(execFile);
const FOUNDER_ACCOUNT = 3;
const REWARD = 100;
const seed = randomSeed('APPROVE_RACE_SEED');
const count = randomRuns('APPROVE_RACE_BOUNTIES', 4, 8);
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

interface Work {
  bountyId: string;
  dev: Registered;
  prUrl: string;
  submissionId: string;
}

let web: WebApp;
let tc: TestChain;
let tmp: string;
let founder: Registered;
let token: Address;
let repoUrl: string;
const works: Work[] = [];
let mergeSpy: MockInstance<GithubHost['mergePullRequest']> | undefined;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

type BountyJson = {
  status: string;
  payment_owed: boolean;
  submissions: { id: string; status: string; founder_merged: boolean; contributor_tx_hash: string | null }[];
};
const bountyOf = async (id: string) =>
  (await call(web.base, 'GET', `/api/bounties/${id}`, null)).body.bounty as BountyJson;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'approve-race-'));
  // The background jobs (owed payouts, reconciler) run every second too, as a third racer.
  web = await startWebApp({ real: true, env: { PAYOUT_RECONCILE_INTERVAL_SECONDS: '1' } });
  tc = web.testChain as TestChain;
  const suffix = Date.now().toString(36).slice(-6);
  founder = await register(web.base, `founder-${suffix}`, tc.account(FOUNDER_ACCOUNT).address);
  const project = await activeProject(web.base, founder.api_key, 'Race Works', 'RACE');
  token = getAddress(project.token_address);
  repoUrl = project.repo_url;
  await fundFounder(tc, FOUNDER_ACCOUNT, project, 10n ** 16n);
  const devs = await Promise.all(
    Array.from({ length: count }, (_, i) => register(web.base, `dev${i}-${suffix}`)),
  );
  const bountyIds: string[] = [];
  for (const [i] of devs.entries())
    bountyIds.push(await postBounty(web.base, founder.api_key, project.id, `Race job ${i}`, REWARD));
  // Each on its own file: the merges never conflict, whatever their order.
  const submitted = await Promise.all(
    devs.map((dev, i) =>
      claimPushSubmit(web.base, tmp, dev, bountyIds[i] as string, { [`job-${i}.txt`]: `job ${i}\n` }),
    ),
  );
  for (const [i, s] of submitted.entries())
    works.push({ bountyId: bountyIds[i] as string, dev: devs[i] as Registered, ...s });
  // From here the chain mines a block a second: every payout waits for its block.
  await tc.test.setAutomine(false);
  await tc.test.setIntervalMining({ interval: 1 });
}, 120_000);

afterAll(async () => {
  // The wire project shares its module graph between files: the host's class goes back as it was.
  mergeSpy?.mockRestore();
  await web?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** What the chain paid from the founder on the project's token: every Transfer log, block 0 to now. */
async function paidFromFounder() {
  const logs = await tc.pub.getLogs({
    address: token,
    event: transferEvent,
    fromBlock: 0n,
    toBlock: 'latest',
  });
  return logs
    .map((l) => ({
      ...(l.args as { from: Address; to: Address; value: bigint }),
      hash: l.transactionHash as Hex,
    }))
    .filter((t) => same(t.from, founder.wallet_address as string));
}

/** The subjects of the commits on the repository's main branch, from a fresh anonymous clone. */
async function mainHistory(): Promise<string[]> {
  const dir = join(tmp, 'final');
  await run('git', ['clone', '--quiet', '--branch', 'main', repoUrl, dir], {
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' },
  });
  const { stdout } = await run('git', ['log', '--format=%s', 'main'], { cwd: dir });
  return stdout.split('\n');
}

describe('approve with merge, raced on a mining chain', () => {
  it('pays each bounty exactly once in one router transaction and merges each pull request once', async () => {
    console.log(`approve-merge race: APPROVE_RACE_SEED=${seed} APPROVE_RACE_BOUNTIES=${count}`);
    const rnd = seededRandom(seed);
    const answers = new Map<string, string[]>(works.map((w) => [w.bountyId, []]));
    const approve = async (w: Work) => {
      const res = await call(web.base, 'POST', `/api/bounties/${w.bountyId}/approve`, founder.api_key, {
        merge: true,
      });
      answers.get(w.bountyId)?.push(res.status === 200 ? '200' : `${res.status} ${res.body?.error?.code}`);
    };
    // For a seeded half of the bounties the host's answer to the merge waits until a delivery of
    // its merge webhook has been handled: the webhook lands inside the approval, between the
    // host's merge and the approval's own record of it.
    const held = new Set(works.filter(() => rnd() < 0.5).map((w) => w.prUrl));
    const merge = GithubHost.prototype.mergePullRequest;
    mergeSpy = vi.spyOn(GithubHost.prototype, 'mergePullRequest').mockImplementation(async function (
      this: GithubHost,
      ...args: Parameters<GithubHost['mergePullRequest']>
    ) {
      const answer = await merge.apply(this, args);
      const prUrl = works.find((w) => w.prUrl.endsWith(`/${args[1]}/pull/${args[2]}`))?.prUrl;
      if (prUrl && held.delete(prUrl)) await deliverMerge(web.app, WEBHOOK_SECRET, prUrl);
      return answer;
    });
    const { owedPayouts, approvals } = web.app.services;
    const ops = works.flatMap((w) => {
      // Each racer starts after a seeded delay within the first two blocks; a second approval
      // (most bounties get one) sometimes at the very same moment as the first.
      const at = () => Math.floor(rnd() * 2_000);
      const first = at();
      const racers: [number, () => Promise<unknown>][] = [
        [first, () => approve(w)],
        [at(), () => deliverMerge(web.app, WEBHOOK_SECRET, w.prUrl)],
        [at(), () => owedPayouts.run()],
        [at(), () => approvals.reconcile()],
      ];
      const second = rnd();
      if (second < 0.7) racers.push([second < 0.3 ? first : at(), () => approve(w)]);
      return racers.map(([delay, op]) => sleep(delay).then(op));
    });
    await Promise.all(ops);
    console.log('approve answers by bounty:', JSON.stringify(Object.fromEntries(answers)));
    for (const list of answers.values())
      for (const a of list)
        expect(a).toMatch(/^(200|409 (operation_in_progress|invalid_state)|400 not_in_review)$/);

    // Whatever the approvals answered, the jobs finish what is owed: every bounty ends done.
    await expect
      .poll(async () => (await Promise.all(works.map((w) => bountyOf(w.bountyId)))).map((b) => b.status), {
        timeout: 45_000,
        interval: 500,
      })
      .toEqual(works.map(() => 'done'));
    await owedPayouts.idle();

    const split = web.app.services.payouts.split(REWARD);
    const treasury = tc.chain.info.treasuryAddress as string;
    const router = tc.chain.info.payoutSpenderAddress as string;
    const paid = await paidFromFounder();
    // Nothing else ever left the founder's wallet: two transfers per bounty, no more.
    expect(paid).toHaveLength(2 * works.length);
    const { db } = web.database;
    const merged = await db
      .select()
      .from(activityEvents)
      .where(
        and(
          eq(activityEvents.type, 'submission.merged'),
          inArray(
            activityEvents.bountyId,
            works.map((w) => w.bountyId),
          ),
        ),
      );
    const history = await mainHistory();
    for (const w of works) {
      const toDev = paid.filter((t) => same(t.to, w.dev.wallet_address as string));
      const fees = paid.filter((t) => same(t.to, treasury) && toDev.some((c) => c.hash === t.hash));
      expect(
        toDev.map((t) => t.value),
        w.bountyId,
      ).toEqual([split.contributorUnits]);
      expect(
        fees.map((t) => t.value),
        w.bountyId,
      ).toEqual([split.feeUnits]);
      const hash = toDev[0]?.hash as Hex;
      // One PayoutRouter transaction carried both, and it is the one the submission names.
      const tx = await tc.pub.getTransaction({ hash });
      expect(same(tx.to as string, router)).toBe(true);
      const bounty = await bountyOf(w.bountyId);
      expect(bounty.payment_owed).toBe(false);
      expect(bounty.submissions).toEqual([
        expect.objectContaining({
          id: w.submissionId,
          status: 'approved',
          founder_merged: true,
          contributor_tx_hash: hash,
        }),
      ]);
      // Merged once: the host says so, main holds one merge commit of it, the feed one merge.
      const n = Number(w.prUrl.split('/').pop());
      const pr = await fetch(
        `${web.localHost?.apiUrl}/repos/${new URL(repoUrl).pathname.slice(1)}/pulls/${n}`,
      );
      expect(((await pr.json()) as { merged: boolean }).merged).toBe(true);
      expect(history.filter((c) => c.startsWith(`Merge pull request #${n} from`))).toHaveLength(1);
      // One merge in the feed, the founder's (its approval asked the host), whoever's webhook came first.
      expect(merged.filter((e) => e.bountyId === w.bountyId).map((e) => e.data)).toEqual([
        expect.objectContaining({ submission_id: w.submissionId, by_founder: true }),
      ]);
    }
    // Both transfers of each payout in the same transaction: as many transactions as bounties.
    expect(new Set(paid.map((t) => t.hash)).size).toBe(works.length);
  }, 120_000);
});
