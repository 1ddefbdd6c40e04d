import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPayoutAudit } from '../scripts/lib/payout-audit-sources.ts';
import { formatAudit } from '../src/modules/payouts/payouts-audit.ts';
import { randomRuns, randomSeed } from './helpers/counts.ts';
import { type Harness, startHarness } from './helpers/interleave-harness.ts';
import { runSchedule } from './helpers/interleave-run.ts';
import { makeSchedule } from './helpers/interleave-schedule.ts';

/**
 * A model test of the money path that really interleaves (issue 16): one anvil mining a block a
 * second, two real service processes on one PostgreSQL (and Redis) and one repository host, and
 * seeded schedules of operations issued concurrently through both instances (claim, submit,
 * approve, reject, merges by the founder and by others, lapsed claims, the founder's allowance
 * and balance moved on chain) with faults injected through anvil's own RPC (a reorg, a dropped
 * payout transaction, the payout key's nonce used outside the service, a base fee spike) and a
 * SIGKILL of an instance while a payout is in flight. After each schedule: a bounded wait for
 * quiescence, then the token's Transfer logs on the canonical chain are the judge (see
 * helpers/interleave-checker.ts for rules a-e); then the founder's funds are restored, owed
 * payouts and the remaining reviews get their chance, and the judge and `npm run audit:payouts`'s
 * comparison look again (helpers/interleave-run.ts). The wallet actions join the model in
 * wallets-interleave.chain.int.test.ts.
 *
 * MODEL_SEED=S replays a schedule (schedule k of a run uses seed S+k; timing is not replayed),
 * MODEL_RUNS=N runs N schedules, MODEL_ROUNDS=R sets rounds per schedule.
 */

const onPostgres = process.env.TEST_DB === 'postgres';
// One schedule on every push, three with TEST_FULL=1 (see helpers/counts.ts).
const RUNS = randomRuns('MODEL_RUNS', 1, 3);
const ROUNDS = Number(process.env.MODEL_ROUNDS ?? 8);
const SEED = randomSeed('MODEL_SEED');
const BOUNTIES = 4;
const DEVS = 4;
const FEE_BPS = 500n;
const log = (line: string) => console.log(`[interleave seed=${SEED}] ${line}`);

describe.skipIf(!onPostgres)('the money path, really interleaved (two instances, one chain, faults)', () => {
  let h: Harness;
  let failed = false;

  beforeAll(async () => {
    log(`replay: MODEL_SEED=${SEED} (schedule k uses seed ${SEED}+k)`);
    h = await startHarness({ seed: SEED, log, feeBps: FEE_BPS });
  }, 180_000);

  afterAll(async () => {
    await h?.stop(failed ? `interleave/seed-${SEED}` : undefined);
  }, 60_000);

  it(`pays every approved and every owed submission exactly once over ${RUNS} schedule(s) (seed ${SEED})`, {
    timeout: 120_000 * RUNS + 60_000,
  }, async () => {
    for (let k = 0; k < RUNS; k++) {
      const schedule = makeSchedule(SEED + k, { bounties: BOUNTIES, devs: DEVS, rounds: ROUNDS });
      let result: Awaited<ReturnType<typeof runSchedule>>;
      try {
        result = await runSchedule(
          h,
          schedule,
          k,
          {
            feeBps: FEE_BPS,
            devs: DEVS,
            // A stuck transaction is replaced after PAYOUT_STUCK_AFTER_SECONDS (3) with fees
            // raised, and a base fee spike decays ~12% a block.
            quietWithinMs: 30_000,
            // Quiet this long (more than PAYOUT_CONFIRMATIONS blocks) before it counts as quiet.
            quietForMs: 3_500,
            owedWithinMs: 25_000,
            replay: (seed) =>
              `MODEL_SEED=${seed} MODEL_RUNS=1 MODEL_ROUNDS=${ROUNDS} TEST_DATABASE_URL=... npx vitest run --project wire test/payouts-interleave.chain.int.test.ts`,
          },
          {
            prepare: async () => null,
            async audit() {
              const report = await runPayoutAudit(h.db, h.chain.rpcUrl, h.chain.payoutAddress);
              return report.differences.length === 0 ? 'no difference' : `\n${formatAudit(report)}`;
            },
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
        // Later schedules share the payout key's nonces with this one's leftovers: stop here.
        expect.fail(`[interleave seed=${SEED}] ${result.text}`);
      }
    }
  });
});
