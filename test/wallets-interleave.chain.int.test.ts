import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evmMoneyReader } from '../scripts/lib/money-audit-chain.ts';
import { runMoneyAudit } from '../scripts/lib/money-audit-sources.ts';
import { formatMoneyAudit } from '../src/modules/audit/money-audit.ts';
import { randomRuns, randomSeed } from './helpers/counts.ts';
import { type Harness, startHarness } from './helpers/interleave-harness.ts';
import { type Finding, runSchedule } from './helpers/interleave-run.ts';
import { checkWallets, WALLET_RULES } from './helpers/wallet-interleave-checker.ts';
import { runWalletOp } from './helpers/wallet-interleave-faults.ts';
import { walletCheckInput, walletReach, walletsMoving } from './helpers/wallet-interleave-observe.ts';
import { describeAny, isWalletOp, makeWalletSchedule } from './helpers/wallet-interleave-schedule.ts';
import {
  applyFaults,
  makeWalletWorld,
  sweepSponsored,
  type WalletWorld,
} from './helpers/wallet-interleave-world.ts';

/**
 * The interleaving model with the wallet actions in it (issue 25): the payout model of
 * payouts-interleave.chain.int.test.ts (two real instances on one PostgreSQL, an anvil mining a
 * block a second, seeded rounds of concurrent operations and faults) with, in every round, buys,
 * sales and withdraws of in-app agents (two paying their own gas, two with no ETH whom the sponsor
 * serves) and the founder's allowance through the API, each request with an Idempotency-Key and
 * retried with it as a client does. The instances reach anvil through a proxy of the test's that
 * loses or delays the node's answers to broadcasts and receipt reads, or swallows broadcasts; the
 * reorg and the SIGKILL catch wallet actions in flight; the sponsor's and wallets' nonces are used
 * outside the service; base fee spikes. After quiescence the payout rules (a-e) and the wallet
 * rules (f-j, helpers/wallet-interleave-checker.ts) judge from the chain, and `npm run
 * audit:money`'s comparison looks too.
 *
 * MODEL_SEED=S replays a schedule (schedule k of a run uses seed S+k; timing is not replayed),
 * MODEL_RUNS=N runs N schedules, MODEL_ROUNDS=R sets rounds per schedule.
 */

const onPostgres = process.env.TEST_DB === 'postgres';
// One schedule on every push, three with TEST_FULL=1 (see helpers/counts.ts).
const RUNS = randomRuns('MODEL_RUNS', 1, 3);
const ROUNDS = Number(process.env.MODEL_ROUNDS ?? 5);
const SEED = randomSeed('MODEL_SEED');
const BOUNTIES = 4;
const DEVS = 4;
const FEE_BPS = 500n;
/** SPONSORED_WITHDRAWALS_PER_DAY: low, so that schedules reach it. */
const QUOTA = 2;
const log = (line: string) => console.log(`[wallets-interleave seed=${SEED}] ${line}`);

/**
 * `npm run audit:money`'s comparison. The sponsor transactions the test itself signed (wsteal) are
 * ones the database cannot know: that difference is set aside when it names only their nonces.
 */
