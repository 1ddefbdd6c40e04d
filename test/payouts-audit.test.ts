import { describe, expect, it } from 'vitest';
import {
  type AuditChain,
  type AuditLedger,
  type AuditTx,
  auditPayouts,
  formatAudit,
} from '../src/modules/payouts/payouts-audit.ts';

/** The payout audit's comparison, fed by hand: one paid bounty, then one difference at a time. */

const UNIT = 10n ** 18n;
const addr = (c: string) => `0x${c.repeat(40)}`;
const hash = (c: string) => `0x${c.repeat(64)}`;
const TOKEN = addr('a');
const FOUNDER = addr('f');
const DEV = addr('d');
const TREASURY = addr('e');
const SIGNER = addr('5');

/** One confirmed payout of 100 tokens (95 + 5 fee) at the signer's nonces 0 and 1, as the chain shows it. */
function paidScene(): { ledger: AuditLedger; chain: AuditChain } {
  const ledger: AuditLedger = {
    payouts: [
      {
        id: 'payout_1',
        submissionId: 'sub_1',
        bountyId: 'bnt_1',
        tokenAddress: TOKEN,
        fromAddress: FOUNDER,
        contributorAddress: DEV,
        treasuryAddress: TREASURY,
        rewardUnits: 100n * UNIT,
        contributorUnits: 95n * UNIT,
        feeUnits: 5n * UNIT,
        status: 'confirmed',
      },
    ],
    legs: [
      {
        id: 'leg_c',
        payoutId: 'payout_1',
        kind: 'contributor',
        signer: SIGNER,
        nonce: 0,
        toAddress: DEV,
        amountUnits: 95n * UNIT,
        status: 'success',
        txHash: hash('1'),
        attempts: [hash('1')],
      },
      {
        id: 'leg_f',
        payoutId: 'payout_1',
        kind: 'fee',
        signer: SIGNER,
        nonce: 1,
        toAddress: TREASURY,
        amountUnits: 5n * UNIT,
        status: 'success',
        txHash: hash('2'),
        attempts: [hash('2')],
      },
    ],
    submissions: [
      {
        id: 'sub_1',
        bountyId: 'bnt_1',
        status: 'approved',
        submitterWallet: DEV,
        contributorTxHash: hash('1'),
        platformFeeTxHash: hash('2'),
        rewardUnits: 100n * UNIT,
        feeUnits: 5n * UNIT,
      },
    ],
    bounties: [{ id: 'bnt_1', status: 'done' }],
    signers: [SIGNER],
  };
  const tx = (h: string, nonce: number): AuditTx => ({
    hash: h,
    sender: SIGNER,
    nonce,
    status: 'success',
    to: TOKEN,
    value: 0n,
    input: '0x23b872dd',
  });
  const chain: AuditChain = {
    txs: [tx(hash('1'), 0), tx(hash('2'), 1)],
    transfers: [
      { token: TOKEN, from: FOUNDER, to: DEV, value: 95n * UNIT, txHash: hash('1'), logIndex: 0 },
      { token: TOKEN, from: FOUNDER, to: TREASURY, value: 5n * UNIT, txHash: hash('2'), logIndex: 0 },
    ],
    signerNonces: { [SIGNER]: 2 },
  };
  return { ledger, chain };
}

const codes = (s: { ledger: AuditLedger; chain: AuditChain }) =>
  auditPayouts(s.ledger, s.chain).differences.map((d) => d.code);

