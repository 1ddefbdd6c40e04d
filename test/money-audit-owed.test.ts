import { describe, expect, it } from 'vitest';
import { auditMoney, type MoneyAuditInput } from '../src/modules/audit/money-audit.ts';
import { AGENT, at, intent, moneyScene } from './helpers/money-audit-scenes.ts';
import { FOUNDER, hash, SIGNER, TOKEN, UNIT } from './helpers/payout-audit-scenes.ts';

/** The money audit's rules 4 to 6, fed by hand: the quota, owed rewards, the final block. */

const codes = (s: MoneyAuditInput) => auditMoney(s).differences.map((d) => d.code);
describe('rule 4: the sponsored-withdraw quota', () => {
  const withdraws = (s: MoneyAuditInput, hours: number[], counted = true) => {
    hours.forEach((h, n) => {
      s.money.ledger.intents.push(
        intent({
          id: `wtx_q${n}_${h}`,
          kind: 'sponsored_withdraw',
          status: 'failed',
          counted,
          createdAt: at(h * 3600),
        }),
      );
    });
  };

  it('reports an agent with more counted sponsored withdraws in 24 h than the quota', () => {
    const s = moneyScene();
    // With the scene's own (at 20 s), three within a day; the quota is 2.
    withdraws(s, [5, 23.9]);
    const report = auditMoney(s);
    expect(report.differences.map((d) => [d.rule, d.code])).toEqual([
      ['withdraw_quota', 'withdraw_quota_exceeded'],
    ]);
    expect(report.differences[0]?.message).toContain(
      `agent ${AGENT} had 3 counted sponsored withdraws within 24 h`,
    );
  });

  it('passes withdraws spread over more than a day, and ones that did not count', () => {
    const s = moneyScene();
    withdraws(s, [24, 48]);
    withdraws(s, [1, 2, 3], false);
    expect(codes(s)).toEqual([]);
  });
});

describe('rule 5: no reward owed over a minute while the funds cover it', () => {
  const owedScene = (funds: { balance: bigint; allowance: bigint }, waitedSeconds = 120) => {
    const s = moneyScene();
    s.money.ledger.owed.push({
      submissionId: 'sub_9',
      bountyId: 'bnt_9',
      payoutId: null,
      tokenAddress: TOKEN,
      founderWallet: FOUNDER,
      rewardUnits: 100n * UNIT,
      owedSince: new Date(s.now.getTime() - waitedSeconds * 1000),
    });
    s.money.chain.funds = [{ token: TOKEN, owner: FOUNDER, ...funds }];
    return s;
  };

  it('reports an owed reward older than a minute that the founder’s balance and allowance cover', () => {
    const report = auditMoney(owedScene({ balance: 500n * UNIT, allowance: 100n * UNIT }));
    expect(report.differences.map((d) => [d.rule, d.code])).toEqual([['owed', 'owed_while_funded']]);
    expect(report.differences[0]?.message).toContain(
      'submission sub_9 (bounty bnt_9) has been owed 100 for 120 s',
    );
    expect(report.differences[0]?.message).toContain('balance 500, allowance for the payout router 100');
  });

  it('passes an owed reward the funds do not cover (a note), and one owed for less than a minute', () => {
    const short = auditMoney(owedScene({ balance: 500n * UNIT, allowance: 99n * UNIT }));
    expect(short.differences).toEqual([]);
    expect(short.notes.join('\n')).toContain("the founder's funds do not cover it");
    expect(codes(owedScene({ balance: 500n * UNIT, allowance: 500n * UNIT }, 59))).toEqual([]);
  });

  it('gives the funds to the oldest owed reward first, after payouts in flight from that wallet', () => {
    const s = owedScene({ balance: 150n * UNIT, allowance: 150n * UNIT });
    s.money.ledger.owed.push({
      ...(s.money.ledger.owed[0] as MoneyAuditInput['money']['ledger']['owed'][number]),
      submissionId: 'sub_8',
      owedSince: new Date(s.now.getTime() - 600_000),
    });
    const report = auditMoney(s);
    expect(report.differences.map((d) => d.message.slice(0, 16))).toEqual(['submission sub_8']);
    // A payout of 100 still in flight from the wallet leaves 50: neither is covered.
    s.payouts.ledger.payouts.push({
      ...(s.payouts.ledger.payouts[0] as MoneyAuditInput['payouts']['ledger']['payouts'][number]),
      id: 'payout_2',
      submissionId: 'sub_2',
      status: 'pending',
    });
    expect(auditMoney(s).differences.filter((d) => d.rule === 'owed')).toEqual([]);
  });

  it('leaves a reward whose contributor transfer already mined to its approval', () => {
    const s = owedScene({ balance: 500n * UNIT, allowance: 500n * UNIT });
    Object.assign(s.money.ledger.owed[0] as object, { payoutId: 'payout_1' });
    expect(auditMoney(s).differences.filter((d) => d.rule === 'owed')).toEqual([]);
  });

  it('says so when the payout router is unknown', () => {
    const s = owedScene({ balance: 500n * UNIT, allowance: 500n * UNIT });
    s.money.chain.funds = null;
    const report = auditMoney(s);
    expect(report.differences).toEqual([]);
    expect(report.notes.join('\n')).toContain('the payout router is not known');
  });
});

describe('rule 6: the payout audit reads at the final block too', () => {
  it('takes a leg mined after the final block for work in flight', () => {
    const s = moneyScene();
    s.payouts.chain.txs = s.payouts.chain.txs.filter((t) => t.hash !== hash('2'));
    s.payouts.chain.transfers = s.payouts.chain.transfers.filter((t) => t.txHash !== hash('2'));
    s.payouts.chain.signerNonces[SIGNER] = 1;
    expect(codes(s)).toEqual(['leg_not_on_chain']);
    s.payouts.chain.unfinal = [hash('2')];
    const report = auditMoney(s);
    expect(report.differences).toEqual([]);
    expect(report.notes.join('\n')).toContain(`fee leg leg_f mined in ${hash('2')} after the final block`);
  });
});
