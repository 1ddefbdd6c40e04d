import { describe, expect, it } from 'vitest';
import {
  type AuditIntent,
  type AuditReceipt,
  type AuditWalletTx,
  auditMoney,
  formatMoneyAudit,
  type MoneyAuditInput,
} from '../src/modules/audit/money-audit.ts';
import {
  AGENT,
  at,
  FINAL,
  intent,
  moneyScene,
  receipt,
  row,
  SPONSOR,
  tx,
  WALLET,
} from './helpers/money-audit-scenes.ts';
import { addr } from './helpers/payout-audit-scenes.ts';

/** The money audit's rules, fed by hand: a clean scene, then one difference at a time. */

const codes = (s: MoneyAuditInput) => auditMoney(s).differences.map((d) => d.code);
const find = <T extends { hash: string }>(list: T[], h: string) => list.find((t) => t.hash === h) as T;
const intentOf = (s: MoneyAuditInput, id: string) =>
  s.money.ledger.intents.find((i) => i.id === id) as AuditIntent;
const rowOf = (s: MoneyAuditInput, h: string): AuditWalletTx => find(s.money.ledger.walletTxs, h);
const receiptOf = (s: MoneyAuditInput, h: string): AuditReceipt => find(s.money.chain.receipts, h);

describe('auditMoney', () => {
  it('finds nothing wrong when every request, sponsor nonce and payout matches the chain', () => {
    const report = auditMoney(moneyScene());
    expect(report.differences).toEqual([]);
    expect(report.summary).toMatchObject({ finalBlock: FINAL, intents: 4, walletTxs: 5, sponsorTxs: 3 });
    const text = formatMoneyAudit(report);
    expect(text).toContain('Read at block 100 (head 110 minus 10 confirmation(s)');
    expect(text).toMatch(/ok +1\. no request executed twice/);
    expect(text).toContain('OK: every payout and wallet transaction matches the chain');
  });

  it('keeps the payout audit: its differences are reported under rule "payouts"', () => {
    const s = moneyScene();
    (s.payouts.ledger.legs[0] as { toAddress: string }).toAddress = addr('8');
    const report = auditMoney(s);
    expect(report.differences.map((d) => [d.rule, d.code])).toEqual([['payouts', 'leg_not_as_intended']]);
    expect(formatMoneyAudit(report)).toMatch(/1 difference\(s\) +payouts match the chain/);
  });
});

describe('rule 1: no request executed twice', () => {
  it('reports a request two of whose attempts both mined successfully', () => {
    const s = moneyScene();
    s.money.ledger.walletTxs.push(row({ hash: tx(3), kind: 'buy', nonce: 2, intentId: 'wtx_buy' }));
    s.money.chain.receipts.push(receipt(tx(3), WALLET, { blockNumber: 95n }));
    const report = auditMoney(s);
    expect(report.differences.map((d) => [d.code, d.intentId, d.txHash])).toEqual([
      ['intent_executed_twice', 'wtx_buy', tx(3)],
    ]);
    expect(report.differences[0]?.message).toContain(`${tx(1)}, ${tx(3)}`);
  });

  it('reads receipts by hash, not the database status: an attempt recorded dropped that mined counts', () => {
    const s = moneyScene();
    s.money.ledger.walletTxs.push(row({ hash: tx(3), kind: 'buy', intentId: 'wtx_buy', status: 'dropped' }));
    s.money.chain.receipts.push(receipt(tx(3), WALLET));
    expect(codes(s)).toEqual(['intent_executed_twice', 'attempt_status_differs']);
  });

  it('reports a confirmed request none of whose attempts mined successfully by the final block', () => {
    const s = moneyScene();
    Object.assign(rowOf(s, tx(1)), { status: 'sent' });
    s.money.chain.receipts = s.money.chain.receipts.filter((r) => r.hash !== tx(1));
    expect(codes(s)).toEqual(['confirmed_intent_not_executed']);
  });

  it('reports a confirmed request recording another hash than the one that mined', () => {
    const s = moneyScene();
    intentOf(s, 'wtx_buy').txHash = tx(9);
    const report = auditMoney(s);
    expect(report.differences.map((d) => [d.code, d.txHash])).toEqual([
      ['confirmed_intent_hash_differs', tx(1)],
    ]);
    expect(report.differences[0]?.message).toContain(`records ${tx(9)}`);
  });

  it('reports a failed request whose attempt mined successfully', () => {
    const s = moneyScene();
    s.money.chain.receipts.push(receipt(tx(2), WALLET));
    const report = auditMoney(s);
    expect(report.differences.map((d) => [d.code, d.intentId])).toEqual([
      ['failed_intent_executed', 'wtx_fail'],
      ['attempt_status_differs', 'wtx_fail'],
    ]);
  });

  it('reports an attempt recorded mined that the chain reverted, and one naming no recorded request', () => {
    const s = moneyScene();
    Object.assign(receiptOf(s, tx(1)), { status: 'reverted' });
    s.money.ledger.walletTxs.push(
      row({ hash: tx(4), kind: 'sell', nonce: 3, intentId: 'wtx_gone', status: 'sent' }),
    );
    expect(codes(s)).toEqual([
      'confirmed_intent_not_executed',
      'attempt_status_differs',
      'attempt_of_unknown_request',
    ]);
  });

  it('judges at the final block (rule 6): a receipt mined after it is a note, not a difference', () => {
    const s = moneyScene();
    Object.assign(receiptOf(s, tx(1)), { blockNumber: FINAL + 1n });
    const report = auditMoney(s);
    expect(report.differences).toEqual([]);
    expect(report.notes.join('\n')).toContain(
      `request wtx_buy (agent ${AGENT}) is confirmed by ${tx(1)}, mined after the final block`,
    );
  });
});

