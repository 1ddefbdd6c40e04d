import { describe, expect, it } from 'vitest';
import { formatViolations } from './helpers/interleave-checker.ts';
import {
  type ChainTx,
  checkWallets,
  type WalletCheckInput,
  type WalletRequest,
  type WalletRule,
} from './helpers/wallet-interleave-checker.ts';

/**
 * The wallet model's checker (helpers/wallet-interleave-checker.ts), fed by hand: a clean scene of
 * sponsored and self-paid actions with retries, then one broken rule at a time.
 */

const E18 = 10n ** 18n;
const addr = (c: string) => `0x${c.repeat(40)}`;
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const SPONSOR = addr('5');
const FOUNDER = addr('f');
const SPENDER = addr('e');
const OWN = addr('1');
const SPONSORED = addr('2');
const R1 = addr('a');
const R2 = addr('b');
const R3 = addr('c');
const FILLER = hash(8);

const tx = (h: string, from: string, nonce: number, to: string | null, value = 0n): ChainTx => ({
  hash: h,
  from,
  to,
  nonce,
  value,
  status: 'success',
});

const req = (r: Partial<WalletRequest> & Pick<WalletRequest, 'key' | 'kind' | 'amount'>): WalletRequest => ({
  agentId: 'agt_sponsored',
  wallet: SPONSORED,
  answers: [],
  ...r,
});
const confirmed = (id: string, h: string, kind: string) => ({ id, status: 'confirmed', txHash: h, kind });

/**
 * A sponsored sale answered 202 then 200; a sponsored withdraw (the quota of 1), then one refused
 * for the quota; a buy retried after a 502; an ETH withdraw retried after no answer and a 409; the
 * founder's allowance; a sale refused before anything was signed; a sponsored sale the engine
 * cancelled (its nonce filled). The founder's key is also used outside the service.
 */
function cleanScene(): WalletCheckInput {
  return {
    sponsor: SPONSOR,
    founder: FOUNDER,
    spender: SPENDER,
    quota: 1,
    requests: [
      req({
        key: 'k1',
        kind: 'sell',
        amount: 10n * E18 + 1n,
        answers: [
          { status: 202, txId: 'wtx_1', txHash: hash(1) },
          { status: 200, txHash: hash(1) },
        ],
        transaction: confirmed('wtx_1', hash(1), 'sponsored_sell'),
      }),
      req({
        key: 'k2',
        kind: 'withdraw_token',
        amount: E18 + 2n,
        to: R1,
        answers: [{ status: 200, txHash: hash(2) }],
        transaction: confirmed('wtx_2', hash(2), 'sponsored_withdraw'),
      }),
      req({
        key: 'k3',
        kind: 'buy',
        agentId: 'agt_own',
        wallet: OWN,
        amount: 10n ** 15n + 3n,
        answers: [
          { status: 502, code: 'upstream_error' },
          { status: 200, txHash: hash(3) },
        ],
        transaction: confirmed('wtx_3', hash(3), 'buy'),
      }),
      req({
        key: 'k4',
        kind: 'withdraw_eth',
        agentId: 'agt_own',
        wallet: OWN,
        amount: 2n * 10n ** 14n + 4n,
        to: R2,
        answers: [
          { status: 0 },
          { status: 409, code: 'idempotency_in_progress' },
          { status: 200, txHash: hash(4) },
        ],
        transaction: confirmed('wtx_4', hash(4), 'withdraw_eth'),
      }),
      req({
        key: 'k5',
        kind: 'allowance',
        agentId: 'agt_founder',
        wallet: FOUNDER,
        amount: 37n * E18,
        answers: [{ status: 200, txHash: hash(5) }],
        transaction: confirmed('wtx_5', hash(5), 'allowance'),
      }),
      req({
        key: 'k6',
        kind: 'sell',
        agentId: 'agt_own',
        wallet: OWN,
        amount: 500n * E18 + 6n,
        answers: [{ status: 400, code: 'insufficient_funds' }],
      }),
      req({
        key: 'k7',
        kind: 'withdraw_token',
        amount: E18 + 7n,
        to: R3,
        answers: [{ status: 400, code: 'insufficient_eth', quota: true }],
      }),
      req({
        key: 'k8',
        kind: 'sell',
        amount: 3n * E18 + 8n,
        answers: [{ status: 202, txId: 'wtx_8', txHash: hash(88) }],
        transaction: { id: 'wtx_8', status: 'failed', txHash: null, kind: 'sponsored_sell' },
      }),
    ],
    facts: {
      sold: [{ seller: SPONSORED, tokensIn: 10n * E18 + 1n, txHash: hash(1) }],
      bought: [{ buyer: OWN, ethIn: 10n ** 15n + 3n, txHash: hash(3) }],
      transfers: [
        { from: SPONSORED, to: addr('0'), value: 10n * E18 + 1n, txHash: hash(1) },
        { from: SPONSORED, to: R1, value: E18 + 2n, txHash: hash(2) },
        { from: addr('0'), to: OWN, value: 7n * E18, txHash: hash(3) },
      ],
      approvals: [
        { owner: FOUNDER, spender: SPENDER, value: 37n * E18, txHash: hash(5) },
        // The payout router spending the allowance (a payout key's transaction), not a request.
        { owner: FOUNDER, spender: SPENDER, value: 37n * E18, txHash: hash(9) },
      ],
      txs: [
        tx(hash(1), SPONSOR, 0, addr('c')),
        tx(hash(2), SPONSOR, 1, addr('d')),
        tx(FILLER, SPONSOR, 2, SPONSOR),
        tx(hash(3), OWN, 0, addr('c'), 10n ** 15n + 3n),
        tx(hash(4), OWN, 1, R2, 2n * 10n ** 14n + 4n),
        tx(hash(5), FOUNDER, 3, addr('d')),
      ],
      signers: [
        { address: SPONSOR, dbNext: 3, chainLatest: 3, chainPending: 3, outside: false },
        { address: OWN, dbNext: 2, chainLatest: 2, chainPending: 2, outside: false },
        { address: SPONSORED, dbNext: 0, chainLatest: 0, chainPending: 0, outside: false },
        // The test moved the founder's tokens on chain itself: the chain counts more.
        { address: FOUNDER, dbNext: 4, chainLatest: 6, chainPending: 6, outside: true },
      ],
      pendingIntents: [],
      openAttempts: [],
      sponsoredWithdrawIntents: { agt_sponsored: 1 },
    },
  };
}

