import { seededRandom } from './crash.ts';
import { describeOp, type FundsLevel, makeSchedule, type Op } from './interleave-schedule.ts';

/**
 * Seeded schedules of the wallet interleaving model (test/wallets-interleave.chain.int.test.ts):
 * the payout model's schedule for the same seed (helpers/interleave-schedule.ts), with wallet
 * actions of several in-app agents added to every round, and the wallet faults: answers of the
 * node lost or late on the way back to the instances, a broadcast swallowed or forgotten by the
 * node, a wallet's or the sponsor's nonce used outside the service; the payout model's reorg and
 * SIGKILL become ones that also catch a wallet action in flight.
 */

/** How a client retries: always with the request's Idempotency-Key (see clients/typescript/retry.ts). */
export interface Retry {
  /** Asks once more after a final answer too (as a client that lost it would). */
  again: boolean;
  /** Retries go through the other instance (a balancer's choice). */
  other: boolean;
}

/** Agents 0..OWN-1 hold ETH (they pay their own gas), the others none (the sponsor pays). */
export const WALLET_AGENTS = 4;
export const OWN = 2;

export type WalletAct =
  | { t: 'wbuy'; agent: number; size: number; retry: Retry }
  | { t: 'wsell'; agent: number; size: number; retry: Retry }
  | { t: 'wwithdraw'; agent: number; size: number; eth: boolean; retry: Retry }
  /** The founder's allowance through the API (its in-app wallet, beside its moves on chain). */
  | { t: 'wallowance'; level: FundsLevel; retry: Retry };

export type WalletOp =
  | WalletAct
  /** Answers to eth_sendRawTransaction and/or eth_getTransactionReceipt lost for `ms` (the node got them). */
  | { t: 'lose'; methods: 'send' | 'receipt' | 'both'; ms: number; act: WalletAct }
  /** Those answers come back `lateMs` late (past PAYOUT_RECEIPT_TIMEOUT_SECONDS) for `ms`. */
  | { t: 'slow'; ms: number; lateMs: number; act: WalletAct }
  /** Broadcasts answered but never passed on to the node, for `ms`. */
  | { t: 'swallow'; ms: number; act: WalletAct }
  /** A pending sponsor or wallet transaction dropped from the node's pool. */
  | { t: 'wdrop'; pick: number; act: WalletAct }
  /** The sponsor's (or an agent's, or the founder's) key signs outside the service at the nonce it waits on. */
  | { t: 'wsteal'; who: 'sponsor' | 'agent' | 'founder'; agent: number; waitMs: number; act: WalletAct }
  /** The payout model's reorg, with a wallet action started in the blocks it takes back. */
  | { t: 'wreorg'; holdMs: number; provoke: boolean; act: WalletAct }
  /** The payout model's SIGKILL, with a wallet action in flight on the instance killed. */
  | { t: 'wkill'; instance: number; approveFirst: boolean; waitMs: number; act: WalletAct };

export type AnyOp = Op | WalletOp;
export interface AnyStep {
  op: AnyOp;
  via: number;
}
export interface WalletSchedule {
  seed: number;
  rewards: number[];
  rounds: AnyStep[][];
}

const WALLET_KINDS = new Set([
  'wbuy',
  'wsell',
  'wwithdraw',
  'wallowance',
  'lose',
  'slow',
  'swallow',
  'wdrop',
  'wsteal',
  'wreorg',
  'wkill',
]);
export const isWalletOp = (op: { t: string }): op is WalletOp => WALLET_KINDS.has(op.t);

type ActKind = WalletAct['t'];
type FaultKind = 'lose' | 'slow' | 'swallow' | 'wdrop' | 'wsteal';
const ACTS: [ActKind, number][] = [
  ['wsell', 4],
  ['wwithdraw', 3.5],
  ['wbuy', 2],
  ['wallowance', 1],
];
const FAULTS: [FaultKind, number][] = [
  ['lose', 1.4],
  ['slow', 1],
  ['swallow', 0.7],
  ['wdrop', 0.7],
  ['wsteal', 0.8],
];
/** Every schedule injects each of these at least once (the reorg and the kill come from the payout model). */
const REQUIRED: FaultKind[] = ['lose', 'slow', 'wsteal'];

