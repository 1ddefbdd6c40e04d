import { describe, expect, it } from 'vitest';
import {
  type AuditBounty,
  type AuditChain,
  type AuditLedger,
  type AuditLeg,
  type AuditPayout,
  type AuditSubmission,
  type AuditTx,
  auditPayouts,
  formatAudit,
} from '../src/modules/payouts/payouts-audit.ts';
import {
  addr,
  DEV,
  FOUNDER,
  hash,
  mergedPending,
  overCommitScene,
  paidScene,
  routerScene,
  SIGNER,
  TOKEN,
  TREASURY,
  UNIT,
} from './helpers/payout-audit-scenes.ts';

/** The payout audit's comparison, fed by hand: one paid bounty, then one difference at a time. */

const codes = (s: { ledger: AuditLedger; chain: AuditChain }) =>
  auditPayouts(s.ledger, s.chain).differences.map((d) => d.code);

describe('auditPayouts', () => {
  it('finds nothing wrong with a payout the chain shows exactly', () => {
    const report = auditPayouts(paidScene().ledger, paidScene().chain);
    expect(report.differences).toEqual([]);
    expect(report.rows.map((r) => [r.payoutId, r.verdict])).toEqual([['payout_1', 'ok']]);
    expect(formatAudit(report)).toContain(
      'OK: every payout matches the chain, and what moved keeps the payment rules.',
    );
  });

  it('reports a transfer by the payout wallet that no leg explains, with what it moved, and the second payment', () => {
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
    expect(report.differences.map((d) => d.code)).toEqual(['unexplained_transfer', 'contributor_paid_twice']);
    expect(report.differences[0]?.message).toContain(`95 of`);
    expect(report.differences[1]).toMatchObject({ payoutId: 'payout_1' });
    expect(report.differences[1]?.message).toContain(`${hash('1')}, ${hash('3')}`);
    expect(formatAudit(report)).toContain('2 difference(s):');
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
      founderMerged: false,
    });
    s.ledger.bounties.push({ id: 'bnt_2', status: 'done', paymentOwed: false });
    (s.ledger.submissions[0] as { platformFeeTxHash: string }).platformFeeTxHash = hash('9');
    expect(codes(s).sort()).toEqual(['approved_without_payout', 'submission_differs']);
  });

  it('reports a payout to someone other than the submitter, and a done bounty with no approval', () => {
    const s = paidScene();
    (s.ledger.submissions[0] as { submitterWallet: string }).submitterWallet = addr('c');
    s.ledger.bounties.push({ id: 'bnt_3', status: 'done', paymentOwed: false });
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

describe('auditPayouts: the payment rules, on what moved', () => {
  it('reports the over-commit (a fee paid while its contributor transfer reverted) though the ledger agrees', () => {
    const s = overCommitScene();
    const report = auditPayouts(s.ledger, s.chain);
    expect(report.differences.map((d) => [d.code, d.payoutId, d.txHash])).toEqual([
      ['fee_without_contributor', 'payout_1', hash('2')],
    ]);
    expect(report.differences[0]?.message).toContain(`no transfer to the contributor ${DEV}`);
    expect(report.rows[0]?.verdict).toBe('DIFFERENT');

    // Rejecting the submission afterwards leaves the fee gone and nothing paid: still a difference.
    Object.assign(s.ledger.submissions[0] as AuditSubmission, { status: 'rejected' });
    Object.assign(s.ledger.bounties[0] as AuditBounty, { status: 'open' });
    expect(codes(s)).toEqual(['fee_without_contributor']);
  });

  it('takes a fee whose contributor transfer is being signed again for work in flight: a note', () => {
    const s = overCommitScene();
    Object.assign(s.ledger.payouts[0] as AuditPayout, { status: 'pending' });
    s.ledger.legs.push({
      ...(s.ledger.legs[0] as AuditLeg),
      id: 'leg_c2',
      nonce: 2,
      status: 'sent',
      txHash: null,
      attempts: [hash('6')],
    });
    const report = auditPayouts(s.ledger, s.chain);
    expect(report.differences).toEqual([]);
    expect(report.notes.join('\n')).toContain(
      'its contributor transfer is still to mine (contributor leg leg_c2',
    );

    // Once that leg's transaction reverted too, nothing is coming.
    s.chain.txs.push({ ...(s.chain.txs[0] as AuditTx), hash: hash('6'), nonce: 2, status: 'reverted' });
    s.chain.signerNonces[SIGNER] = 3;
    expect(codes(s)).toEqual(['fee_without_contributor']);
  });

  it('reports a fee the payout key sent outside any leg, with no contributor transfer', () => {
    const s = overCommitScene();
    s.ledger.legs = s.ledger.legs.slice(0, 1);
    s.chain.signerNonces[SIGNER] = 2;
    const report = auditPayouts(s.ledger, s.chain);
    expect(report.differences.map((d) => d.code)).toEqual([
      'unexplained_transfer',
      'fee_without_contributor',
    ]);
  });

  it('reports founder funds the payout key moved to anyone but the submitter or the treasury', () => {
    const s = paidScene();
    const stranger = addr('c');
    s.chain.txs.push({ ...(s.chain.txs[0] as AuditTx), hash: hash('3'), nonce: 2 });
    s.chain.transfers.push({
      token: TOKEN,
      from: FOUNDER,
      to: stranger,
      value: UNIT,
      txHash: hash('3'),
      logIndex: 0,
    });
    s.chain.signerNonces[SIGNER] = 3;
    // The founder's own transfer to the same address is the founder's business.
    s.chain.txs.push({ ...(s.chain.txs[0] as AuditTx), hash: hash('4'), sender: FOUNDER, nonce: 7 });
    s.chain.transfers.push({
      token: TOKEN,
      from: FOUNDER,
      to: stranger,
      value: UNIT,
      txHash: hash('4'),
      logIndex: 0,
    });
    const report = auditPayouts(s.ledger, s.chain);
    expect(report.differences.map((d) => [d.code, d.txHash])).toEqual([
      ['unexplained_transfer', hash('3')],
      ['founder_funds_to_stranger', hash('3')],
    ]);
    expect(report.differences[1]?.message).toContain(`from ${FOUNDER} to ${stranger}`);
  });

  it('reports a leg that paid a stranger instead of the contributor: by its leg and by the rules', () => {
    const s = paidScene();
    (s.chain.transfers[0] as { to: string }).to = addr('c');
    expect(codes(s)).toEqual([
      'leg_transfer_differs',
      'founder_funds_to_stranger',
      'fee_without_contributor',
    ]);
  });

  it('reports a founder-merged submission neither paid nor flagged owed', () => {
    const s = paidScene();
    mergedPending(s, false);
    const report = auditPayouts(s.ledger, s.chain);
    expect(report.differences.map((d) => d.code)).toEqual(['merged_not_paid_or_owed']);
    expect(report.differences[0]?.message).toContain('sub_9');
    expect(report.differences[0]?.message).toContain('not flagged payment_owed');

    const owed = paidScene();
    mergedPending(owed, true);
    expect(codes(owed)).toEqual([]);
  });

  it('accepts a founder-merged submission that is paid, or whose payout is being made', () => {
    const paid = paidScene();
    Object.assign(paid.ledger.submissions[0] as AuditSubmission, { founderMerged: true });
    expect(codes(paid)).toEqual([]);

    const inFlight = paidScene();
    Object.assign(inFlight.ledger.payouts[0] as AuditPayout, { status: 'pending' });
    Object.assign(inFlight.ledger.submissions[0] as AuditSubmission, {
      status: 'pending',
      founderMerged: true,
    });
    Object.assign(inFlight.ledger.bounties[0] as AuditBounty, { status: 'in_review' });
    for (const l of inFlight.ledger.legs) Object.assign(l, { status: 'sent', txHash: null });
    inFlight.chain = { txs: [], transfers: [], signerNonces: { [SIGNER]: 0 } };
    const report = auditPayouts(inFlight.ledger, inFlight.chain);
    expect(report.differences).toEqual([]);
    expect(report.notes.join('\n')).toContain('merged by the founder, its payout payout_1 is being made');
  });

  it('reports an over-committed founder-merged submission, and its rejection, but not its owed flag', () => {
    const s = overCommitScene();
    Object.assign(s.ledger.submissions[0] as AuditSubmission, { founderMerged: true });
    Object.assign(s.ledger.bounties[0] as AuditBounty, { paymentOwed: true });
    expect(codes(s)).toEqual(['fee_without_contributor']);

    Object.assign(s.ledger.submissions[0] as AuditSubmission, { status: 'rejected' });
    Object.assign(s.ledger.bounties[0] as AuditBounty, { status: 'open', paymentOwed: false });
    const report = auditPayouts(s.ledger, s.chain);
    expect(report.differences.map((d) => d.code)).toEqual([
      'fee_without_contributor',
      'merged_not_paid_or_owed',
    ]);
    expect(report.differences[1]?.message).toContain('it is rejected, its payout payout_1 failed');
  });

  it('reports a bounty flagged owed with no founder-merged submission waiting', () => {
    const s = paidScene();
    Object.assign(s.ledger.bounties[0] as AuditBounty, { paymentOwed: true });
    expect(codes(s)).toEqual(['owed_flag_differs']);
  });
});

describe('auditPayouts: router payouts and dropped legs', () => {
  it('finds nothing wrong with one payout transaction that moved both transfers', () => {
    const report = auditPayouts(routerScene().ledger, routerScene().chain);
    expect(report.differences).toEqual([]);
    expect(report.rows.map((r) => [r.verdict, r.contributorTx, r.feeTx])).toEqual([
      ['ok', hash('1'), hash('1')],
    ]);
  });

  it('reports a payout transaction that moved only one of its two transfers', () => {
    const noFee = routerScene();
    noFee.chain.transfers = noFee.chain.transfers.filter((t) => t.to === DEV);
    expect(codes(noFee)).toEqual(['leg_transfer_differs']);

    const feeOnly = routerScene();
    feeOnly.chain.transfers = feeOnly.chain.transfers.filter((t) => t.to === TREASURY);
    expect(codes(feeOnly)).toEqual(['leg_transfer_differs', 'fee_without_contributor']);
  });

  it('reports a payout paid by two live payout legs', () => {
    const s = routerScene();
    s.ledger.legs.push({
      ...(s.ledger.legs[0] as AuditLeg),
      id: 'leg_p2',
      nonce: 1,
      txHash: hash('2'),
      attempts: [hash('2')],
    });
    s.chain.txs.push({ ...(s.chain.txs[0] as AuditTx), hash: hash('2'), nonce: 1 });
    s.chain.transfers.push(...s.chain.transfers.map((t, i) => ({ ...t, txHash: hash('2'), logIndex: i })));
    s.chain.signerNonces[SIGNER] = 2;
    expect(codes(s).sort()).toEqual([
      'confirmed_not_paid',
      'contributor_paid_twice',
      'fee_paid_twice',
      'two_live_legs',
    ]);
  });

  /** The first payout leg lost nonce 0 to a transaction the service did not sign; a new leg paid at nonce 1. */
  function droppedScene() {
    const s = routerScene();
    const paid = s.ledger.legs[0] as AuditLeg;
    s.ledger.legs = [
      { ...paid, id: 'leg_lost', status: 'dropped', txHash: null, attempts: [hash('3')] },
      { ...paid, nonce: 1 },
    ];
    Object.assign(s.chain.txs[0] as AuditTx, { nonce: 1 });
    s.chain.signerNonces[SIGNER] = 2;
    return s;
  }

  it('accepts a dropped leg that moved nothing and whose nonce another transaction used', () => {
    const report = auditPayouts(droppedScene().ledger, droppedScene().chain);
    expect(report.differences).toEqual([]);
    expect(report.notes.join('\n')).toContain(
      '(leg leg_lost, dropped) was used by a transaction the service did not sign',
    );
  });

  it('judges the transaction that took a dropped leg’s nonce by what it moved', () => {
    const s = droppedScene();
    s.chain.txs.push({
      hash: hash('4'),
      sender: SIGNER,
      nonce: 0,
      status: 'success',
      to: SIGNER,
      value: 0n,
      input: '0x',
    });
    expect(auditPayouts(s.ledger, s.chain).differences).toEqual([]);
    (s.chain.txs[1] as { to: string }).to = addr('c');
    (s.chain.txs[1] as { value: bigint }).value = UNIT;
    expect(codes(s)).toEqual(['unexplained_transfer']);
  });

  it('reports a dropped leg whose own transaction mined and paid', () => {
    const s = droppedScene();
    s.chain.txs.push({ ...(s.chain.txs[0] as AuditTx), hash: hash('3'), nonce: 0 });
    s.chain.transfers.push(...s.chain.transfers.map((t) => ({ ...t, txHash: hash('3') })));
    expect(codes(s)).toEqual(['dropped_leg_moved', 'contributor_paid_twice', 'fee_paid_twice']);
  });

  it('reports a dropped leg whose nonce is still unused: its bytes may still mine', () => {
    // Recorded dropped at nonce 1 after the paying leg at nonce 0; the chain (a reorg, say) has nonce 1 free.
    const s = routerScene();
    s.ledger.legs.push({
      ...(s.ledger.legs[0] as AuditLeg),
      id: 'leg_lost',
      nonce: 1,
      status: 'dropped',
      txHash: null,
      attempts: [hash('3')],
    });
    expect(codes(s)).toEqual(['dropped_leg_may_mine']);
  });
});
