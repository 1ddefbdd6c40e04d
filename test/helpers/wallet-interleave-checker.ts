/**
 * The judge of the wallet interleaving model (test/wallets-interleave.chain.int.test.ts): what
 * each wallet request (one Idempotency-Key, however often retried) did on the canonical chain,
 * against what the API answered and what GET /api/agents/me/wallet/transactions/{id} says after
 * quiescence. Pure: test/interleave-wallet-checker.test.ts feeds it scenes that break each rule.
 *
 * A request's execution is found by what it moved, never by the hashes the service recorded: every
 * request's amount carries a tag of its own (a few wei), so a Sold event of its seller with its
 * tokensIn, a Bought event of its buyer with its ethIn, a Transfer of its tokens to its recipient
 * (a fresh address per request), a successful ETH transfer to its recipient, or an Approval by the
 * founder's own transaction of its amount, is that request executed once.
 */

export type WalletRule = 'f' | 'g' | 'h' | 'i' | 'j';

export const WALLET_RULES: Record<WalletRule, string> = {
  f: 'every wallet request (one Idempotency-Key) executed at most once on chain',
  g: 'every request answered 200, or whose transaction ended confirmed, executed exactly once (in the transaction GET names); one that failed, was refused or has no transaction never executed',
  h: 'no signer wedged: after quiescence no request pending and no attempt open, and each signer’s nonce counter at the chain’s count (never ahead of it; equal unless the test used the key outside)',
  i: 'the sponsored-withdraw quota exact: no agent gets more than SPONSORED_WITHDRAWALS_PER_DAY sponsored withdraws on chain, and none is refused for the quota before that many were made',
  j: 'no sponsor transaction reverted',
};

export type RequestKind = 'buy' | 'sell' | 'withdraw_token' | 'withdraw_eth' | 'allowance';

export interface WalletAnswer {
  /** HTTP status; 0 for no answer (a timeout, a killed instance). */
  status: number;
  code?: string;
  txHash?: string;
  /** The transaction id of a 202. */
  txId?: string;
  /** A refusal because the day's sponsored withdraws are used. */
  quota?: boolean;
  /** No answer because the connection was cut (the instance died), not a client timeout. */
  cut?: boolean;
}

export interface WalletRequest {
  key: string;
  agentId: string;
  /** The wallet whose action it is. */
  wallet: string;
  kind: RequestKind;
  /** Wei (buy, withdraw_eth) or token units (sell, withdraw_token, allowance), tag included. */
  amount: bigint;
  /** The recipient of a withdraw. */
  to?: string;
  answers: WalletAnswer[];
  /** The request's transaction as GET shows it after quiescence; undefined: the service has none. */
  transaction?: { id: string; status: string; txHash: string | null; kind: string };
}

export interface ChainTx {
  hash: string;
  from: string;
  to: string | null;
  nonce: number;
  value: bigint;
  status: 'success' | 'reverted';
}

export interface WalletFacts {
  sold: { seller: string; tokensIn: bigint; txHash: string }[];
  bought: { buyer: string; ethIn: bigint; txHash: string }[];
  /** The token's Transfer logs. */
  transfers: { from: string; to: string; value: bigint; txHash: string }[];
  approvals: { owner: string; spender: string; value: bigint; txHash: string }[];
  /** Transactions of the signers the model follows (sponsor, agents, founder) since the world began. */
  txs: ChainTx[];
  signers: {
    address: string;
    /** account_nonces.next_nonce; null when the service never counted for it. */
    dbNext: number | null;
    chainLatest: number;
    chainPending: number;
    /** The test used this key outside the service. */
    outside: boolean;
  }[];
  pendingIntents: { id: string; kind: string; signer: string; nonce: number }[];
  openAttempts: { hash: string; signer: string; nonce: number; status: string }[];
  /** Sponsored withdraws the service recorded per agent (any status). */
  sponsoredWithdrawIntents: Record<string, number>;
}

export interface WalletCheckInput {
  sponsor: string;
  founder: string;
  spender: string;
  quota: number;
  requests: WalletRequest[];
  facts: WalletFacts;
}

export interface WalletViolation {
  rule: WalletRule;
  message: string;
  txHashes: string[];
}

const low = (a: string | null | undefined) => (a ?? '').toLowerCase();
const MOMENTARY = new Set(['idempotency_in_progress', 'operation_in_progress', 'rate_limited']);

/** The transactions that carried out `r` on the canonical chain. */
export function executionsOf(r: WalletRequest, f: WalletFacts): string[] {
  const by = new Map(f.txs.map((t) => [low(t.hash), t]));
  switch (r.kind) {
    case 'sell':
      return f.sold
        .filter((e) => low(e.seller) === low(r.wallet) && e.tokensIn === r.amount)
        .map((e) => e.txHash);
    case 'buy':
      return f.bought
        .filter((e) => low(e.buyer) === low(r.wallet) && e.ethIn === r.amount)
        .map((e) => e.txHash);
    case 'withdraw_token':
      return f.transfers
        .filter((t) => low(t.from) === low(r.wallet) && low(t.to) === low(r.to) && t.value === r.amount)
        .map((t) => t.txHash);
    case 'withdraw_eth':
      return f.txs
        .filter(
          (t) =>
            t.status === 'success' &&
            low(t.from) === low(r.wallet) &&
            low(t.to) === low(r.to) &&
            t.value === r.amount,
        )
        .map((t) => t.hash);
    case 'allowance':
      // The founder's own approve, not a payout's spending of the allowance.
      return f.approvals
        .filter(
          (a) =>
            low(a.owner) === low(r.wallet) &&
            a.value === r.amount &&
            low(by.get(low(a.txHash))?.from) === low(r.wallet),
        )
        .map((a) => a.txHash);
  }
}

