/**
 * Latency and throughput of POST /api/bounties/{id}/approve on a real anvil, next to bare ERC-20
 * transferFroms sent by the same payout wallet to the same chain. See bench/README.md.
 *
 *   npx tsx bench/approve.ts [--approvals 50] [--concurrency 10] [--pool 10] [--pglite] [--block-time 1]
 *                            [--founders 1]
 *
 * With --founders K the concurrent approvals are spread over K founders (each its own wallet,
 * project and funds lock), taken round-robin.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/infra/config.ts';
import { systemClock } from '../src/lib/clock.ts';
import type { TestChain } from '../test/helpers/chain.ts';
import { startTestChain } from '../test/helpers/chain.ts';
import { FakeRepoHost } from '../test/helpers/fake-repo-host.ts';
import {
  bareTransfers,
  openTimedDatabase,
  type Stats,
  seedFounder,
  timedChain,
} from './lib/approve-setup.ts';

const TARGET_LATENCY_RATIO = 2; // approve median / bare transferFrom median, at most (automine)
const TARGET_LATENCY_RATIO_BLOCK_TIME = 1.1; // the same with --block-time: the payout rides one block
const TARGET_THROUGHPUT_RATIO = 0.5; // approvals/s / raw transfers/s, at least (one transaction each)
// SQL statements per approval (sequential phase), at most: 12 while the approval wrote other modules'
// tables itself; 16 since each table has one writing module (docs/architecture.md, Boundaries); 17
// since an approval stores the holdings it changed (issue 18; test/approve-statements.int.test.ts).
const TARGET_STATEMENTS = 17;
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
const targetLatency = blockTime === undefined ? TARGET_LATENCY_RATIO : TARGET_LATENCY_RATIO_BLOCK_TIME;
// With blocks, an approval that waits for one also marks its leg sent: one statement more.
const targetStatements = blockTime === undefined ? TARGET_STATEMENTS : TARGET_STATEMENTS + 1;
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const log = (msg: string) => console.log(msg);
const f = (n: number, digits = 1) => n.toFixed(digits);
const pct = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;

interface Phase {
  /** Each operation's latency, ms, sorted. */
  ms: number[];
  seconds: number;
  /** This process's CPU time (service, clients, bench), ms. */
  cpuMs: number;
  stats: Stats;
}

/**
 * `n` operations by `concurrency` workers, each taking the next index when its last one is done;
 * the stats (chain calls, SQL) are those of this phase alone.
 */
async function phase(
  stats: Stats,
  n: number,
  concurrency: number,
  op: (i: number) => Promise<void>,
): Promise<Phase> {
  stats.clear();
  const ms: number[] = [];
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      const s = performance.now();
      await op(i);
      ms.push(performance.now() - s);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const copy: Stats = new Map([...stats].map(([k, v]) => [k, { ...v }]));
  return { ms: ms.sort((a, b) => a - b), seconds, cpuMs: (cpu.user + cpu.system) / 1000, stats: copy };
}

function printTable(rows: string[][]): void {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  rows.forEach((r, i) => {
    log(line(r));
    if (i === 0) log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  });
}

