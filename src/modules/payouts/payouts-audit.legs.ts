import {
  type AuditContext,
  describeTransfer,
  isFiller,
  lc,
  legTransfers,
  tokens,
} from './payouts-audit.context.ts';
import type { AuditLeg, AuditPayout, AuditTransfer, AuditTx } from './payouts-audit.types.ts';

type Want = { token: string; from: string; to: string; value: bigint };

const transferKey = (t: Want) => `${lc(t.token)}:${lc(t.from)}:${lc(t.to)}:${t.value}`;

/** The transaction moved exactly these transfers, in any order, and nothing else. */
function movedExactly(moved: AuditTransfer[], want: Want[]): boolean {
  const a = moved.map(transferKey).sort();
  const b = want.map(transferKey).sort();
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

/** Every leg against the chain: what mined is what the leg says, to the right place. */
export function checkLegs(ctx: AuditContext): void {
  const { ledger, chain, differ, notes, txByHash, payoutById } = ctx;
  const unfinal = new Set((chain.unfinal ?? []).map(lc));
  for (const leg of ledger.legs) {
    const payout = payoutById.get(leg.payoutId);
    if (!payout) {
      differ({ code: 'leg_without_payout', message: `leg ${leg.id} belongs to no payout` });
      continue;
    }
    const at = { payoutId: payout.id };
    // The leg row names the contributor's share for `contributor` and `payout` legs, the fee for `fee`.
    const want = {
      to: leg.kind === 'fee' ? payout.treasuryAddress : payout.contributorAddress,
      value: leg.kind === 'fee' ? payout.feeUnits : payout.contributorUnits,
    };
    if (lc(leg.toAddress) !== lc(want.to) || leg.amountUnits !== want.value) {
      differ({
        ...at,
        code: 'leg_not_as_intended',
        message: `${leg.kind} leg ${leg.id} pays ${tokens(leg.amountUnits)} to ${leg.toAddress}; the payout says ${tokens(want.value)} to ${want.to}`,
      });
    }
    const mined = leg.attempts.map((h) => txByHash.get(lc(h))).filter((t): t is AuditTx => t !== undefined);
    if (mined.length > 1) {
      differ({
        ...at,
        code: 'leg_mined_twice',
        message: `${leg.kind} leg ${leg.id} mined ${mined.length} times`,
      });
    }
    if (leg.status === 'dropped') {
      checkDropped(ctx, leg, mined);
      continue;
    }
    const tx = mined[0];
    const later = leg.attempts.find((h) => unfinal.has(lc(h)));
    if (!tx && later) {
      notes.push(`payout ${payout.id}: ${leg.kind} leg ${leg.id} mined in ${later} after the final block`);
      continue;
    }
    if (!tx) {
      if (leg.status === 'success' || leg.status === 'reverted') {
        differ({
          ...at,
          code: 'leg_not_on_chain',
          txHash: leg.txHash ?? undefined,
          message: `${leg.kind} leg ${leg.id} is recorded ${leg.status} but none of its transactions is on chain`,
        });
      } else if (leg.nonce < (chain.signerNonces[lc(leg.signer)] ?? 0)) {
        differ({
          ...at,
          code: 'leg_nonce_used_elsewhere',
          message: `${leg.kind} leg ${leg.id} holds nonce ${leg.nonce} of ${leg.signer}, which a transaction not of this leg used`,
        });
      } else if (payout.status === 'pending') {
        notes.push(
          `payout ${payout.id}: ${leg.kind} leg at nonce ${leg.nonce} not mined yet (${leg.status})`,
        );
      } else {
        differ({
          ...at,
          code: 'leg_open_on_closed_payout',
          message: `${leg.kind} leg ${leg.id} of a ${payout.status} payout may still mine (${leg.status}, nonce ${leg.nonce})`,
        });
      }
      continue;
    }
    if (lc(tx.sender) !== lc(leg.signer) || tx.nonce !== leg.nonce) {
      differ({
        ...at,
        code: 'leg_tx_not_as_signed',
        txHash: tx.hash,
        message: `${leg.kind} leg ${leg.id} mined from ${tx.sender} at nonce ${tx.nonce}; it was signed by ${leg.signer} at nonce ${leg.nonce}`,
      });
    }
    // A filler took the leg's nonce so that the leg can never mine: the leg must not count as paid.
    if (isFiller(tx)) {
      if (leg.status === 'success') {
        differ({
          ...at,
          code: 'leg_status_differs',
          txHash: tx.hash,
          message: `${leg.kind} leg ${leg.id} is recorded paid; its nonce ${leg.nonce} was filled by ${tx.hash}, which moved nothing`,
        });
      }
      continue;
    }
    checkMoved(ctx, leg, payout, tx);
  }
}

/** A mined leg moved what its kind says (a `payout` leg both transfers, in one transaction) and is recorded so. */
function checkMoved(ctx: AuditContext, leg: AuditLeg, payout: AuditPayout, tx: AuditTx): void {
  const { differ, notes, transfersByTx } = ctx;
  const at = { payoutId: payout.id };
  const moved = transfersByTx.get(lc(tx.hash)) ?? [];
  const expected = legTransfers(leg.kind, payout);
  if (tx.status === 'success' && !movedExactly(moved, expected)) {
    differ({
      ...at,
      code: 'leg_transfer_differs',
      txHash: tx.hash,
      message: `${leg.kind} leg ${leg.id} should move ${expected.map(describeTransfer).join('; ')}; its transaction moved ${
        moved.map(describeTransfer).join('; ') || 'nothing'
      }`,
    });
  }
  if (tx.status === 'reverted' && moved.length > 0) {
    differ({
      ...at,
      code: 'reverted_tx_moved_tokens',
      txHash: tx.hash,
      message: `reverted ${tx.hash} has Transfer logs`,
    });
  }
  const recorded = leg.status === 'success' || leg.status === 'reverted';
  if (recorded && (leg.status !== tx.status || lc(leg.txHash) !== lc(tx.hash))) {
    differ({
      ...at,
      code: 'leg_status_differs',
      txHash: tx.hash,
      message: `${leg.kind} leg ${leg.id} is recorded ${leg.status} in ${leg.txHash ?? 'no transaction'}; the chain has ${tx.hash} ${tx.status}`,
    });
  } else if (!recorded && payout.status === 'pending') {
    notes.push(`payout ${payout.id}: ${leg.kind} leg mined ${tx.status} in ${tx.hash}, not recorded yet`);
  } else if (!recorded) {
    differ({
      ...at,
      code: 'leg_mined_unrecorded',
      txHash: tx.hash,
      message: `${leg.kind} leg ${leg.id} of a ${payout.status} payout mined ${tx.status} in ${tx.hash} unrecorded`,
    });
  }
}

/**
 * A dropped leg moved nothing: none of its transactions mined (another transaction took its
 * nonce), and that nonce is used, so its signed bytes can never mine later.
 */
function checkDropped(ctx: AuditContext, leg: AuditLeg, mined: AuditTx[]): void {
  const { chain, differ, transfersByTx } = ctx;
  const at = { payoutId: leg.payoutId };
  for (const tx of mined) {
    const moved = transfersByTx.get(lc(tx.hash)) ?? [];
    differ(
      moved.length > 0
        ? {
            ...at,
            code: 'dropped_leg_moved',
            txHash: tx.hash,
            message: `${leg.kind} leg ${leg.id} is recorded dropped; its transaction ${tx.hash} mined and moved ${moved
              .map(describeTransfer)
              .join('; ')}`,
          }
        : {
            ...at,
            code: 'leg_status_differs',
            txHash: tx.hash,
            message: `${leg.kind} leg ${leg.id} is recorded dropped; its own transaction ${tx.hash} mined (${tx.status}) at nonce ${tx.nonce}`,
          },
    );
  }
  if (mined.length === 0 && leg.nonce >= (chain.signerNonces[lc(leg.signer)] ?? 0)) {
    differ({
      ...at,
      code: 'dropped_leg_may_mine',
      message: `${leg.kind} leg ${leg.id} is recorded dropped, but nonce ${leg.nonce} of ${leg.signer} is unused on chain: its signed transaction may still mine`,
    });
  }
}
