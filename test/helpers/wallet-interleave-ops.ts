import { randomBytes, randomUUID } from 'node:crypto';
import { getAddress } from 'viem';
import { type Answer, call } from './interleave-api.ts';
import { UNIT } from './interleave-world.ts';
import type { RequestKind, WalletAnswer, WalletRequest } from './wallet-interleave-checker.ts';
import { describeAct, type WalletAct } from './wallet-interleave-schedule.ts';
import type { WalletWorld } from './wallet-interleave-world.ts';

/**
 * The wallet model's actions as a client makes them (clients/typescript/retry.ts): every request
 * with an Idempotency-Key, retried with it after no answer, a 5xx, a 202 or a "still running" 409,
 * and sometimes once more after a final answer; each amount tagged so the checker finds it on chain.
 * The faults are in wallet-interleave-faults.ts.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ETH = 10n ** 18n;
/** Attempts of one request (the first included), besides the extra one of `again`. */
const ATTEMPTS = 4;
/** A client gives up waiting after this (PAYOUT_RECEIPT_TIMEOUT_SECONDS is 2). */
const CLIENT_TIMEOUT_MS = 6_000;
/** ... and retrying after this: what became of the request is read after quiescence. */
const GIVE_UP_MS = 10_000;
const MOMENTARY = new Set(['idempotency_in_progress', 'operation_in_progress', 'rate_limited']);

const fresh = () => getAddress(`0x${randomBytes(20).toString('hex')}`);
const share = (whole: bigint, frac: number) => (whole * BigInt(Math.round(frac * 10_000))) / 10_000n;

interface Prepared {
  request: WalletRequest;
  path: string;
  body: Record<string, unknown>;
  apiKey: string;
}

function prepare(x: WalletWorld, a: WalletAct): Prepared {
  const tag = x.nextTag();
  const key = randomUUID();
  const req = (
    kind: RequestKind,
    agentId: string,
    wallet: string,
    amount: bigint,
    to?: string,
  ): WalletRequest => ({
    key,
    agentId,
    wallet,
    kind,
    amount,
    ...(to ? { to } : {}),
    answers: [],
  });
  const project = `/api/projects/${x.w.project.id}`;
  if (a.t === 'wallowance') {
    const tokens = x.allowanceTokens[a.level].shift() ?? (x.allowanceTokens.all.shift() as number);
    const f = x.w.founder;
    return {
      request: req('allowance', f.id, f.wallet, BigInt(tokens) * UNIT),
      path: `${project}/allowance`,
      body: { amount: tokens },
      apiKey: f.key,
    };
  }
  const agent = x.agents[a.agent % x.agents.length] as WalletWorld['agents'][number];
  const mine = (kind: RequestKind, amount: bigint, to?: string) =>
    req(kind, agent.id, agent.wallet, amount, to);
  switch (a.t) {
    case 'wbuy': {
      const eth = share(ETH, 0.0005 + 0.0025 * a.size) + tag;
      return {
        request: mine('buy', eth),
        path: `${project}/buy`,
        body: { eth_units: eth.toString() },
        apiKey: agent.key,
      };
    }
    case 'wsell': {
      const tokens = share(x.holding, 0.03 + 0.09 * a.size) + tag;
      return {
        request: mine('sell', tokens),
        path: `${project}/sell`,
        body: { tokens_units: tokens.toString() },
        apiKey: agent.key,
      };
    }
    case 'wwithdraw': {
      const to = fresh();
      if (a.eth) {
        const eth = share(ETH, 0.0002 + 0.001 * a.size) + tag;
        return {
          request: mine('withdraw_eth', eth, to),
          path: '/api/agents/me/wallet/withdraw',
          body: { to, amount_units: eth.toString() },
          apiKey: agent.key,
        };
      }
      const tokens = share(x.holding, 0.005 + 0.02 * a.size) + tag;
      return {
        request: mine('withdraw_token', tokens, to),
        path: '/api/agents/me/wallet/withdraw',
        body: { to, amount_units: tokens.toString(), project_id: x.w.project.id },
        apiKey: agent.key,
      };
    }
  }
}

function answerOf(res: Answer): WalletAnswer {
  const b = res.body ?? {};
  const code = b.error?.code as string | undefined;
  return {
    status: res.status,
    ...(code ? { code } : {}),
    ...(typeof b.tx_hash === 'string' && b.tx_hash ? { txHash: b.tx_hash } : {}),
    ...(b.transaction?.id ? { txId: b.transaction.id as string } : {}),
    ...(code === 'insufficient_eth' && /withdraws per agent/.test(String(b.error?.message))
      ? { quota: true }
      : {}),
    ...(res.status === 0 && !/Timeout/.test(res.text) ? { cut: true } : {}),
  };
}

/** One wallet request, retried with its Idempotency-Key as a client does; a line for the trace. */
export async function runAct(
  x: WalletWorld,
  a: WalletAct,
  via: number,
  otherOnRetry = false,
): Promise<string> {
  const p = prepare(x, a);
  x.requests.push(p.request);
  let again = a.retry.again;
  const seen: string[] = [];
  const giveUpAt = Date.now() + GIVE_UP_MS;
  for (let attempt = 0; attempt < ATTEMPTS + 1; attempt++) {
    const target = attempt > 0 && (a.retry.other || otherOnRetry) ? via + attempt : via;
    const res = await call(x.h.cluster.url(target), 'POST', p.path, {
      key: p.apiKey,
      body: p.body,
      idempotencyKey: p.request.key,
      timeoutMs: CLIENT_TIMEOUT_MS,
    });
    const ans = answerOf(res);
    p.request.answers.push(ans);
    seen.push(`${res.text}${ans.txHash ? ` ${ans.txHash.slice(0, 10)}` : ''}`);
    const retry =
      res.status === 0 || res.status >= 500 || res.status === 202 || MOMENTARY.has(ans.code ?? '');
    if (!retry) {
      if (!again) break;
      again = false;
      await sleep(150 + Math.random() * 500);
      continue;
    }
    if ((attempt >= ATTEMPTS - 1 && !again) || Date.now() > giveUpAt) {
      seen.push('gave up');
      break;
    }
    await sleep(res.status === 202 ? 900 + Math.random() * 900 : 250 * 2 ** attempt + Math.random() * 250);
  }
  return `${describeAct(a)} key ${p.request.key.slice(0, 8)}: ${seen.join(' / ')}`;
}
