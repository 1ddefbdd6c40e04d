import { lc } from '../payouts/payouts-audit.context.ts';
import { CANCEL_KIND } from '../transactions/transactions.types.ts';
import { eth, type MoneyContext } from './money-audit.context.ts';
import type { AuditWalletTx } from './money-audit.types.ts';

/** A sale must pay the sponsor back at least this share of the gas it paid (in percent). */
const MIN_REFUND_PERCENT = 99n;

const isSponsor = (ctx: MoneyContext, address: string) => lc(address) === lc(ctx.ledger.sponsor);

/**
 * Rule 2, every sponsor transaction traced: each sponsor nonce from 0 to the sponsor's count at
 * the final block is held by a `wallet_txs` row whose hash mined there, and that row carries a
 * request or is a nonce filler (0 ETH to itself, no call). Rows with no request recorded before
 * the first request was (the journal before requests were recorded) are counted as notes.
 * Returns how many sponsor transactions the chain has, or null without a sponsor.
 */
export function checkSponsorNonces(ctx: MoneyContext): number | null {
  const { ledger, chain, differ, notes, final } = ctx;
  for (const row of ledger.walletTxs) if (row.kind === CANCEL_KIND && final(row.hash)) checkFiller(ctx, row);
  const sponsor = ledger.sponsor;
  if (!sponsor) {
    notes.push('no sponsor key is configured: sponsor nonces and spend are not checked');
    return null;
  }
  const count = chain.sponsorNonce ?? 0;
  const minedAt = new Map<number, AuditWalletTx>();
  for (const row of ledger.walletTxs) {
    if (isSponsor(ctx, row.signer) && final(row.hash)) minedAt.set(row.nonce, row);
  }
  const firstRequest = ledger.intents.reduce<Date | null>(
    (min, i) => (min === null || i.createdAt < min ? i.createdAt : min),
    null,
  );
  const missing: number[] = [];
  let before = 0;
  for (let n = 0; n < count; n++) {
    const row = minedAt.get(n);
    if (!row) {
      missing.push(n);
      continue;
    }
    if (row.intentId !== null || row.kind === CANCEL_KIND) continue;
    if (firstRequest === null || row.createdAt < firstRequest) {
      before++;
      continue;
    }
    differ('sponsor_nonces', {
      code: 'sponsor_tx_without_request',
      txHash: row.hash,
      message: `sponsor transaction ${row.hash} (${row.kind}, nonce ${n}) carries no request and is no nonce filler`,
    });
  }
  if (before > 0) {
    notes.push(
      `${before} sponsor transaction(s) were recorded before requests were (no request to trace them to)`,
    );
  }
  if (missing.length > 0) {
    differ('sponsor_nonces', {
      code: 'sponsor_nonce_unknown',
      message: `the sponsor ${sponsor} sent ${missing.length} transaction(s) the database does not know: no recorded transaction mined at nonce(s) ${missing
        .slice(0, 20)
        .join(', ')}${missing.length > 20 ? ', …' : ''} (of ${count} at the final block)`,
    });
  }
  return count;
}

/** A nonce filler moves nothing: 0 ETH from its signer to itself, no call. */
function checkFiller(ctx: MoneyContext, row: AuditWalletTx): void {
  const tx = ctx.chain.txs.find((t) => lc(t.hash) === lc(row.hash));
  if (
    tx &&
    lc(tx.to) === lc(row.signer) &&
    lc(tx.from) === lc(row.signer) &&
    tx.value === 0n &&
    tx.input === '0x'
  )
    return;
  ctx.differ('sponsor_nonces', {
    code: 'filler_not_empty',
    txHash: row.hash,
    message: tx
      ? `nonce filler ${row.hash} of ${row.signer} sent ${eth(tx.value)} to ${tx.to ?? 'a new contract'}${
          tx.input === '0x' ? '' : ' with call data'
        }; a filler sends 0 to itself`
      : `nonce filler ${row.hash} of ${row.signer} mined, but its transaction could not be read`,
  });
}

/**
 * Rule 3, sponsor spend matched by refunds: a confirmed sponsored sale paid the sponsor back at
 * least 99% of the gas it paid (the recorded figures, checked against the receipt), and no
 * sponsor transaction reverted: the sponsor only sends what a dry run passed, so one that reverts
 * is a bug the audit lists.
 */
export function checkSponsorSpend(ctx: MoneyContext): void {
  const { ledger, differ, final, attemptsOf, rowByHash } = ctx;
  if (!ledger.sponsor) return;
  for (const intent of ledger.intents) {
    if (intent.kind !== 'sponsored_sell' || intent.status !== 'confirmed') continue;
    const hash = attemptsOf(intent).find((h) => final(h)?.status === 'success');
    const receipt = hash ? final(hash) : undefined;
    // Not mined successfully by the final block: rule 1 says so.
    if (!hash || !receipt) continue;
    const row = rowByHash.get(lc(hash));
    const chainRefund = receipt.gasRefundUnits ?? 0n;
    const at = { intentId: intent.id, txHash: hash };
    if (
      row &&
      ((row.gasPaidUnits !== null && row.gasPaidUnits !== receipt.gasPaidUnits) ||
        (row.gasRefundUnits !== null && row.gasRefundUnits !== chainRefund))
    ) {
      differ('sponsor_spend', {
        ...at,
        code: 'sponsor_gas_recorded_differs',
        message: `sponsored sale ${intent.id} (${hash}) records gas paid ${row.gasPaidUnits ?? 'none'} and refunded ${
          row.gasRefundUnits ?? 'none'
        } wei; its receipt says ${receipt.gasPaidUnits} and ${chainRefund}`,
      });
    }
    const paid = row?.gasPaidUnits ?? receipt.gasPaidUnits;
    const refunded = row?.gasRefundUnits ?? chainRefund;
    if (refunded * 100n < paid * MIN_REFUND_PERCENT) {
      const share = paid === 0n ? 0n : (refunded * 10_000n) / paid;
      differ('sponsor_spend', {
        ...at,
        code: 'sponsor_underrefunded',
        message: `sponsored sale ${intent.id} (agent ${intent.agentId}, ${hash}): the sponsor paid ${eth(paid)} of gas and was refunded ${eth(
          refunded,
        )}, ${Number(share) / 100}% (at least ${MIN_REFUND_PERCENT}% expected)`,
      });
    }
  }
  for (const row of ledger.walletTxs) {
    const receipt = final(row.hash);
    if (!isSponsor(ctx, row.signer) || receipt?.status !== 'reverted') continue;
    differ('sponsor_spend', {
      ...(row.intentId ? { intentId: row.intentId } : {}),
      code: 'sponsor_tx_reverted',
      txHash: row.hash,
      message: `sponsor transaction ${row.hash} (${row.kind}${row.intentId ? ` for request ${row.intentId}` : ''}${
        row.agentId ? `, agent ${row.agentId}` : ''
      }, nonce ${row.nonce}) reverted at block ${receipt.blockNumber}, costing the sponsor ${eth(receipt.gasPaidUnits)}`,
    });
  }
}
