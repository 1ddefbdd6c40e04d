import { describe, expect, it } from 'vitest';
import {
  type ChainTransfer,
  type CheckInput,
  checkInterleave,
  formatViolations,
  type Rule,
  split,
} from './helpers/interleave-checker.ts';

/** The interleaving model test's checker, fed by hand: a clean scene, then one broken rule at a time. */

const UNIT = 10n ** 18n;
const FEE_BPS = 500n;
const addr = (c: string) => `0x${c.repeat(40)}`;
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const FOUNDER = addr('f');
const TREASURY = addr('e');
const STASH = addr('5');
const DEV1 = addr('1');
const DEV2 = addr('2');
const DEV3 = addr('3');
const R1 = 21;
const R2 = 22;
const R3 = 23;

let seq = 0;
const transfer = (to: string, value: bigint, txHash = hash(++seq), from = FOUNDER): ChainTransfer => ({
  from,
  to,
  value,
  txHash,
  logIndex: 0,
  blockNumber: BigInt(seq),
});
const reward = (r: number) => split(r, UNIT, FEE_BPS).contributor;
const fee = (r: number) => split(r, UNIT, FEE_BPS).fee;

/**
 * Bounty 1 approved and paid (one router transaction with both transfers), bounty 2 in review with
 * a founder-merged submission the founder cannot pay yet (payment owed), a rejected one before it,
 * bounty 3 open; the test's own stash transfers around them.
 */
function cleanScene(): CheckInput {
  const paid = hash(900);
  return {
    phase: 'settled',
    founder: FOUNDER,
    treasury: TREASURY,
    feeBps: FEE_BPS,
    unit: UNIT,
    ignoredCounterparties: [STASH],
    transfers: [
      transfer(FOUNDER, 1000n * UNIT, hash(1), addr('0')),
      transfer(DEV1, reward(R1), paid),
      transfer(TREASURY, fee(R1), paid),
      transfer(STASH, 500n * UNIT),
      transfer(FOUNDER, 500n * UNIT, hash(2), STASH),
    ],
    bounties: [
      {
        id: 'bnt_1',
        reward: R1,
        status: 'done',
        paymentOwed: false,
        submissions: [
          {
            id: 'sub_1',
            agentId: 'agt_1',
            wallet: DEV1,
            status: 'approved',
            founderMerged: true,
            contributorTxHash: paid,
            platformFeeTxHash: paid,
          },
        ],
      },
      {
        id: 'bnt_2',
        reward: R2,
        status: 'in_review',
        paymentOwed: true,
        submissions: [
          {
            id: 'sub_2a',
            agentId: 'agt_3',
            wallet: DEV3,
            status: 'rejected',
            founderMerged: false,
            contributorTxHash: null,
            platformFeeTxHash: null,
          },
          {
            id: 'sub_2',
            agentId: 'agt_2',
            wallet: DEV2,
            status: 'pending',
            founderMerged: true,
            contributorTxHash: null,
            platformFeeTxHash: null,
          },
        ],
      },
      { id: 'bnt_3', reward: R3, status: 'open', paymentOwed: false, submissions: [] },
    ],
    payouts: [
      {
        id: 'pay_1',
        submissionId: 'sub_1',
        bountyId: 'bnt_1',
        status: 'confirmed',
        legs: [{ id: 'leg_1', kind: 'payout', status: 'success', txHash: paid }],
      },
      {
        id: 'pay_2',
        submissionId: 'sub_2',
        bountyId: 'bnt_2',
        status: 'failed',
        legs: [{ id: 'leg_2', kind: 'payout', status: 'reverted', txHash: hash(901) }],
      },
    ],
  };
}

const rulesOf = (input: CheckInput) => checkInterleave(input).map((v) => v.rule);
const bounty = (input: CheckInput, id: string) => {
  const b = input.bounties.find((x) => x.id === id);
  if (!b) throw new Error(id);
  return b;
};

