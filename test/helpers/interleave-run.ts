import { call, readBounties, readPayouts } from './interleave-api.ts';
import {
  type CheckInput,
  checkInterleave,
  formatViolations,
  payoutInFlight,
  RULES,
  type Violation,
} from './interleave-checker.ts';
import { type Harness, quiesce } from './interleave-harness.ts';
import { runOp } from './interleave-ops.ts';
import { describeOp, type Op } from './interleave-schedule.ts';
import { makeWorld, setFunds, UNIT, type World } from './interleave-world.ts';

/**
 * One schedule of an interleaving model test, start to end: its world, its rounds (each round's
 * steps concurrently), a bounded wait for quiescence and the payout checker (settled), then the
 * founder's funds restored, owed payouts and the remaining reviews given their chance, a second
 * wait and the checkers again (final), and an audit. A model that adds operations (the wallet
 * model) runs its own steps, adds what it waits for and what it judges through `RunHooks`.
 */

/** A checker's finding; the payout checker's rules are a-e, others name their own. */
export type Finding = Omit<Violation, 'rule'> & { rule: string };

export interface RunHooks<W> {
  /** After the payout world is made: the model's own world (agents, funds). */
  prepare(w: World): Promise<W>;
  /** A step the payout model does not know; undefined: the payout model runs it. */
  runStep?(x: W, op: { t: string }, via: number): Promise<string> | undefined;
  /** What else is still moving (for the quiescence waits). */
  inFlight?(x: W): Promise<string[]>;
  /** After the final quiescence: the model's own findings, and lines for the trace. */
  judge?(x: W, trace: string[]): Promise<Finding[]>;
  /** Between rounds (nothing of the schedule runs). */
  betweenRounds?(x: W, trace: string[]): Promise<void>;
  /** The audit: 'no difference' (perhaps with a remark), or the report. */
  audit(x: W, w: World): Promise<string>;
  /** A line saying what the schedule reached. */
  reach?(x: W, w: World, trace: string[]): Promise<string>;
  /** How a step reads in the trace (the payout model's describeOp otherwise). */
  describe?(op: { t: string }): string;
  /** Rule letters to their statements, beyond the payout checker's. */
  rules?: Record<string, string>;
}

export interface RunnableSchedule {
  seed: number;
  rewards: number[];
  rounds: { op: { t: string }; via: number }[][];
}