describe('rule 2: every sponsor transaction is a request’s or a nonce filler', () => {
  it('reports sponsor nonces the database does not know', () => {
    const s = moneyScene();
    s.money.chain.sponsorNonce = 5;
    const report = auditMoney(s);
    expect(report.differences.map((d) => [d.rule, d.code])).toEqual([
      ['sponsor_nonces', 'sponsor_nonce_unknown'],
    ]);
    expect(report.differences[0]?.message).toContain('nonce(s) 3, 4 (of 5 at the final block)');
  });

  it('counts a nonce only when its recorded transaction mined there by the final block', () => {
    const s = moneyScene();
    Object.assign(receiptOf(s, tx(13)), { blockNumber: FINAL + 5n });
    // The sponsor's count at the final block does not include it either, so nothing is missing.
    s.money.chain.sponsorNonce = 2;
    expect(codes(s)).toEqual([]);
    s.money.chain.sponsorNonce = 3;
    expect(codes(s)).toEqual(['sponsor_nonce_unknown']);
  });

  it('reports a sponsor transaction that carries no request, unless it was recorded before requests were', () => {
    const s = moneyScene();
    s.money.ledger.walletTxs.push(
      row({ hash: tx(14), kind: 'sponsored_withdraw', nonce: 3, createdAt: at(30) }),
    );
    s.money.chain.receipts.push(receipt(tx(14), SPONSOR));
    s.money.chain.sponsorNonce = 4;
    expect(codes(s)).toEqual(['sponsor_tx_without_request']);
    Object.assign(rowOf(s, tx(14)), { createdAt: at(-30) });
    const report = auditMoney(s);
    expect(report.differences).toEqual([]);
    expect(report.notes.join('\n')).toContain('1 sponsor transaction(s) were recorded before requests were');
  });

  it("takes the engine's cancel at a request's nonce for what it is: the request failed, nothing executed twice", () => {
    const s = moneyScene();
    // The sponsor's nonce 1 is a sponsored sale's nonce, cancelled (its bytes would have reverted).
    s.money.ledger.intents.push(
      intent({ id: 'wtx_cancelled', kind: 'sponsored_sell', nonce: 1, status: 'failed', createdAt: at(14) }),
    );
    s.money.ledger.walletTxs.push(
      row({ hash: tx(20), kind: 'sponsored_sell', nonce: 1, intentId: 'wtx_cancelled', status: 'replaced' }),
    );
    Object.assign(rowOf(s, tx(12)), { intentId: 'wtx_cancelled' });
    expect(auditMoney(s).differences).toEqual([]);
    // An attempt of another kind than the request's is still reported.
    Object.assign(rowOf(s, tx(20)), { kind: 'sponsored_withdraw' });
    expect(codes(s)).toEqual(['attempt_not_as_requested']);
  });

  it('reports a nonce filler that moved ETH', () => {
    const s = moneyScene();
    Object.assign(find(s.money.chain.txs, tx(12)), { to: addr('9'), value: 5n });
    const report = auditMoney(s);
    expect(report.differences.map((d) => d.code)).toEqual(['filler_not_empty']);
    expect(report.differences[0]?.message).toContain(`to ${addr('9')}`);
  });
});

describe('rule 3: sponsor spend matched by refunds', () => {
  it('reports a sponsored sale refunded less than 99% of the gas paid, with the figures', () => {
    const s = moneyScene();
    Object.assign(rowOf(s, tx(11)), { gasRefundUnits: 989n });
    Object.assign(receiptOf(s, tx(11)), { gasRefundUnits: 989n });
    const report = auditMoney(s);
    expect(report.differences.map((d) => [d.rule, d.code, d.intentId])).toEqual([
      ['sponsor_spend', 'sponsor_underrefunded', 'wtx_sell'],
    ]);
    expect(report.differences[0]?.message).toContain('paid 0.000000000000001 ETH (1000 wei) of gas');
    expect(report.differences[0]?.message).toContain('refunded 0.000000000000000989 ETH (989 wei), 98.9%');
    // 99% is enough.
    Object.assign(rowOf(s, tx(11)), { gasRefundUnits: 990n });
    Object.assign(receiptOf(s, tx(11)), { gasRefundUnits: 990n });
    expect(codes(s)).toEqual([]);
  });

  it('reports recorded gas figures the receipt contradicts', () => {
    const s = moneyScene();
    Object.assign(receiptOf(s, tx(11)), { gasRefundUnits: 0n });
    expect(codes(s)).toEqual(['sponsor_gas_recorded_differs']);
  });

  it('lists every sponsor transaction that reverted', () => {
    const s = moneyScene();
    Object.assign(intentOf(s, 'wtx_wd'), { status: 'failed', txHash: null });
    Object.assign(rowOf(s, tx(13)), { status: 'reverted' });
    Object.assign(receiptOf(s, tx(13)), { status: 'reverted' });
    const report = auditMoney(s);
    expect(report.differences.map((d) => [d.code, d.txHash, d.intentId])).toEqual([
      ['sponsor_tx_reverted', tx(13), 'wtx_wd'],
    ]);
    expect(report.differences[0]?.message).toContain('costing the sponsor 0.0000000000000005 ETH (500 wei)');
  });
});
