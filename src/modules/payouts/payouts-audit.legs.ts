import { type AuditContext, describeTransfer, isFiller, lc, tokens } from './payouts-audit.context.ts';
import type { AuditTx } from './payouts-audit.types.ts';

/** Every leg against the chain: what mined is what the leg says, to the right place. */
export function checkLegs(ctx: AuditContext): void {
  const { ledger, chain, differ, notes, txByHash, transfersByTx, payoutById } = ctx;
  for (const leg of ledger.legs) {
    const payout = payoutById.get(leg.payoutId);
    if (!payout) {
      differ({ code: 'leg_without_payout', message: `leg ${leg.id} belongs to no payout` });
      continue;
    }
    const at = { payoutId: payout.id };
    const want = {
      to: leg.kind === 'contributor' ? payout.contributorAddress : payout.treasuryAddress,
      value: leg.kind === 'contributor' ? payout.contributorUnits : payout.feeUnits,
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
    const tx = mined[0];
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
    const moved = transfersByTx.get(lc(tx.hash)) ?? [];
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
    const expected = { token: payout.tokenAddress, from: payout.fromAddress, ...want };
    const exact =
      moved.length === 1 &&
      moved.every(
        (t) =>
          lc(t.token) === lc(expected.token) &&
          lc(t.from) === lc(expected.from) &&
          lc(t.to) === lc(expected.to) &&
          t.value === expected.value,
      );
    if (tx.status === 'success' && !exact) {
      differ({
        ...at,
        code: 'leg_transfer_differs',
        txHash: tx.hash,
        message: `${leg.kind} leg ${leg.id} should move ${describeTransfer(expected)}; its transaction moved ${
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
}