export function makeWalletSchedule(
  seed: number,
  opts: { bounties: number; devs: number; rounds: number },
): WalletSchedule {
  const base = makeSchedule(seed, opts);
  // Its own stream: the payout model's part of the schedule stays what that seed gives it.
  const rnd = seededRandom(seed ^ 0x3a11e7);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <K>(table: [K, number][]): K => {
    let x = rnd() * table.reduce((s, [, w]) => s + w, 0);
    for (const [k, w] of table) {
      x -= w;
      if (x < 0) return k;
    }
    return (table[0] as [K, number])[0];
  };
  const retry = (): Retry => ({ again: rnd() < 0.3, other: rnd() < 0.5 });
  const act = (kind: ActKind = pick(ACTS)): WalletAct => {
    switch (kind) {
      case 'wbuy':
        return { t: kind, agent: int(OWN), size: rnd(), retry: retry() };
      case 'wsell':
        return { t: kind, agent: int(WALLET_AGENTS), size: rnd(), retry: retry() };
      case 'wwithdraw': {
        const agent = int(WALLET_AGENTS);
        return { t: kind, agent, size: rnd(), eth: agent < OWN && rnd() < 0.35, retry: retry() };
      }
      case 'wallowance': {
        const x = rnd();
        return { t: kind, level: x < 0.2 ? 'none' : x < 0.6 ? 'one' : 'all', retry: retry() };
      }
    }
  };
  // Sales and withdraws, where a lost answer did the double-sale damage before.
  const cashOut = (agent?: number): WalletAct => {
    const a = act(rnd() < 0.6 ? 'wsell' : 'wwithdraw');
    if (agent === undefined) return a;
    if (a.t === 'wwithdraw') return { ...a, agent, eth: a.eth && agent < OWN };
    return a.t === 'wsell' ? { ...a, agent } : a;
  };
  const fault = (kind: FaultKind): WalletOp => {
    switch (kind) {
      case 'lose': {
        const x = rnd();
        return {
          t: kind,
          methods: x < 0.35 ? 'send' : x < 0.6 ? 'receipt' : 'both',
          ms: 1_500 + int(2_500),
          act: cashOut(),
        };
      }
      case 'slow':
        return { t: kind, ms: 1_500 + int(2_000), lateMs: 2_200 + int(1_300), act: cashOut() };
      case 'swallow':
        return { t: kind, ms: 1_000 + int(2_000), act: cashOut() };
      case 'wdrop':
        return { t: kind, pick: rnd(), act: cashOut() };
      case 'wsteal': {
        const x = rnd();
        const who = x < 0.55 ? 'sponsor' : x < 0.85 ? 'agent' : 'founder';
        const agent = who === 'agent' ? int(OWN) : OWN + int(WALLET_AGENTS - OWN);
        const a = who === 'founder' ? act('wallowance') : cashOut(agent);
        return { t: kind, who, agent, waitMs: 800 + int(1_700), act: a };
      }
    }
  };

  const rounds: AnyStep[][] = base.rounds.map((round, r) => {
    const steps: AnyStep[] = round.map(({ op, via }) => {
      if (op.t === 'reorg')
        return { via, op: { t: 'wreorg', holdMs: op.holdMs, provoke: op.provoke, act: cashOut() } };
      if (op.t === 'kill')
        return {
          via,
          op: {
            t: 'wkill',
            instance: op.instance,
            approveFirst: op.approveFirst,
            waitMs: op.waitMs,
            act: cashOut(),
          },
        };
      return { op, via };
    });
    const extra = 1 + int(3);
    for (let j = 0; j < extra; j++) {
      const op: WalletOp = rnd() < 0.3 ? fault(pick(FAULTS)) : act();
      steps.push({ op, via: (r + steps.length) % 2 });
    }
    return steps;
  });
  // The two bounties the world starts in review are approved at once: payouts are in flight
  // beside the first wallet actions.
  rounds[0]?.unshift({ op: { t: 'rush' }, via: 1 });
  for (const kind of REQUIRED) {
    if (rounds.some((round) => round.some((s) => s.op.t === kind))) continue;
    // Not in the first round: nothing of the wallets is in flight yet.
    const round = rounds[1 + int(Math.max(1, rounds.length - 1))] ?? (rounds[rounds.length - 1] as AnyStep[]);
    const j = round.findIndex((s) => ['wbuy', 'wsell', 'wwithdraw', 'wallowance'].includes(s.op.t));
    const step = { op: fault(kind), via: (round[j]?.via ?? 0) as number };
    if (j >= 0) round[j] = step;
    else round.push(step);
  }
  return { seed, rewards: base.rewards, rounds };
}

const retryText = (r: Retry) => `${r.again ? '+again' : ''}${r.other ? '+other' : ''}`;

export function describeAct(a: WalletAct): string {
  switch (a.t) {
    case 'wbuy':
    case 'wsell':
      return `${a.t}(agent=${a.agent} size=${a.size.toFixed(2)}${retryText(a.retry)})`;
    case 'wwithdraw':
      return `wwithdraw(agent=${a.agent} ${a.eth ? 'eth' : 'tokens'} size=${a.size.toFixed(2)}${retryText(a.retry)})`;
    case 'wallowance':
      return `wallowance(${a.level}${retryText(a.retry)})`;
  }
}

export function describeAny(op: AnyOp): string {
  if (!isWalletOp(op)) return describeOp(op);
  if (!('act' in op)) return describeAct(op);
  const { t, act, ...rest } = op;
  const args = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(2) : String(v)}`)
    .join(' ');
  return `${t}(${args}) with ${describeAct(act)}`;
}