describe('auditPayouts', () => {
  it('finds nothing wrong with a payout the chain shows exactly', () => {
    const report = auditPayouts(paidScene().ledger, paidScene().chain);
    expect(report.differences).toEqual([]);
    expect(report.rows.map((r) => [r.payoutId, r.verdict])).toEqual([['payout_1', 'ok']]);
    expect(formatAudit(report)).toContain('OK: every payout matches the chain.');
  });

  it('reports a transfer by the payout wallet that no leg explains, with what it moved', () => {
    const s = paidScene();
    s.chain.txs.push({ ...(s.chain.txs[0] as AuditTx), hash: hash('3'), nonce: 2 });
    s.chain.transfers.push({
      token: TOKEN,
      from: FOUNDER,
      to: DEV,
      value: 95n * UNIT,
      txHash: hash('3'),
      logIndex: 0,
    });
    s.chain.signerNonces[SIGNER] = 3;
    const report = auditPayouts(s.ledger, s.chain);
    expect(report.differences.map((d) => d.code)).toEqual(['unexplained_transfer']);
    expect(report.differences[0]?.message).toContain(`95 of`);
    expect(formatAudit(report)).toContain('1 difference(s):');
  });

  it('reports a payout-wallet nonce no leg holds when the chain cannot say what it was', () => {
    const s = paidScene();
    s.chain.signerNonces[SIGNER] = 3;
    expect(codes(s)).toEqual(['signer_tx_without_leg']);
  });

  it('takes a nonce filler (0 ETH to itself) for what it is: a note, not a payment', () => {
    const s = paidScene();
    s.chain.txs.push({
      hash: hash('4'),
      sender: SIGNER,
      nonce: 2,
      status: 'success',
      to: SIGNER,
      value: 0n,
      input: '0x',
    });
    s.chain.signerNonces[SIGNER] = 3;
    const report = auditPayouts(s.ledger, s.chain);
    expect(report.differences).toEqual([]);
    expect(report.notes.join('\n')).toContain('filled');
  });

  it('reports a leg that moved a different amount than the payout says', () => {
    const s = paidScene();
    (s.chain.transfers[0] as { value: bigint }).value = 96n * UNIT;
    expect(codes(s)).toEqual(['leg_transfer_differs']);
    expect(auditPayouts(s.ledger, s.chain).rows[0]?.verdict).toBe('DIFFERENT');
  });

  it('reports a leg row tampered to another address', () => {
    const s = paidScene();
    (s.ledger.legs[0] as { toAddress: string }).toAddress = addr('b');
    expect(codes(s)).toEqual(['leg_not_as_intended']);
  });

  it('reports a confirmed payout whose fee transfer is not on chain', () => {
    const s = paidScene();
    s.chain.txs = s.chain.txs.filter((t) => t.hash !== hash('2'));
    s.chain.transfers = s.chain.transfers.filter((t) => t.txHash !== hash('2'));
    s.chain.signerNonces[SIGNER] = 1;
    expect(codes(s)).toEqual(['leg_not_on_chain']);
  });

  it('reports a leg recorded reverted whose transaction paid', () => {
    const s = paidScene();
    const fee = s.ledger.legs[1] as { status: string };
    fee.status = 'reverted';
    expect(codes(s)).toContain('leg_status_differs');
    expect(codes(s)).toContain('confirmed_not_paid');
  });

  it('reports an approved submission with no payout, and one recording other hashes', () => {
    const s = paidScene();
    s.ledger.submissions.push({
      id: 'sub_2',
      bountyId: 'bnt_2',
      status: 'approved',
      submitterWallet: DEV,
      contributorTxHash: hash('7'),
      platformFeeTxHash: hash('8'),
      rewardUnits: UNIT,
      feeUnits: 0n,
    });
    s.ledger.bounties.push({ id: 'bnt_2', status: 'done' });
    (s.ledger.submissions[0] as { platformFeeTxHash: string }).platformFeeTxHash = hash('9');
    expect(codes(s).sort()).toEqual(['approved_without_payout', 'submission_differs']);
  });

  it('reports a payout to someone other than the submitter, and a done bounty with no approval', () => {
    const s = paidScene();
    (s.ledger.submissions[0] as { submitterWallet: string }).submitterWallet = addr('c');
    s.ledger.bounties.push({ id: 'bnt_3', status: 'done' });
    expect(codes(s).sort()).toEqual(['bounty_differs', 'paid_to_someone_else']);
  });

  it('leaves an unfinished payout to the reconciler: a note, not a difference', () => {
    const s = paidScene();
    const p = s.ledger.payouts[0] as { status: string };
    p.status = 'pending';
    (s.ledger.submissions[0] as { status: string }).status = 'pending';
    (s.ledger.bounties[0] as { status: string }).status = 'in_review';
    for (const l of s.ledger.legs) Object.assign(l, { status: 'sent', txHash: null });
    s.chain.txs = s.chain.txs.slice(0, 1);
    s.chain.transfers = s.chain.transfers.slice(0, 1);
    s.chain.signerNonces[SIGNER] = 1;
    const report = auditPayouts(s.ledger, s.chain);
    expect(report.differences).toEqual([]);
    expect(report.rows[0]?.verdict).toBe('in flight');
    expect(report.notes.length).toBeGreaterThan(0);
  });
});
