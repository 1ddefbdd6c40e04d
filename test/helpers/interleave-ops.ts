import { type Answer, call, listBounties, readBounty } from './interleave-api.ts';
import { deliverMergeWebhook } from './interleave-github.ts';
import { type Op, rewardBounds } from './interleave-schedule.ts';
import { type Agent, type Env, setFunds, UNIT, type World } from './interleave-world.ts';

/** The operations of an interleaving schedule, each run through one instance against one world. */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Agents holding a claim or a submission in review on this project (one each per project). */
async function busyDevs(env: Env, w: World, via: number): Promise<Set<string>> {
  const list = await listBounties(env, w, via);
  return new Set(
    list.filter((b) => ['claimed', 'in_review'].includes(b.status)).map((b) => b.claimed_by as string),
  );
}

/** Runs one operation; the answer is a line of the schedule's trace. */
export async function runOp(env: Env, w: World, op: Op, via: number): Promise<string> {
  const base = () => env.cluster.url(via);
  const founder = w.founder.key;
  let bounty = 'bounty' in op ? w.bounties[op.bounty % w.bounties.length] : undefined;
  // An operation for a bounty in a given state goes to one in that state when there is one (the
  // schedule's index picks which), so runs reach the money path; otherwise to its own bounty.
  const wants: Partial<Record<Op['t'], string>> = {
    claim: 'open',
    submit: 'claimed',
    expire: 'claimed',
    approve: 'in_review',
    reject: 'in_review',
    merge: 'in_review',
  };
  const wanted = wants[op.t];
  if (wanted && 'bounty' in op) {
    const inState = (await listBounties(env, w, via)).filter((b) => b.status === wanted);
    const chosen = inState[op.bounty % Math.max(1, inState.length)];
    if (chosen) bounty = w.bounties.find((b) => b.id === chosen.id) ?? bounty;
  }
  const path = (what: string) => `/api/bounties/${bounty?.id}/${what}`;

  const claim = async (dev: number) => {
    const busy = await busyDevs(env, w, via);
    const free = w.devs.filter((d) => !busy.has(d.id));
    const agent = free[dev % Math.max(1, free.length)] ?? (w.devs[dev % w.devs.length] as Agent);
    return `claim by ${agent.login}: ${(await call(base(), 'POST', path('claim'), { key: agent.key })).text}`;
  };
  const submit = async () => {
    const view = await readBounty(env, via, bounty?.id as string);
    const claimant = w.devs.find((d) => d.id === view?.claimed_by) ?? w.devs[0];
    if (!claimant) return 'no contributor';
    const pr = env.gh.openPullRequest(w.project.repoUrl, claimant.login);
    const res = await call(base(), 'POST', path('submit'), { key: claimant.key, body: { pr_url: pr } });
    return `submit ${pr.split('/').slice(-1)[0]} by ${claimant.login}: ${res.text}`;
  };
  const approve = async () =>
    `approve: ${(await call(base(), 'POST', path('approve'), { key: founder, body: {} })).text}`;
  const reject = async () =>
    `reject: ${(await call(base(), 'POST', path('reject'), { key: founder, body: { review_notes: 'Not this.' } })).text}`;
  const merge = async (byFounder: boolean) => {
    const view = await readBounty(env, via, bounty?.id as string);
    const pending = view?.submissions.find((s) => s.status === 'pending');
    const pr = pending?.pr_url ?? view?.submissions[view.submissions.length - 1]?.pr_url;
    if (!pr) return 'merge: no pull request';
    const merger = env.gh.merge(pr, byFounder ? w.founder.login : 'outside-maintainer');
    const d = await deliverMergeWebhook(env.gh, pr, (i) => env.cluster.url(via + i));
    const answers = d.attempts.map((a) => {
      const status = /"status":"([a-z_]+)"/.exec(a.body)?.[1];
      return `${a.status}${status ? ` ${status}` : ''}`;
    });
    return `merge #${pr.split('/').pop()} by ${merger}${pending ? '' : ' (no pending submission)'}: ${answers.join(' / ')}`;
  };

  /** Starts an approval of a bounty in review (if any) so that a fault meets a payout in flight. */
  const provoke = async (yes: boolean): Promise<() => Promise<string>> => {
    if (!yes) return async () => '';
    const inReview = (await listBounties(env, w, via)).filter((b) => b.status === 'in_review');
    const target = inReview[Math.floor(w.rnd() * inReview.length)];
    if (!target) return async () => ' (nothing in review to provoke)';
    const answer = call(env.cluster.url(via + 1), 'POST', `/api/bounties/${target.id}/approve`, {
      key: founder,
      body: {},
    });
    return async () => ` (provoked approve of ${target.id}: ${(await answer).text})`;
  };

  switch (op.t) {
    case 'advance': {
      const view = await readBounty(env, via, bounty?.id as string);
      if (!view) return 'advance: bounty unreadable';
      if (view.status === 'open') return claim(op.dev);
      if (view.status === 'claimed') return submit();
      if (view.status === 'in_review') {
        if (op.pick < 0.3) return approve();
        if (op.pick < 0.65) return merge(true);
        if (op.pick < 0.8) return merge(false);
        if (op.pick < 0.92) return reject();
        return approve();
      }
      return `advance: ${view.status}`;
    }
    case 'claim':
      return claim(op.dev);
    case 'submit':
      return submit();
    case 'approve':
      return approve();
    case 'reject':
      return reject();
    case 'merge':
      return merge(op.byFounder);
    case 'expire': {
      const moved = await env.sql`
        update bounties set claimed_at = now() - interval '3 hours'
        where id = ${bounty?.id as string} and status = 'claimed'`;
      return moved.count > 0 ? 'claim backdated past its TTL' : 'expire: not claimed';
    }
    case 'allowance':
      return setFunds(env, w, op.level);
    case 'stash': {
      const keep = op.level === 'one' ? BigInt(rewardBounds.max + 1) * UNIT : 5n * UNIT;
      const balance = await env.chain.balanceOf(w.project.token, w.founder.wallet);
      if (balance <= keep) return `stash: balance ${balance / UNIT} already low`;
      const r = await env.chain.transferAs(w.founder.wallet, w.project.token, w.stash, balance - keep);
      return `stash keeping ${keep / UNIT} tokens -> ${r.outcome} ${r.hash}`;
    }
    case 'unstash': {
      const held = await env.chain.balanceOf(w.project.token, w.stash);
      if (held === 0n) return 'unstash: nothing stashed';
      const r = await env.chain.transferAs(w.stash, w.project.token, w.founder.wallet, held);
      return `unstash ${held / UNIT} tokens -> ${r.outcome} ${r.hash}`;
    }
    case 'reorg': {
      const id = await env.chain.snapshot();
      const from = await env.chain.pub.getBlockNumber();
      const provoked = await provoke(op.provoke);
      await sleep(op.holdMs);
      const to = await env.chain.pub.getBlockNumber();
      const undone = await env.chain.sentBetween(env.chain.payoutAddress, from, to);
      const ok = await env.chain.revert(id);
      const undoneText = undone
        .map((u) => `${u.hash} (block ${u.block}, ${to - u.block + 1n} deep)`)
        .join(', ');
      return `reorg: blocks ${from + 1n}..${to} reverted (${ok}); payout-key txs undone: ${undone.length ? undoneText : 'none'}${await provoked()}`;
    }
    case 'drop': {
      const provoked = await provoke(op.provoke);
      const dropped = await env.chain.dropPendingPayout(op.withinMs, op.pick);
      return `${dropped ? `dropped pending payout tx ${dropped.hash} (nonce ${dropped.nonce})` : 'drop: nothing pending'}${await provoked()}`;
    }
    case 'steal': {
      const provoked = await provoke(op.provoke);
      const s = await env.chain.stealPayoutNonce(op.waitMs);
      return `payout key used outside at nonce ${s.nonce}: ${s.hash}${s.displaced ? ` (displaced ${s.displaced})` : ''}${await provoked()}`;
    }
    case 'spike':
      await env.chain.spikeBaseFee(op.gwei);
      return `next base fee ${op.gwei} gwei`;
    case 'kill': {
      const i = op.instance;
      let approving: Promise<Answer> | null = null;
      let target = '';
      if (op.approveFirst && env.cluster.instances[i]?.alive) {
        const res = await call(
          base(),
          'GET',
          `/api/bounties?project_id=${w.project.id}&status=in_review&limit=10`,
        );
        const list = (res.body?.bounties ?? []) as { id: string }[];
        const pickOne = list[Math.floor(w.rnd() * list.length)];
        if (pickOne) {
          target = pickOne.id;
          approving = call(env.cluster.url(i), 'POST', `/api/bounties/${pickOne.id}/approve`, {
            key: founder,
            body: {},
          });
        }
      }
      const deadline = Date.now() + op.waitMs;
      let inFlight = 0;
      while (Date.now() < deadline) {
        const [row] = await env.sql<{ n: number }[]>`
          select count(*)::int as n from wallet_intents where payout_id is not null and status = 'pending'`;
        inFlight = row?.n ?? 0;
        if (inFlight > 0) break;
        await sleep(50);
      }
      const gen = env.cluster.instances[i]?.generation;
      await env.cluster.kill(i);
      const cut = approving ? (await approving).text : 'no approve';
      const started = Date.now();
      await env.cluster.start(i);
      return (
        `SIGKILL instance ${i} (start #${gen}) with ${inFlight} leg(s) in flight` +
        `${target ? `, approving ${target}: ${cut}` : ''}; restarted in ${Date.now() - started} ms`
      );
    }
    case 'rush': {
      // Every submission in review approved at once, through both instances.
      const inReview = (await listBounties(env, w, via)).filter((b) => b.status === 'in_review');
      if (inReview.length === 0) return 'rush: nothing in review';
      const answers = await Promise.all(
        inReview.map((b, k) =>
          call(env.cluster.url(via + k), 'POST', `/api/bounties/${b.id}/approve`, {
            key: founder,
            body: {},
          }).then((a) => `${b.id.slice(-6)}: ${a.text}`),
        ),
      );
      return `rush approve ${answers.join(', ')}`;
    }
    case 'pause':
      await sleep(op.ms);
      return `pause ${op.ms} ms`;
  }
}
