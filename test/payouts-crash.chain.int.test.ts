import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { getAddress, type Hex } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, rowsOf } from '../src/infra/db/client.ts';
import { payoutLegs, projects, signerNonces } from '../src/infra/db/schema.ts';
import { randomAddress } from './helpers/app.ts';
import {
  approvePayouts,
  buyTokens,
  startTestChain,
  type TestChain,
  tokenBalance,
  transferLogs,
} from './helpers/chain.ts';
import { api, externalChainEnv, killHard, seededRandom, startServerWithin } from './helpers/crash.ts';
import { createScratchDatabase } from './helpers/database.ts';
import type { ServerProcess } from './helpers/process.ts';

const UNIT = 10n ** 18n;
const FOUNDER_ACCOUNT = 3;
const FEE_BPS = 500n;
const KILLS = Number(process.env.CRASH_KILLS ?? 50);
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const MAX_KILL_DELAY_MS = 400;
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// One run per CI run: on PostgreSQL when it is configured, else on PGlite in a data directory.
const runsHere = process.env.TEST_DB === 'postgres' || !process.env.TEST_DATABASE_URL;

interface Bounty {
  id: string;
  reward: number;
  contributor: string;
  approvals: number;
}

/**
 * The real server (src/main.ts) against an external anvil and a database that survives restarts,
 * SIGKILLed at random points while approvals and the reconciler move money, and restarted each
 * time. The chain's Transfer events must then show every approved bounty paid exactly once.
 */
