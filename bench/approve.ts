/**
 * Latency and throughput of POST /api/bounties/{id}/approve on a real anvil, next to bare ERC-20
 * transferFroms sent by the same payout wallet to the same chain. See bench/README.md.
 *
 *   npx tsx bench/approve.ts [--approvals 50] [--concurrency 10] [--pool 10] [--pglite] [--block-time 1]
 *                            [--founders 1]
 *
 * With --founders K the concurrent approvals are spread over K founders (each its own wallet,
 * project and funds lock), taken round-robin.
 *
 * The parts, in bench/lib/: the untimed set-up (approve-setup.ts), the timed database and chain
 * (approve-profile.ts), the measured phases (approve-phase.ts), the bare-transferFrom baseline
 * (approve-baseline.ts) and the report against the targets (approve-report.ts).
 */
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/infra/config.ts';
import { systemClock } from '../src/lib/clock.ts';
import { startTestChain } from '../test/helpers/chain.ts';
import { FakeRepoHost } from '../test/helpers/fake-repo-host.ts';
import { bareTransfers } from './lib/approve-baseline.ts';
import { phase } from './lib/approve-phase.ts';
import { openTimedDatabase, type Stats, timedChain } from './lib/approve-profile.ts';
import { f, type Paid, printReport, sameBlock } from './lib/approve-report.ts';
import { seedFounder } from './lib/approve-setup.ts';

const WARMUP = 3; // unmeasured approvals and transfers first (JIT, connections, nonce seeding)

const { values: opts } = parseArgs({
  options: {
    approvals: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '10' },
    pool: { type: 'string', default: '10' },
    pglite: { type: 'boolean', default: false },
    'block-time': { type: 'string' },
    founders: { type: 'string', default: '1' },
  },
});
const whole = (name: string, raw: string): number => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number >= 1 (got "${raw}")`);
  return n;
};
const N = whole('approvals', opts.approvals);
const C = whole('concurrency', opts.concurrency);
const pool = whole('pool', opts.pool);
const FOUNDERS = whole('founders', opts.founders);
/** Seconds between blocks once set-up is done (anvil interval mining); undefined: automine. */
const blockTime = opts['block-time'] === undefined ? undefined : whole('block-time', opts['block-time']);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const log = (msg: string) => console.log(msg);

async function main(): Promise<void> {
  const load = loadavg().map((l) => f(l, 2));
  log(`approve bench: ${N} approvals sequential, then ${N} at concurrency ${C} over ${FOUNDERS} founder(s)`);
  log(
    `mining: ${blockTime === undefined ? 'automine (a block per transaction)' : `a block every ${blockTime} s`}`,
  );
  log(`machine: ${availableParallelism()} CPUs, load average ${load.join(' ')}`);

  const stats: Stats = new Map();
  const tc = await startTestChain();
  let database: Awaited<ReturnType<typeof openTimedDatabase>> | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    database = await openTimedDatabase(opts.pglite, adminUrl, pool, stats);
    const config = loadConfig({
      DATABASE_POOL_SIZE: String(pool),
      RATE_LIMIT_PER_IP_PER_MINUTE: '1000000',
      RATE_LIMIT_PER_KEY_PER_MINUTE: '1000000',
      RATE_LIMIT_REGISTER_PER_IP_PER_HOUR: '1000000',
      LOG_LEVEL: 'silent',
    });
    const poll = config.chain.pollingIntervalMs;
    if (tc.options.pollingIntervalMs !== poll) throw new Error('service and chain polling intervals differ');
    log(`database: ${database.label}; anvil ${tc.rpcUrl}`);
    log(
      `receipt polling interval: ${poll} ms, for the service (payout driver, viem) and the bare side alike`,
    );
    const repoHost = new FakeRepoHost();
    app = await buildApp({
      database,
      chain: timedChain(tc.chain, stats),
      clock: systemClock,
      config,
      // A stand-in host that finds every pull request open: submitting (set-up) needs one.
      repoHost,
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('service did not bind a TCP port');
    const base = `http://127.0.0.1:${address.port}`;

    const setupStart = Date.now();
    const founder = await seedFounder(app, database.db, tc, repoHost);
    const others = [];
    for (let k = 1; k < FOUNDERS; k++) others.push(await seedFounder(app, database.db, tc, repoHost, k));
    const founders = [founder, ...others];
    const seqIds = await founder.inReview(WARMUP + N);
    // The concurrent approvals, round-robin over the founders: [bounty id, that founder's key].
    const perFounder = await Promise.all(founders.map((fo, k) => fo.inReview(Math.ceil((N - k) / FOUNDERS))));
    const concIds = Array.from({ length: N }, (_, i) => {
      const k = i % FOUNDERS;
      return { id: perFounder[k]?.[Math.floor(i / FOUNDERS)], key: founders[k]?.founderKey };
    });
    log(`set-up (untimed): ${2 * N + WARMUP} bounties in review in ${f((Date.now() - setupStart) / 1000)} s`);

    if (blockTime !== undefined) {
      // Set-up ran on automine; from here on blocks come on a timer, as on a real chain.
      await tc.test.setAutomine(false);
      await tc.test.setIntervalMining({ interval: blockTime });
    }
    const paid: Paid[] = [];
    const approve = async (id: string | undefined, key = founder.founderKey) => {
      const res = await fetch(`${base}/api/bounties/${id}/approve`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`approve ${id} answered ${res.status}: ${body}`);
      paid.push(JSON.parse(body) as Paid);
    };
    const bare = bareTransfers(tc, founder.tokenAddress, founder.founderAddress, poll);
    const rpcPerTransfer = (from: number, count: number) => {
      const methods = bare.rpc.slice(from);
      const distinct = [...new Set(methods)].join(', ');
      return `${f(methods.length / count)} RPC calls per transfer (${distinct})`;
    };

    // Every bare transfer comes first: the service seeds its nonce counter from the chain on its
    // first payout and must from then on be the only sender from the payout key.
    await phase(stats, WARMUP, 1, () => bare.transfer());
    let mark = bare.rpc.length;
    const bareSeq = await phase(stats, N, 1, () => bare.transfer());
    const bareSeqRpc = rpcPerTransfer(mark, N);
    const fixed = await bare.fixedParams();
    mark = bare.rpc.length;
    const raw = await phase(stats, N, C, () => bare.transfer({ ...fixed, nonce: fixed.nonce++ }));
    const rawRpc = rpcPerTransfer(mark, N);

    await phase(stats, WARMUP, 1, (i) => approve(seqIds[i]));
    const seq = await phase(stats, N, 1, (i) => approve(seqIds[WARMUP + i]));
    const conc = await phase(stats, N, C, (i) => approve(concIds[i]?.id, concIds[i]?.key));

    const blocks = await sameBlock(tc, paid);
    printReport({
      n: N,
      concurrency: C,
      blockTime,
      seq,
      conc,
      bareSeq,
      raw,
      bareSeqRpc,
      rawRpc,
      paid: paid.length,
      blocks,
    });
  } finally {
    await app?.close();
    await database?.close();
    await tc.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