async function moneyAudit(x: WalletWorld, spender: string, ours: Set<number>): Promise<string> {
  const report = await runMoneyAudit(x.h.db, evmMoneyReader(x.h.chain.pub as never), {
    payoutSigner: x.h.chain.payoutAddress,
    sponsor: x.sponsor,
    routerAddress: spender,
    confirmations: 2,
    withdrawalsPerDay: QUOTA,
  });
  // The audit reads every schedule of the run: the sponsor nonces of earlier ones count too.
  for (const s of x.stolen) if (s.address === x.sponsor.toLowerCase()) ours.add(s.nonce);
  const excused = report.differences.filter((d) => {
    const listed = /nonce\(s\) ([\d, ]+) \(of/.exec(d.message)?.[1];
    return (
      d.code === 'sponsor_nonce_unknown' && !!listed && listed.split(', ').every((n) => ours.has(Number(n)))
    );
  });
  const aside = excused.length
    ? ` (set aside, the test's own sponsor transactions: ${excused.map((d) => d.message).join('; ')})`
    : '';
  if (excused.length === report.differences.length) return `no difference${aside}`;
  return `${aside}\n${formatMoneyAudit(report)}`;
}

describe.skipIf(!onPostgres)(
  'wallet actions and payouts, really interleaved (two instances, one chain, faults)',
  () => {
    let h: Harness;
    let failed = false;
    const sponsorNoncesUsedOutside = new Set<number>();

    beforeAll(async () => {
      log(`replay: MODEL_SEED=${SEED} (schedule k uses seed ${SEED}+k)`);
      h = await startHarness({
        seed: SEED,
        log,
        feeBps: FEE_BPS,
        proxy: true,
        env: { SPONSORED_WITHDRAWALS_PER_DAY: String(QUOTA) },
        sponsor: true,
      });
    }, 180_000);

    afterAll(async () => {
      await h?.stop(failed ? `wallets-interleave/seed-${SEED}` : undefined);
    }, 60_000);

    it(`executes every wallet request at most once and pays every submission exactly once over ${RUNS} schedule(s) (seed ${SEED})`, {
      timeout: 150_000 * RUNS + 60_000,
    }, async () => {
      for (let k = 0; k < RUNS; k++) {
        const schedule = makeWalletSchedule(SEED + k, { bounties: BOUNTIES, devs: DEVS, rounds: ROUNDS });
        let result: Awaited<ReturnType<typeof runSchedule>>;
        /** What the wallet part reached, read by the judge for the summary line. */
        let reached = '';
        try {
          result = await runSchedule<WalletWorld>(
            h,
            schedule,
            k,
            {
              feeBps: FEE_BPS,
              devs: DEVS,
              quietWithinMs: 30_000,
              quietForMs: 3_500,
              owedWithinMs: 25_000,
              replay: (seed) =>
                `MODEL_SEED=${seed} MODEL_RUNS=1 MODEL_ROUNDS=${ROUNDS} TEST_DATABASE_URL=... npx vitest run --project wire test/wallets-interleave.chain.int.test.ts`,
            },
            {
              prepare: (w) => makeWalletWorld(h, w, QUOTA),
              runStep: (x, op, via) => (isWalletOp(op) ? runWalletOp(x, op, via) : undefined),
              describe: (op) => describeAny(op as never),
              async betweenRounds(x, trace) {
                const swept = await sweepSponsored(x);
                if (swept.length)
                  trace.push(`  (sale proceeds of sponsored agents ${swept.join(', ')} spent elsewhere)`);
              },
              inFlight: async (x) => {
                // The faults end with their operations; nothing may stay broken while the model waits.
                x.faults.clear();
                applyFaults(x);
                return walletsMoving(x);
              },
              async judge(x, trace) {
                const input = await walletCheckInput(x);
                reached = walletReach(x, input, trace);
                const found = checkWallets(input);
                trace.push(`wallet check: ${x.requests.length} requests, ${found.length} violation(s)`);
                return found as Finding[];
              },
              reach: async () => reached,
              audit: (x, w) => moneyAudit(x, w.spender, sponsorNoncesUsedOutside),
              rules: WALLET_RULES,
            },
          );
        } catch (err) {
          failed = true;
          log(
            `schedule seed ${schedule.seed} broke the harness: replay with MODEL_SEED=${schedule.seed} MODEL_RUNS=1`,
          );
          throw err;
        }
        log(`${result.text}${result.ok ? '' : `\n(schedule ${k + 1} of ${RUNS}, run seed ${SEED})`}`);
        if (!result.ok) {
          failed = true;
          expect.fail(`[wallets-interleave seed=${SEED}] ${result.text}`);
        }
      }
    });
  },
);
