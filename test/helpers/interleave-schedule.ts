import { seededRandom } from './crash.ts';

/**
 * Seeded schedules of the interleaving model test: rounds of operations that run concurrently
 * (Promise.all), each through one of the two instances. A seed fixes the operations, their
 * targets and parameters; what they meet when they run depends on timing, which is the point.
 */

export type FundsLevel = 'none' | 'one' | 'all';

export type Op =
  /** The bounty's next natural move (claim, submit, then a review or a merge), chosen by `pick`. */
  | { t: 'advance'; bounty: number; dev: number; pick: number }
  | { t: 'claim'; bounty: number; dev: number }
  | { t: 'submit'; bounty: number }
  | { t: 'approve'; bounty: number }
  | { t: 'reject'; bounty: number }
  | { t: 'merge'; bounty: number; byFounder: boolean }
  /** The claim lapses (claimed_at moved back past the TTL); the instances' sweeps reopen it. */
  | { t: 'expire'; bounty: number }
  /** The founder's allowance to the payout spender, set on chain: covers no reward, one, or all. */
  | { t: 'allowance'; level: FundsLevel }
  /** The founder moves tokens away, keeping enough for one reward or none. */
  | { t: 'stash'; level: 'one' | 'none' }
  | { t: 'unstash' }
  /**
   * Faults on payout transactions; with `provoke`, an approval of a bounty in review is started
   * first so that one is in flight when the fault lands.
   * reorg: evm_snapshot, blocks mine for `holdMs`, evm_revert.
   */
  | { t: 'reorg'; holdMs: number; provoke: boolean }
  | { t: 'drop'; withinMs: number; pick: number; provoke: boolean }
  | { t: 'steal'; waitMs: number; provoke: boolean }
  | { t: 'spike'; gwei: number }
  /** SIGKILL an instance once a payout is in flight (after starting one there), then start it again. */
  | { t: 'kill'; instance: number; approveFirst: boolean; waitMs: number }
  /** Every bounty in review approved at once, through both instances. */
  | { t: 'rush' }
  | { t: 'pause'; ms: number };

export interface Step {
  op: Op;
  /** The instance the operation goes through (the other one when it is down). */
  via: number;
}

export interface Schedule {
  seed: number;
  /** Whole tokens, distinct, each under the sum of any two (so "one" funds never cover two). */
  rewards: number[];
  rounds: Step[][];
}

const MIN_REWARD = 20;
const MAX_REWARD = 35;
export const rewardBounds = { min: MIN_REWARD, max: MAX_REWARD };

type Kind = Op['t'];
const WEIGHTS: [Kind, number][] = [
  ['advance', 12],
  ['claim', 2],
  ['submit', 2],
  ['approve', 4],
  ['reject', 2],
  ['merge', 6],
  ['expire', 1],
  ['allowance', 2],
  ['stash', 1],
  ['unstash', 1],
  ['reorg', 1.5],
  ['drop', 1.5],
  ['steal', 1.5],
  ['spike', 1],
  ['kill', 1.2],
  ['rush', 2],
  ['pause', 1],
];
/** At most one of these per round: each holds the round for seconds and touches everything. */
const GLOBAL = new Set<Kind>(['reorg', 'kill']);
/** Every schedule injects each of these at least once. */
const REQUIRED: Kind[] = ['reorg', 'drop', 'steal', 'spike', 'kill', 'allowance', 'stash', 'merge', 'rush'];

export function makeSchedule(
  seed: number,
  opts: { bounties: number; devs: number; rounds: number },
): Schedule {
  const rnd = seededRandom(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const rewards: number[] = [];
  while (rewards.length < opts.bounties) {
    const r = MIN_REWARD + int(MAX_REWARD - MIN_REWARD + 1);
    if (!rewards.includes(r)) rewards.push(r);
  }
  const total = WEIGHTS.reduce((s, [, w]) => s + w, 0);
  const opOf = (kind: Kind): Op => {
    const bounty = int(opts.bounties);
    switch (kind) {
      case 'advance':
        return { t: kind, bounty, dev: int(opts.devs), pick: rnd() };
      case 'claim':
        return { t: kind, bounty, dev: int(opts.devs) };
      case 'submit':
      case 'approve':
      case 'reject':
      case 'expire':
        return { t: kind, bounty };
      case 'merge':
        return { t: kind, bounty, byFounder: rnd() < 0.7 };
      case 'allowance': {
        const x = rnd();
        return { t: kind, level: x < 0.3 ? 'none' : x < 0.75 ? 'one' : 'all' };
      }
      case 'stash':
        return { t: kind, level: rnd() < 0.6 ? 'one' : 'none' };
      case 'unstash':
      case 'rush':
        return { t: kind };
      case 'steal':
        return { t: kind, waitMs: int(2_500), provoke: rnd() < 0.7 };
      case 'reorg':
        return { t: kind, holdMs: 1_200 + int(3_300), provoke: rnd() < 0.7 };
      case 'drop':
        return { t: kind, withinMs: 2_500, pick: rnd(), provoke: rnd() < 0.7 };
      case 'spike':
        return { t: kind, gwei: 3 + int(25) };
      case 'kill':
        return { t: kind, instance: int(2), approveFirst: rnd() < 0.8, waitMs: 300 + int(2_500) };
      case 'pause':
        return { t: kind, ms: 300 + int(1_500) };
    }
  };
  const draw = (): Kind => {
    let x = rnd() * total;
    for (const [kind, w] of WEIGHTS) {
      x -= w;
      if (x < 0) return kind;
    }
    return 'advance';
  };

  const rounds: Step[][] = [];
  for (let r = 0; r < opts.rounds; r++) {
    const size = 2 + int(4);
    const kinds: Kind[] = [];
    while (kinds.length < size) {
      const k = draw();
      if (GLOBAL.has(k) && kinds.some((x) => GLOBAL.has(x))) continue;
      kinds.push(k);
    }
    rounds.push(kinds.map((k, j) => ({ op: opOf(k), via: (r + j) % 2 })));
  }
  // Each fault at least once: it takes the place of an ordinary step in a round that has room.
  for (const kind of REQUIRED) {
    if (rounds.some((round) => round.some((s) => s.op.t === kind))) continue;
    for (let tries = 0; tries < 100; tries++) {
      // Not in the first two rounds: there is nothing in flight yet to hurt.
      const round = rounds[2 + int(Math.max(1, rounds.length - 2))] ?? (rounds[rounds.length - 1] as Step[]);
      if (GLOBAL.has(kind) && round.some((s) => GLOBAL.has(s.op.t))) continue;
      const j = round.findIndex((s) => ['advance', 'pause', 'claim', 'submit'].includes(s.op.t));
      if (j < 0) continue;
      round[j] = { op: opOf(kind), via: (round[j] as Step).via };
      break;
    }
  }
  return { seed, rewards, rounds };
}

export function describeOp(op: Op): string {
  const { t, ...rest } = op;
  const args = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(2) : String(v)}`)
    .join(' ');
  return args ? `${t}(${args})` : t;
}