describe('the interleaving checker', () => {
  it('finds nothing wrong in a clean scene (router and two-transaction payouts alike)', () => {
    expect(checkInterleave(cleanScene())).toEqual([]);
    const twoTx = cleanScene();
    twoTx.transfers = twoTx.transfers.map((t) => (t.to === TREASURY ? { ...t, txHash: hash(902) } : t));
    const sub = bounty(twoTx, 'bnt_1').submissions[0];
    if (sub) sub.platformFeeTxHash = hash(902);
    expect(checkInterleave(twoTx)).toEqual([]);
  });

  const cases: [string, Rule, (s: CheckInput) => void][] = [
    [
      'an approved submission without its reward transfer',
      'a',
      (s) => {
        s.transfers = s.transfers.filter((t) => t.to !== DEV1);
      },
    ],
    [
      'an approved submission paid twice',
      'a',
      (s) => {
        s.transfers.push(transfer(DEV1, reward(R1)), transfer(TREASURY, fee(R1)));
      },
    ],
    [
      'an approved submission whose fee never went',
      'a',
      (s) => {
        s.transfers = s.transfers.filter((t) => t.to !== TREASURY);
      },
    ],
    [
      'a recorded hash that is not the transaction that paid (a reorg re-mined it elsewhere)',
      'a',
      (s) => {
        const sub = bounty(s, 'bnt_1').submissions[0];
        if (sub) sub.contributorTxHash = hash(777);
      },
    ],
    [
      'a fee transfer without its reward transfer',
      'b',
      (s) => {
        s.transfers.push(transfer(TREASURY, fee(R2)));
      },
    ],
    [
      'a rejected submission paid',
      'c',
      (s) => {
        s.transfers.push(transfer(DEV3, reward(R2)));
      },
    ],
    [
      'a reward paid to a wallet no submission names',
      'c',
      (s) => {
        s.transfers.push(transfer(addr('9'), reward(R3)));
      },
    ],
    [
      'tokens leaving the founder for no bounty',
      'c',
      (s) => {
        s.transfers.push(transfer(DEV2, 7n * UNIT));
      },
    ],
    [
      'a founder-merged submission unpaid without payment_owed',
      'd',
      (s) => {
        bounty(s, 'bnt_2').paymentOwed = false;
      },
    ],
    [
      'a founder-merged submission unpaid once the funds are back',
      'd',
      (s) => {
        s.phase = 'final';
      },
    ],
    [
      'a founder-merged submission rejected',
      'd',
      (s) => {
        const b = bounty(s, 'bnt_2');
        b.status = 'open';
        b.paymentOwed = false;
        const sub = b.submissions[1];
        if (sub) sub.status = 'rejected';
      },
    ],
    [
      'a confirmed payout on a bounty still in review',
      'e',
      (s) => {
        const b = bounty(s, 'bnt_1');
        b.status = 'in_review';
        const sub = b.submissions[0];
        if (sub) sub.status = 'pending';
      },
    ],
    [
      'a payout with a leg still sent after the quiescence wait',
      'e',
      (s) => {
        s.payouts.push({
          id: 'pay_3',
          submissionId: 'sub_2',
          bountyId: 'bnt_2',
          status: 'pending',
          legs: [{ id: 'leg_3', kind: 'contributor', status: 'sent', txHash: hash(903) }],
        });
      },
    ],
    [
      'a payout paid on chain but never recorded',
      'e',
      (s) => {
        s.transfers.push(transfer(DEV2, reward(R2)), transfer(TREASURY, fee(R2)));
      },
    ],
  ];

  for (const [what, rule, breakIt] of cases) {
    it(`reports (${rule}) for ${what}`, () => {
      const scene = cleanScene();
      breakIt(scene);
      const found = checkInterleave(scene);
      expect(
        found.map((v) => v.rule),
        formatViolations(found),
      ).toContain(rule);
    });
  }

  it('names the bounty, the submission and the transactions of a violation', () => {
    const scene = cleanScene();
    const extra = transfer(DEV1, reward(R1));
    scene.transfers.push(extra);
    const [v] = checkInterleave(scene);
    expect(v).toMatchObject({ rule: 'a', bountyId: 'bnt_1', submissionId: 'sub_1' });
    expect(v?.txHashes).toContain(extra.txHash);
    expect(formatViolations(checkInterleave(scene))).toMatch(
      /\(a\) bounty bnt_1 submission sub_1 paid 2 times/,
    );
  });

  it('ignores the test’s own transfers to and from its stash address', () => {
    const scene = cleanScene();
    scene.transfers.push(transfer(STASH, reward(R3)));
    expect(rulesOf(scene)).toEqual([]);
  });
});

describe('a paid payout a reorg took back (its nonce used by another transaction)', () => {
  /** bnt_1's transaction is gone from the chain and its only leg dropped: owed again. */
  function lostScene(phase: CheckInput['phase']): CheckInput {
    const s = cleanScene();
    s.phase = phase;
    s.transfers = s.transfers.filter((t) => t.txHash !== hash(900));
    const p1 = s.payouts.find((p) => p.id === 'pay_1');
    if (!p1) throw new Error('pay_1');
    p1.legs = [{ id: 'leg_1', kind: 'payout', status: 'dropped', txHash: null }];
    return s;
  }

  it('waits for the founder while the funds are short (settled), but must be paid by the final check', () => {
    expect(rulesOf(lostScene('settled'))).toEqual([]);
    const final = rulesOf(lostScene('final'));
    expect(final).toContain('a');
    expect(final).toContain('e');
  });
});