/** The request's last answer that says something for good (not a retry-later), if any. */
function finalAnswer(r: WalletRequest): WalletAnswer | undefined {
  const told = r.answers.filter(
    (a) => a.status !== 0 && a.status < 500 && a.status !== 202 && !MOMENTARY.has(a.code ?? ''),
  );
  return told[told.length - 1];
}

export function checkWallets(input: WalletCheckInput): WalletViolation[] {
  const out: WalletViolation[] = [];
  const { facts } = input;
  const sponsorTx = new Set(
    facts.txs.filter((t) => low(t.from) === low(input.sponsor)).map((t) => low(t.hash)),
  );

  for (const r of input.requests) {
    const what = `${r.kind} request ${r.key} of agent ${r.agentId} (${r.amount} units${r.to ? ` to ${r.to}` : ''}; answers ${r.answers.map((a) => `${a.status}${a.code ? ` ${a.code}` : ''}`).join(' / ') || 'none'}; transaction ${r.transaction ? `${r.transaction.id} ${r.transaction.status}` : 'none'})`;
    const done = executionsOf(r, facts);
    if (done.length > 1) {
      out.push({ rule: 'f', message: `${what} executed ${done.length} times`, txHashes: done });
    }
    const ok200 = r.answers.some((a) => a.status === 200);
    const t = r.transaction;
    const last = finalAnswer(r);
    if (t?.status === 'confirmed' || ok200) {
      if (done.length === 0) {
        out.push({
          rule: 'g',
          message: `${what}: ${ok200 ? 'answered 200' : 'confirmed'}, but never executed on chain`,
          txHashes: [t?.txHash ?? ''].filter(Boolean),
        });
      } else if (done.length === 1 && t?.status === 'confirmed' && low(t.txHash) !== low(done[0])) {
        out.push({
          rule: 'g',
          message: `${what}: GET names ${t.txHash}, but it executed in ${done[0]}`,
          txHashes: [t.txHash ?? '', done[0] ?? ''],
        });
      }
      if (ok200 && t && t.status !== 'confirmed') {
        out.push({
          rule: 'g',
          message: `${what}: answered 200, yet its transaction is ${t.status}`,
          txHashes: done,
        });
      }
    } else if (done.length > 0) {
      const why =
        t?.status === 'failed'
          ? 'its transaction failed'
          : !t
            ? 'the service has no transaction for it'
            : last
              ? `it was refused (${last.status} ${last.code ?? ''})`
              : null;
      if (why) out.push({ rule: 'g', message: `${what}: ${why}, yet it executed`, txHashes: done });
    }
  }

  for (const i of facts.pendingIntents) {
    out.push({
      rule: 'h',
      message: `request ${i.id} (${i.kind}) of signer ${i.signer} still pending at nonce ${i.nonce} after quiescence`,
      txHashes: [],
    });
  }
  for (const a of facts.openAttempts) {
    out.push({
      rule: 'h',
      message: `attempt ${a.hash} of ${a.signer} at nonce ${a.nonce} still ${a.status} after quiescence`,
      txHashes: [a.hash],
    });
  }
  for (const s of facts.signers) {
    if (s.chainPending > s.chainLatest) {
      out.push({
        rule: 'h',
        message: `${s.address}: ${s.chainPending - s.chainLatest} transaction(s) still waiting in the node's pool (nonces ${s.chainLatest}..${s.chainPending - 1})`,
        txHashes: [],
      });
    }
    if (s.dbNext === null) continue;
    if (s.dbNext > s.chainLatest) {
      out.push({
        rule: 'h',
        message: `${s.address}: the service's next nonce ${s.dbNext} is ahead of the chain's count ${s.chainLatest}: nonces ${s.chainLatest}..${s.dbNext - 1} hold nothing that will mine`,
        txHashes: [],
      });
    } else if (s.dbNext < s.chainLatest && !s.outside) {
      out.push({
        rule: 'h',
        message: `${s.address}: the chain counts ${s.chainLatest} nonces but the service only ${s.dbNext}, and nobody else signs for it`,
        txHashes: [],
      });
    }
  }

  const byAgent = new Map<string, WalletRequest[]>();
  for (const r of input.requests.filter((x) => x.kind === 'withdraw_token')) {
    byAgent.set(r.agentId, [...(byAgent.get(r.agentId) ?? []), r]);
  }
  for (const [agentId, list] of byAgent) {
    const sponsored = list.flatMap((r) => executionsOf(r, facts).filter((h) => sponsorTx.has(low(h))));
    if (sponsored.length > input.quota) {
      out.push({
        rule: 'i',
        message: `agent ${agentId}: ${sponsored.length} sponsored withdraws on chain, at most ${input.quota} a day`,
        txHashes: sponsored,
      });
    }
    const made = facts.sponsoredWithdrawIntents[agentId] ?? 0;
    const refused = list.filter((r) => r.answers.some((a) => a.quota));
    if (refused.length > 0 && made < input.quota) {
      out.push({
        rule: 'i',
        message: `agent ${agentId}: refused for the quota (${refused.map((r) => r.key).join(', ')}) after only ${made} sponsored withdraw(s) of ${input.quota}`,
        txHashes: [],
      });
    }
  }

  for (const t of facts.txs) {
    if (low(t.from) === low(input.sponsor) && t.status === 'reverted') {
      out.push({
        rule: 'j',
        message: `sponsor transaction ${t.hash} (nonce ${t.nonce}, to ${t.to}) reverted`,
        txHashes: [t.hash],
      });
    }
  }
  return out;
}