const request = (s: WalletCheckInput, key: string) => {
  const r = s.requests.find((x) => x.key === key);
  if (!r) throw new Error(key);
  return r;
};
const signer = (s: WalletCheckInput, address: string) => {
  const x = s.facts.signers.find((y) => y.address === address);
  if (!x) throw new Error(address);
  return x;
};

describe('the wallet interleaving checker', () => {
  it('finds nothing wrong in a clean scene', () => {
    expect(formatViolations(checkWallets(cleanScene()))).toBe('');
  });

  const cases: [string, WalletRule, (s: WalletCheckInput) => void][] = [
    [
      'a sale retried with one Idempotency-Key after a lost broadcast answer that burned the tokens twice (the bug before the engine)',
      'f',
      (s) => {
        const r = request(s, 'k1');
        r.answers = [
          { status: 502, code: 'upstream_error' },
          { status: 200, txHash: hash(11) },
        ];
        r.transaction = undefined;
        s.facts.sold.push({ seller: SPONSORED, tokensIn: r.amount, txHash: hash(11) });
      },
    ],
    [
      'a withdraw whose retry moved the tokens a second time',
      'f',
      (s) => {
        s.facts.transfers.push({ from: SPONSORED, to: R1, value: E18 + 2n, txHash: hash(12) });
      },
    ],
    [
      'a buy answered 200 that never executed',
      'g',
      (s) => {
        s.facts.bought = [];
      },
    ],
    [
      'a 202 whose transaction ended confirmed but names another transaction than the one that executed',
      'g',
      (s) => {
        request(s, 'k1').transaction = confirmed('wtx_1', hash(13), 'sponsored_sell');
      },
    ],
    [
      'a transaction shown as failed that executed anyway',
      'g',
      (s) => {
        s.facts.sold.push({ seller: SPONSORED, tokensIn: 3n * E18 + 8n, txHash: hash(14) });
      },
    ],
    [
      'a request refused before anything was signed that executed anyway',
      'g',
      (s) => {
        s.facts.sold.push({ seller: OWN, tokensIn: 500n * E18 + 6n, txHash: hash(15) });
      },
    ],
    [
      'a request answered 200 whose transaction ended failed',
      'g',
      (s) => {
        request(s, 'k4').transaction = { id: 'wtx_4', status: 'failed', txHash: null, kind: 'withdraw_eth' };
      },
    ],
    [
      'a request still pending after quiescence',
      'h',
      (s) => {
        s.facts.pendingIntents.push({ id: 'wtx_9', kind: 'sponsored_sell', signer: SPONSOR, nonce: 3 });
      },
    ],
    [
      'an attempt still sent after quiescence',
      'h',
      (s) => {
        s.facts.openAttempts.push({ hash: hash(16), signer: OWN, nonce: 2, status: 'sent' });
      },
    ],
    [
      "the sponsor's nonce counter ahead of the chain (a gap nothing fills)",
      'h',
      (s) => {
        signer(s, SPONSOR).dbNext = 4;
      },
    ],
    [
      'a transaction still waiting in the pool after quiescence',
      'h',
      (s) => {
        signer(s, OWN).chainPending = 3;
      },
    ],
    [
      'nonces on chain the service never counted, for a key nobody else uses',
      'h',
      (s) => {
        signer(s, OWN).chainLatest = 3;
        signer(s, OWN).chainPending = 3;
      },
    ],
    [
      'two sponsored withdraws of one agent with a quota of one',
      'i',
      (s) => {
        request(s, 'k7').answers = [{ status: 200, txHash: hash(17) }];
        request(s, 'k7').transaction = confirmed('wtx_7', hash(17), 'sponsored_withdraw');
        s.facts.transfers.push({ from: SPONSORED, to: R3, value: E18 + 7n, txHash: hash(17) });
        s.facts.txs.push(tx(hash(17), SPONSOR, 3, addr('d')));
        signer(s, SPONSOR).dbNext = 4;
        signer(s, SPONSOR).chainLatest = 4;
        signer(s, SPONSOR).chainPending = 4;
      },
    ],
    [
      'a withdraw refused for the quota before the quota was used',
      'i',
      (s) => {
        s.quota = 2;
      },
    ],
    [
      'a sponsor transaction that reverted',
      'j',
      (s) => {
        const filler = s.facts.txs.find((t) => t.hash === FILLER);
        if (filler) filler.status = 'reverted';
      },
    ],
  ];

  for (const [what, rule, breakIt] of cases) {
    it(`reports (${rule}) for ${what}`, () => {
      const scene = cleanScene();
      breakIt(scene);
      const found = checkWallets(scene);
      expect(
        found.map((v) => v.rule),
        formatViolations(found),
      ).toContain(rule);
    });
  }

  it("counts a wallet's own withdraws apart from the sponsored quota", () => {
    const s = cleanScene();
    s.requests.push(
      req({
        key: 'k10',
        kind: 'withdraw_token',
        agentId: 'agt_own',
        wallet: OWN,
        amount: E18 + 10n,
        to: addr('9'),
        answers: [{ status: 200 }],
        transaction: confirmed('wtx_10', hash(20), 'withdraw_token'),
      }),
      req({
        key: 'k11',
        kind: 'withdraw_token',
        agentId: 'agt_own',
        wallet: OWN,
        amount: E18 + 11n,
        to: addr('8'),
        answers: [{ status: 200 }],
        transaction: confirmed('wtx_11', hash(21), 'withdraw_token'),
      }),
    );
    s.facts.transfers.push(
      { from: OWN, to: addr('9'), value: E18 + 10n, txHash: hash(20) },
      { from: OWN, to: addr('8'), value: E18 + 11n, txHash: hash(21) },
    );
    s.facts.txs.push(tx(hash(20), OWN, 2, addr('d')), tx(hash(21), OWN, 3, addr('d')));
    signer(s, OWN).dbNext = 4;
    signer(s, OWN).chainLatest = 4;
    signer(s, OWN).chainPending = 4;
    expect(formatViolations(checkWallets(s))).toBe('');
  });

  it('names the request, its answers and the transactions of a double execution', () => {
    const s = cleanScene();
    s.facts.sold.push({ seller: SPONSORED, tokensIn: 10n * E18 + 1n, txHash: hash(30) });
    const [v] = checkWallets(s);
    expect(v).toMatchObject({ rule: 'f', txHashes: [hash(1), hash(30)] });
    expect(v?.message).toMatch(/sell request k1 .*answers 202 \/ 200.*executed 2 times/);
  });
});
