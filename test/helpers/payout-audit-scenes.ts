/** Hand-fed scenes for the payout audit (`auditPayouts`): one paid bounty, then variations. */
import type {
  AuditBounty,
  AuditChain,
  AuditLedger,
  AuditLeg,
  AuditPayout,
  AuditSubmission,
  AuditTx,
} from '../../src/modules/payouts/payouts-audit.ts';

export const UNIT = 10n ** 18n;
export const addr = (c: string) => `0x${c.repeat(40)}`;
export const hash = (c: string) => `0x${c.repeat(64)}`;
export const TOKEN = addr('a');
export const FOUNDER = addr('f');
export const DEV = addr('d');
export const TREASURY = addr('e');
export const SIGNER = addr('5');

/** One confirmed payout of 100 tokens (95 + 5 fee) at the signer's nonces 0 and 1, as the chain shows it. */
export function paidScene(): { ledger: AuditLedger; chain: AuditChain } {
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
        founderMerged: false,
      },
    ],
    bounties: [{ id: 'bnt_1', status: 'done', paymentOwed: false }],
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

export const ROUTER = addr('7');

/** The same payout made the router's way: one `payout` leg, one transaction, two Transfer logs. */
export function routerScene(): { ledger: AuditLedger; chain: AuditChain } {
  const s = paidScene();
  s.ledger.legs = [
    {
      id: 'leg_p',
      payoutId: 'payout_1',
      kind: 'payout',
      signer: SIGNER,
      nonce: 0,
      toAddress: DEV,
      amountUnits: 95n * UNIT,
      status: 'success',
      txHash: hash('1'),
      attempts: [hash('1')],
    },
  ];
  Object.assign(s.ledger.submissions[0] as AuditSubmission, { platformFeeTxHash: hash('1') });
  s.chain.txs = [{ ...(s.chain.txs[0] as AuditTx), to: ROUTER }];
  s.chain.transfers = [
    { token: TOKEN, from: FOUNDER, to: DEV, value: 95n * UNIT, txHash: hash('1'), logIndex: 0 },
    { token: TOKEN, from: FOUNDER, to: TREASURY, value: 5n * UNIT, txHash: hash('1'), logIndex: 1 },
  ];
  s.chain.signerNonces[SIGNER] = 1;
  return s;
}

/**
 * The over-commit of two-leg payouts: the contributor transferFrom reverted (the founder's
 * allowance fell), the fee transferFrom after it paid; the payout failed, the submission waits.
 * Every leg agrees with the chain.
 */
export function overCommitScene(): { ledger: AuditLedger; chain: AuditChain } {
  const s = paidScene();
  Object.assign(s.ledger.payouts[0] as AuditPayout, { status: 'failed' });
  Object.assign(s.ledger.legs[0] as AuditLeg, { status: 'reverted' });
  Object.assign(s.ledger.submissions[0] as AuditSubmission, {
    status: 'pending',
    contributorTxHash: null,
    platformFeeTxHash: null,
    rewardUnits: null,
    feeUnits: null,
  });
  Object.assign(s.ledger.bounties[0] as AuditBounty, { status: 'in_review' });
  Object.assign(s.chain.txs[0] as AuditTx, { status: 'reverted' });
  s.chain.transfers = s.chain.transfers.filter((t) => t.to === TREASURY);
  return s;
}

/** A pending submission of bounty `bnt_9` whose pull request the founder merged, with no payout. */
export function mergedPending(s: { ledger: AuditLedger }, paymentOwed: boolean) {
  s.ledger.submissions.push({
    id: 'sub_9',
    bountyId: 'bnt_9',
    status: 'pending',
    submitterWallet: addr('9'),
    contributorTxHash: null,
    platformFeeTxHash: null,
    rewardUnits: null,
    feeUnits: null,
    founderMerged: true,
  });
  s.ledger.bounties.push({ id: 'bnt_9', status: 'in_review', paymentOwed });
}