describe.skipIf(!runsHere)('payouts survive SIGKILL at random points', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it(`pays every bounty exactly once across ${KILLS} kills (seed ${SEED})`, { timeout: 900_000 }, async () => {
    const started = Date.now();
    const log = (line: string) => console.log(`[crash seed=${SEED}] ${line}`);
    log(`replay with CRASH_SEED=${SEED} CRASH_KILLS=${KILLS}`);
    const random = seededRandom(SEED);

    const tc: TestChain = await startTestChain();
    cleanups.push(() => tc.stop());
    const dataDir = mkdtempSync(join(tmpdir(), 'bm-crash-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    let dbEnv: Record<string, string> = {};
    if (process.env.TEST_DB === 'postgres') {
      const scratch = await createScratchDatabase();
      cleanups.push(() => scratch.drop());
      dbEnv = { DATABASE_URL: scratch.url };
    }
    // On PostgreSQL the test can look at the payout rows while no server runs: what each kill interrupted.
    const peek = dbEnv.DATABASE_URL
      ? await openDatabase({ kind: 'postgres', url: dbEnv.DATABASE_URL, poolSize: 2 })
      : null;
    if (peek) cleanups.push(() => peek.close());
    const legStates = async () => {
      if (!peek) return '';
      const rows = rowsOf<{ status: string; n: number }>(
        await peek.db.execute(sql`select status, count(*)::int as n from payout_legs group by status order by status`),
      );
      return ` legs ${rows.map((r) => `${r.status}:${r.n}`).join(',') || 'none'};`;
    };
    const openDb = (): Promise<Database> =>
      dbEnv.DATABASE_URL
        ? openDatabase({ kind: 'postgres', url: dbEnv.DATABASE_URL, poolSize: 2 })
        : openDatabase({ kind: 'pglite', dataDir });
    const env = {
      ...externalChainEnv(tc.options),
      ...dbEnv,
      DATA_DIR: dataDir,
      PLATFORM_FEE_BPS: String(FEE_BPS),
      PAYOUT_RECONCILE_INTERVAL_SECONDS: '1',
      APPROVAL_LEASE_SECONDS: '2',
      PAYOUT_RECEIPT_TIMEOUT_SECONDS: '5',
      RATE_LIMIT_PER_IP_PER_MINUTE: '1000000',
      RATE_LIMIT_PER_KEY_PER_MINUTE: '1000000',
      RATE_LIMIT_REGISTER_PER_IP_PER_HOUR: '1000000',
    };
    let server: ServerProcess | null = null;
    cleanups.push(async () => {
      if (server) await killHard(server);
    });
    const start = async () => {
      server = await startServerWithin(env);
      return server;
    };

    // Set-up over HTTP: the founder (an external wallet, anvil account 3), contributors, project.
    let s = await start();
    const founderAddress = tc.account(FOUNDER_ACCOUNT).address;
    const reg = await api(s.baseUrl, 'POST', '/api/agents/register', {
      body: { name: `founder${SEED}`, wallet_address: founderAddress },
    });
    expect(reg.status, JSON.stringify(reg.body)).toBe(201);
    const founderKey = reg.body.agent.api_key as string;
    const project = await api(s.baseUrl, 'POST', '/api/projects', {
      key: founderKey,
      body: { name: `Crash ${SEED}`, token_symbol: 'CRASH' },
    });
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    const projectId = project.body.project.id as string;

    // Activation (repository and contracts) has no HTTP route here: deploy the real token and
    // record it as activation would, with the server stopped (PGlite allows one process).
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    server = null;
    const deployed = await tc.chain.deployProject(projectId, 'Crash token', 'CRASH');
    const repoUrl = `http://127.0.0.1:9/bounty-org/${projectId}`;
    const setupDb = await openDb();
    await setupDb.db
      .update(projects)
      .set({
        status: 'active',
        repoUrl,
        tokenAddress: deployed.tokenAddress,
        curveAddress: deployed.curveAddress,
        activatedAt: new Date(),
      })
      .where(eq(projects.id, projectId));
    await setupDb.close();
    await buyTokens(tc, FOUNDER_ACCOUNT, deployed.curveAddress, UNIT);
    await approvePayouts(tc, FOUNDER_ACCOUNT, deployed.tokenAddress, 10n ** 30n);
    const founderStart = await tokenBalance(tc, deployed.tokenAddress, founderAddress);

    // One bounty per kill, each in review by its own contributor.
    s = await start();
    const bounties: Bounty[] = [];
    for (let i = 0; i < KILLS; i++) {
      const dev = await api(s.baseUrl, 'POST', '/api/agents/register', {
        body: { name: `dev${SEED}x${i}`, wallet_address: randomAddress() },
      });
      expect(dev.status, JSON.stringify(dev.body)).toBe(201);
      const reward = 1 + Math.floor(random() * 50);
      const created = await api(s.baseUrl, 'POST', `/api/projects/${projectId}/bounties`, {
        key: founderKey,
        body: { title: `Crash bounty ${i}`, description: 'Survive the kill.', reward_amount: reward },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.bounty.id as string;
      const devKey = dev.body.agent.api_key as string;
      expect((await api(s.baseUrl, 'POST', `/api/bounties/${id}/claim`, { key: devKey })).status).toBe(200);
      const submitted = await api(s.baseUrl, 'POST', `/api/bounties/${id}/submit`, {
        key: devKey,
        body: { pr_url: `${repoUrl}/pull/${i + 1}` },
      });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
      bounties.push({ id, reward, contributor: dev.body.agent.wallet_address, approvals: 0 });
    }
    log(`set-up done in ${Date.now() - started} ms: ${KILLS} bounties in review`);

    // The kills: each round approves the next fresh bounty plus a random earlier one (often one
    // interrupted mid-payout), then SIGKILLs the server after a random delay and restarts it.
    const outcomes = new Map<string, number>();
    const count = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
    const doneByApi = new Set<string>();
    for (let k = 0; k < KILLS; k++) {
      const fresh = bounties[k] as Bounty;
      const earlier = bounties.slice(0, k).filter((b) => !doneByApi.has(b.id));
      const again = earlier.length > 0 ? earlier[Math.floor(random() * earlier.length)] : undefined;
      const fired = [fresh, ...(again ? [again] : [])];
      const delay = Math.floor(random() * (MAX_KILL_DELAY_MS + 1));
      const inFlight = fired.map((b) => {
        b.approvals++;
        return api(s.baseUrl, 'POST', `/api/bounties/${b.id}/approve`, { key: founderKey }).then(
          (r) => {
            count(String(r.status));
            if (r.status === 200) doneByApi.add(b.id);
            return String(r.status);
          },
          () => {
            count('killed in flight');
            return 'killed';
          },
        );
      });
      await sleep(delay);
      await killHard(s);
      server = null;
      const results = await Promise.all(inFlight);
      const states = await legStates();
      const restartAt = Date.now();
      s = await start();
      log(
        `kill ${k + 1}/${KILLS} after ${delay} ms: ${fired.map((b, i) => `${b.id}=${results[i]}`).join(' ')};` +
          `${states} restarted in ${Date.now() - restartAt} ms`,
      );
    }

    // Let the reconciler finish what was interrupted, and approve what never got far enough.
    const deadline = Date.now() + 120_000;
    const finished = new Set<string>();
    for (;;) {
      for (const b of bounties.filter((x) => !finished.has(x.id))) {
        const res = await api(s.baseUrl, 'GET', `/api/bounties/${b.id}`);
        expect(res.status).toBe(200);
        if (res.body.bounty.status === 'done') finished.add(b.id);
      }
      const open = bounties.filter((b) => !finished.has(b.id));
      if (open.length === 0) break;
      expect(Date.now(), `still not done: ${open.map((b) => b.id).join(' ')}`).toBeLessThan(deadline);
      await Promise.all(
        open.map((b) => api(s.baseUrl, 'POST', `/api/bounties/${b.id}/approve`, { key: founderKey })),
      );
      await sleep(500);
    }
    log(`all ${KILLS} bounties done ${Date.now() - started} ms after start; approval outcomes: ${
      JSON.stringify(Object.fromEntries(outcomes))
    }`);

    // The API's record of each payout.
    const paid = new Map<string, { contributorTx: string; feeTx: string }>();
    for (const b of bounties) {
      const res = await api(s.baseUrl, 'GET', `/api/bounties/${b.id}`);
      expect(res.status).toBe(200);
      expect(res.body.bounty.status).toBe('done');
      const approved = (res.body.bounty.submissions as Record<string, string>[]).filter(
        (x) => x.status === 'approved',
      );
      expect(approved).toHaveLength(1);
      paid.set(b.id, {
        contributorTx: approved[0]?.contributor_tx_hash as string,
        feeTx: approved[0]?.platform_fee_tx_hash as string,
      });
    }
    s.child.kill('SIGTERM');
    expect(await s.exited, s.output().slice(-3000)).toBe(0);
    server = null;

    // The chain's record: every transfer out of the founder's wallet, from block 0.
    const treasury = tc.chain.info.treasuryAddress as string;
    const logs = (await transferLogs(tc, deployed.tokenAddress)).filter((l) => same(l.from, founderAddress));
    let totalFees = 0n;
    let totalRewards = 0n;
    for (const b of bounties) {
      const reward = BigInt(b.reward) * UNIT;
      const fee = (reward * FEE_BPS) / 10_000n;
      totalFees += fee;
      totalRewards += reward;
      const recorded = paid.get(b.id) as { contributorTx: string; feeTx: string };
      const toContributor = logs.filter((l) => same(l.to, b.contributor));
      expect(toContributor.map((l) => [l.value, l.txHash]), b.id).toEqual([
        [reward - fee, recorded.contributorTx],
      ]);
      const feeLegs = logs.filter((l) => l.txHash === recorded.feeTx);
      expect(feeLegs.map((l) => [l.to, l.value]), b.id).toEqual([[getAddress(treasury), fee]]);
    }
    expect(logs).toHaveLength(2 * KILLS);
    const feeTxs = logs.filter((l) => same(l.to, treasury)).map((l) => l.txHash);
    expect(new Set(feeTxs).size).toBe(KILLS);
    expect(feeTxs.sort()).toEqual([...paid.values()].map((p) => p.feeTx).sort());
    expect(await tokenBalance(tc, deployed.tokenAddress, treasury)).toBe(totalFees);
    expect(await tokenBalance(tc, deployed.tokenAddress, founderAddress)).toBe(founderStart - totalRewards);

    // The payout wallet's nonces: one stored leg per nonce from 0, none skipped, none pending.
    const signer = tc.chain.payoutSigner.address;
    const db = await openDb();
    try {
      const legs = await db.db
        .select()
        .from(payoutLegs)
        .where(eq(payoutLegs.signer, signer))
        .orderBy(asc(payoutLegs.nonce));
      expect(legs.map((l) => l.nonce)).toEqual(legs.map((_, i) => i));
      expect(legs.filter((l) => l.status === 'success')).toHaveLength(2 * KILLS);
      expect(legs.filter((l) => l.status !== 'success' && l.status !== 'reverted')).toEqual([]);
      const chainNonces = await Promise.all(
        legs.map((l) => tc.pub.getTransaction({ hash: l.txHash as Hex }).then((t) => t.nonce)),
      );
      expect(chainNonces).toEqual(legs.map((l) => l.nonce));
      const [counter] = await db.db.select().from(signerNonces).where(eq(signerNonces.address, signer));
      const pendingNonce = await tc.pub.getTransactionCount({ address: getAddress(signer), blockTag: 'pending' });
      expect(counter?.nextNonce).toBe(legs.length);
      expect(pendingNonce).toBe(legs.length);
      log(
        `${legs.length} legs (${legs.filter((l) => l.status === 'reverted').length} reverted), ` +
          `nonces 0..${legs.length - 1} gap-free; total ${Date.now() - started} ms`,
      );
    } finally {
      await db.close();
    }
  });
});