export interface RunSettings {
  feeBps: bigint;
  devs: number;
  quietWithinMs: number;
  quietForMs: number;
  owedWithinMs: number;
  /** The replay line of the failure account. */
  replay: (seed: number) => string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Payouts in flight anywhere (the payout key's nonces are shared) and its transactions pending. */
async function payoutsMoving(h: Harness): Promise<string[]> {
  const ids = (await h.sql<{ bounty_id: string }[]>`select distinct bounty_id from payouts`).map(
    (r) => r.bounty_id,
  );
  const moving = ids.length ? (await readPayouts(h.sql, ids)).filter(payoutInFlight) : [];
  const pool = await h.chain.pendingOf(h.chain.payoutAddress);
  return [
    ...moving.map((p) => `payout ${p.id} [${p.legs.map((l) => `${l.kind}:${l.status}`).join(' ')}]`),
    ...pool.map((t) => `pool nonce ${t.nonce} ${t.hash}`),
  ];
}

/**
 * What the checker needs, read so that nothing moved while it was read: the API and the payout
 * tables before and after the Transfer logs must agree, else it is read again.
 */
async function observe(
  h: Harness,
  w: World,
  phase: CheckInput['phase'],
  feeBps: bigint,
): Promise<CheckInput> {
  const ids = w.bounties.map((b) => b.id);
  let input: CheckInput | null = null;
  for (let attempt = 0; attempt < 6; attempt++) {
    const bounties = await readBounties(h.env(), w);
    const payouts = await readPayouts(h.sql, ids);
    const transfers = await h.chain.transfers(w.project.token);
    const again = JSON.stringify([await readBounties(h.env(), w), await readPayouts(h.sql, ids)]);
    input = {
      phase,
      founder: w.founder.wallet,
      treasury: w.treasury,
      feeBps,
      unit: UNIT,
      transfers,
      ignoredCounterparties: [w.stash],
      bounties,
      payouts,
    };
    if (again === JSON.stringify([bounties, payouts])) break;
    await sleep(700);
  }
  return input as CheckInput;
}

/** The founder approves whatever is still in review, as often as a busy or cut approval needs. */
async function approveTheRest(h: Harness, w: World, trace: string[]): Promise<Finding[]> {
  const stuck: Finding[] = [];
  for (const [i, b] of w.bounties.entries()) {
    const answers: string[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      const view = await call(h.cluster.url(i + attempt), 'GET', `/api/bounties/${b.id}`);
      if (view.body?.bounty?.status !== 'in_review') break;
      const res = await call(h.cluster.url(i + attempt), 'POST', `/api/bounties/${b.id}/approve`, {
        key: w.founder.key,
        body: {},
      });
      answers.push(res.text);
      if (res.status === 200) break;
      await sleep(1_500);
    }
    if (answers.length) trace.push(`final approve of ${b.id}: ${answers.join(' / ')}`);
    const after = await call(h.cluster.url(i), 'GET', `/api/bounties/${b.id}`);
    if (after.body?.bounty?.status === 'in_review')
      stuck.push({
        rule: 'e',
        bountyId: b.id,
        message: `still in review after the founder's funds were restored and approve answered ${answers.join(' / ') || 'nothing'}`,
        txHashes: [],
      });
  }
  return stuck;
}

const dedupe = (vs: Finding[]) => {
  const seen = new Set<string>();
  return vs.filter((v) => {
    const k = `${v.rule}|${v.bountyId}|${v.submissionId}|${v.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
};

/** The payout key's faults that met a payout, and what the payouts reached. */
export async function payoutReach(h: Harness, w: World, trace: string[]): Promise<string> {
  const ids = w.bounties.map((b) => b.id);
  const pays = await readPayouts(h.sql, ids);
  const [attempts] = await h.sql<{ n: number }[]>`
    select count(*)::int as n from wallet_txs a join wallet_intents i on i.id = a.intent_id
    join payouts p on p.id = i.payout_id where p.bounty_id in ${h.sql(ids)}`;
  const legs = pays.flatMap((p) => p.legs);
  const by = (xs: string[]) => {
    const counts = new Map<string, number>();
    for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
    return [...counts].map(([k, v]) => `${v} ${k}`).join(', ') || 'none';
  };
  const hits = {
    reorgs: trace.filter((t) => /payout-key txs undone: 0x/.test(t)).length,
    drops: trace.filter((t) => /dropped pending payout tx/.test(t)).length,
    steals: trace.filter((t) => /\(displaced 0x/.test(t)).length,
    kills: trace.filter((t) => /SIGKILL instance \d .* with [1-9]\d* leg/.test(t)).length,
    owed: trace.filter((t) => /merge #\d+ by ilv-founder.*owed/.test(t)).length,
  };
  return (
    `payouts ${by(pays.map((p) => p.status))}; legs ${by(legs.map((l) => `${l.kind}:${l.status}`))}; ` +
    `${attempts?.n ?? 0} signed attempts; faults that met a payout: ${Object.entries(hits)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`
  );
}

export async function runSchedule<W>(
  h: Harness,
  s: RunnableSchedule,
  n: number,
  cfg: RunSettings,
  hooks: RunHooks<W>,
): Promise<{ ok: boolean; text: string; ms: number }> {
  const started = Date.now();
  const trace: string[] = [];
  const env = () => h.env();
  const w = await makeWorld(env(), n, s.rewards, cfg.devs, s.seed);
  const x = await hooks.prepare(w);
  trace.push(`world ready in ${Date.now() - started} ms`);
  const fiveHundreds: string[] = [];
  const describe = (op: { t: string }) => hooks.describe?.(op) ?? describeOp(op as Op);
  for (const [r, round] of s.rounds.entries()) {
    const t0 = Date.now();
    const lines = await Promise.all(
      round.map(async ({ op, via }, j) => {
        const from = ((Date.now() - started) / 1000).toFixed(1);
        const run = hooks.runStep?.(x, op, via) ?? runOp(env(), w, op as Op, via);
        const line = await run.catch(
          (err: unknown) =>
            `threw ${(err as { shortMessage?: string }).shortMessage ?? (err as Error).message.split('\n')[0]}` +
            `${(err as { details?: string }).details ? ` (${(err as { details?: string }).details})` : ''}`,
        );
        const to = ((Date.now() - started) / 1000).toFixed(1);
        const text = `r${r + 1}.${j + 1} [via ${via}, ${from}-${to} s] ${describe(op)} -> ${line}`;
        if (/\b500\b/.test(line)) fiveHundreds.push(text);
        return text;
      }),
    );
    trace.push(...lines, `  (round ${r + 1} took ${Date.now() - t0} ms)`);
    await hooks.betweenRounds?.(x, trace);
  }
  const moving = async () => [...(await payoutsMoving(h)), ...((await hooks.inFlight?.(x)) ?? [])];
  const q1 = await quiesce(moving, cfg.quietWithinMs, cfg.quietForMs);
  trace.push(`quiescence: ${q1.quiet ? 'quiet' : `NOT quiet: ${q1.last.join('; ')}`} after ${q1.ms} ms`);
  const settled = checkInterleave(await observe(h, w, 'settled', cfg.feeBps));
  trace.push(`settled check: ${settled.length} violation(s)`);

  // The founder's funds come back; owed payouts go out on their own, the rest by approve.
  trace.push(`restore: ${await setFunds(env(), w, 'all')}`);
  trace.push(`restore: ${await runOp(env(), w, { t: 'unstash' }, 0)}`);
  const owedStart = Date.now();
  for (;;) {
    const bs = await readBounties(env(), w);
    const owed = bs.filter((b) => b.submissions.some((y) => y.status === 'pending' && y.founderMerged));
    if (owed.length === 0 || Date.now() - owedStart > cfg.owedWithinMs) {
      trace.push(
        `owed payouts: ${owed.length ? `${owed.map((b) => b.id).join(', ')} still owed` : 'none left'} after ${Date.now() - owedStart} ms`,
      );
      break;
    }
    await sleep(1_000);
  }
  const stuck = await approveTheRest(h, w, trace);
  // A payout stuck at the first wait is reported already; waiting as long again shows nothing new.
  const q2 = await quiesce(moving, q1.quiet ? cfg.quietWithinMs : cfg.quietWithinMs / 2, cfg.quietForMs);
  trace.push(
    `final quiescence: ${q2.quiet ? 'quiet' : `NOT quiet: ${q2.last.join('; ')}`} after ${q2.ms} ms`,
  );
  const final = checkInterleave(await observe(h, w, 'final', cfg.feeBps));
  const own = (await hooks.judge?.(x, trace)) ?? [];
  const audit = await hooks.audit(x, w);
  if (fiveHundreds.length) trace.push(`500 answers (not a rule, worth a look):`, ...fiveHundreds);
  const reached = `${await payoutReach(h, w, trace)}${hooks.reach ? `; ${await hooks.reach(x, w, trace)}` : ''}`;
  trace.push(`reached: ${reached}`);
  const violations = dedupe([...settled, ...stuck, ...final, ...own]);
  const ok = violations.length === 0 && audit.startsWith('no difference');
  const ms = Date.now() - started;
  if (process.env.MODEL_TRACE || !ok) {
    const rules: Record<string, string> = { ...RULES, ...hooks.rules };
    const broken = [...new Set(violations.map((v) => v.rule))].sort();
    const text = [
      violations.length || !ok
        ? `schedule seed ${s.seed} FAILED: ${broken.map((r) => `(${r}) ${rules[r]}`).join('; ') || 'the audit'}`
        : `schedule seed ${s.seed}: all rules hold, ${ms} ms`,
      `replay: ${cfg.replay(s.seed)}`,
      `project ${w.project.id} token ${w.project.token} curve ${w.project.curve}; founder ${w.founder.login} wallet ${w.founder.wallet}; ` +
        `treasury ${w.treasury}; spender ${w.spender}; stash ${w.stash}`,
      `contributors: ${w.devs.map((d) => `${d.login}=${d.id}@${d.wallet}`).join(', ')}`,
      `bounties: ${w.bounties.map((b, i) => `b${i}=${b.id} (${b.reward} tokens)`).join(', ')}`,
      ...w.notes,
      'trace:',
      ...trace.map((t) => `  ${t}`),
      'violations:',
      formatViolations(violations),
      `audit: ${audit}`,
      'instance warnings and errors (whole run, all instances):',
      h.problems(),
    ].join('\n');
    return { ok, ms, text };
  }
  return {
    ok,
    ms,
    text: `schedule seed ${s.seed}: ${s.rounds.flat().length} operations, all rules hold, ${ms} ms; ${trace[trace.length - 1]}`,
  };
}
