/**
 * The report of bench/approve.ts: the approvals against the bare transferFroms and the targets they
 * must meet, whether each payout's reward and fee mined in one block, and where an approve spends
 * its time.
 */
import type { TestChain } from '../../test/helpers/chain.ts';
import { mean, type Phase, pct } from './approve-phase.ts';

const TARGET_LATENCY_RATIO = 2; // approve median / bare transferFrom median, at most (automine)
const TARGET_LATENCY_RATIO_BLOCK_TIME = 1.1; // the same with --block-time: the payout rides one block
const TARGET_THROUGHPUT_RATIO = 0.9; // approvals/s / raw transfers/s, at least (issue 25: at C=10, and at C=50 over 10 founders)
// SQL statements per approval (sequential phase), at most: 12 while the approval wrote other modules'
// tables itself; 16 since each table has one writing module (docs/architecture.md, Boundaries); 17
// since an approval stores the holdings it changed (issue 18); 19 since the payout is an intent of the
// one transaction engine (issue 25: the payout key's counter, and the intent settled when it finishes;
// test/approve-statements.int.test.ts).
const TARGET_STATEMENTS = 19;

const log = (msg: string) => console.log(msg);
export const f = (n: number, digits = 1) => n.toFixed(digits);

/** What an approval answers: its payout's transactions. */
export interface Paid {
  contributor_tx_hash: string;
  platform_fee_tx_hash: string;
}

/**
 * How many approvals had their contributor and fee transfers mined in one block (one router
 * transaction carries both, so all of them), and the blocks the others spanned.
 */
export async function sameBlock(tc: TestChain, paid: Paid[]): Promise<{ same: number; apart: bigint[] }> {
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

/** What the bench measured, for the report. */
export interface Results {
  /** The approvals (and bare transfers) per phase, and the concurrency of the concurrent ones. */
  n: number;
  concurrency: number;
  /** Seconds between blocks; undefined: automine. */
  blockTime: number | undefined;
  /** Approvals: sequential and concurrent. */
  seq: Phase;
  conc: Phase;
  /** Bare transferFroms: sequential, and concurrent with their own nonces and fees (`raw`). */
  bareSeq: Phase;
  raw: Phase;
  /** The bare phases' RPC calls per transfer, described. */
  bareSeqRpc: string;
  rawRpc: string;
  /** How many approvals paid, and `sameBlock` of their payouts. */
  paid: number;
  blocks: { same: number; apart: bigint[] };
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
function printProfile(seq: Phase, conc: Phase, N: number, C: number): void {
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

/** Prints the results against their targets, then the profile. */
export function printReport(r: Results): void {
  const { n: N, concurrency: C, blockTime, seq, conc, bareSeq, raw, blocks } = r;
  const targetLatency = blockTime === undefined ? TARGET_LATENCY_RATIO : TARGET_LATENCY_RATIO_BLOCK_TIME;
  // With blocks, an approval that waits for one also marks its leg sent: one statement more.
  const targetStatements = blockTime === undefined ? TARGET_STATEMENTS : TARGET_STATEMENTS + 1;
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
      `${blocks.same} of ${r.paid}`,
      '-',
      '-',
      blockTime === undefined ? '-' : 'all',
      blockTime === undefined ? 'info' : verdict(blocks.same === r.paid),
    ],
  ]);
  if (blocks.apart.length > 0) {
    log(
      `reward and fee in different blocks: ${blocks.apart.length} approvals, apart by ${blocks.apart.join(', ')} blocks`,
    );
  }
  log('\nAn approve sends ONE router transaction (both transferFroms: contributor and fee) and awaits it;');
  log(`each bare round trip is ONE: sequential ${r.bareSeqRpc}; concurrent ${r.rawRpc}.`);
  log(
    `Process CPU per bare transfer: ${f(bareSeq.cpuMs / N)} ms sequential, ${f(raw.cpuMs / N)} ms concurrent.`,
  );
  log('\nWhere an approve spends its time (summed wall time, overlapping when concurrent):');
  printProfile(seq, conc, N, C);
  log(
    '"chain mined: not yet" = receipt lookups that found nothing; each is followed by a ' +
      'polling-interval sleep (expected with --block-time, rare on automine).',
  );
}