/** Per approve: calls and summed wall time of each chain method and of SQL, for both phases. */
function printProfile(seq: Phase, conc: Phase): void {
  const names = [...new Set([...seq.stats.keys(), ...conc.stats.keys()])].sort();
  const cell = (p: Phase, name: string) => {
    const s = p.stats.get(name);
    return s ? `${f(s.calls / N)} x, ${f(s.ms / N)} ms` : '-';
  };
  printTable([
    ['per approve (mean)', 'sequential', `concurrent (C=${C})`],
    ['wall time (mean latency)', `${f(mean(seq.ms))} ms`, `${f(mean(conc.ms))} ms`],
    ['process CPU', `${f(seq.cpuMs / N)} ms`, `${f(conc.cpuMs / N)} ms`],
    ...names.map((name) => [name, cell(seq, name), cell(conc, name)]),
  ]);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

interface Paid {
  contributor_tx_hash: string;
  platform_fee_tx_hash: string;
}

/**
 * How many approvals had their contributor and fee transfers mined in one block (one router
 * transaction carries both, so all of them), and the blocks the others spanned.
 */
async function sameBlock(tc: TestChain, paid: Paid[]): Promise<{ same: number; apart: bigint[] }> {
  const block = async (hash: string) =>
    (await tc.pub.getTransactionReceipt({ hash: hash as `0x${string}` })).blockNumber;
  let same = 0;
  const apart: bigint[] = [];
  for (const p of paid) {
    const [c, f] = await Promise.all([block(p.contributor_tx_hash), block(p.platform_fee_tx_hash)]);
    if (c === f) same++;
    else apart.push(f > c ? f - c : c - f);
  }
  return { same, apart };
}

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
    const statementsPerApproval = (p: Phase) => (p.stats.get('sql statement')?.calls ?? 0) / N;
    const latencyRatio = pct(seq.ms, 0.5) / pct(bareSeq.ms, 0.5);
    const approvalsPerSecond = N / conc.seconds;
    const rawPerSecond = N / raw.seconds;
    const throughputRatio = approvalsPerSecond / rawPerSecond;
    const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
    log('');
    printTable([
      ['measure', 'approve', 'bare transferFrom', 'ratio', 'target', 'result'],
      [
        'sequential median ms',
        f(pct(seq.ms, 0.5)),
        f(pct(bareSeq.ms, 0.5)),
        f(latencyRatio, 2),
        `<= ${targetLatency}`,
        verdict(latencyRatio <= targetLatency),
      ],
      [
        'sequential p95 ms',
        f(pct(seq.ms, 0.95)),
        f(pct(bareSeq.ms, 0.95)),
        f(pct(seq.ms, 0.95) / pct(bareSeq.ms, 0.95), 2),
        '-',
        'info',
      ],
      [
        `concurrent (C=${C}) transactions/s`,
        f(approvalsPerSecond),
        f(rawPerSecond),
        f(throughputRatio, 2),
        `>= ${TARGET_THROUGHPUT_RATIO}`,
        verdict(throughputRatio >= TARGET_THROUGHPUT_RATIO),
      ],
      [`concurrent (C=${C}) approvals/s`, f(approvalsPerSecond), '-', '-', '-', 'info'],
      [`concurrent (C=${C}) p95 ms`, f(pct(conc.ms, 0.95)), f(pct(raw.ms, 0.95)), '-', '-', 'info'],
      [
        'SQL statements per approval',
        f(statementsPerApproval(seq)),
        '-',
        '-',
        `<= ${targetStatements}`,
        verdict(statementsPerApproval(seq) <= targetStatements),
      ],
      [`SQL statements per approval (C=${C})`, f(statementsPerApproval(conc)), '-', '-', '-', 'info'],
      [
        'reward and fee in one block',
        `${blocks.same} of ${paid.length}`,
        '-',
        '-',
        blockTime === undefined ? '-' : 'all',
        blockTime === undefined ? 'info' : verdict(blocks.same === paid.length),
      ],
    ]);
    if (blocks.apart.length > 0) {
      log(
        `reward and fee in different blocks: ${blocks.apart.length} approvals, apart by ${blocks.apart.join(', ')} blocks`,
      );
    }
    log('\nAn approve sends ONE router transaction (both transferFroms: contributor and fee) and awaits it;');
    log(`each bare round trip is ONE: sequential ${bareSeqRpc}; concurrent ${rawRpc}.`);
    log(
      `Process CPU per bare transfer: ${f(bareSeq.cpuMs / N)} ms sequential, ${f(raw.cpuMs / N)} ms concurrent.`,
    );
    log('\nWhere an approve spends its time (summed wall time, overlapping when concurrent):');
    printProfile(seq, conc);
    log(
      '"chain mined: not yet" = receipt lookups that found nothing; each is followed by a ' +
        'polling-interval sleep (expected with --block-time, rare on automine).',
    );
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
