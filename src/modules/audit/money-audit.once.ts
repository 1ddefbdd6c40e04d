import { lc } from '../payouts/payouts-audit.context.ts';
import { CANCEL_KIND } from '../transactions/transactions.types.ts';
import type { MoneyContext } from './money-audit.context.ts';
import type { AuditIntent, AuditWalletTx } from './money-audit.types.ts';

/**
 * Rule 1, no request executed twice: of an intent's attempts (every hash signed for it) at most
 * one has a successful receipt at the final block, read from the chain by hash whatever the
 * database says; a confirmed intent has exactly one (the hash it records), a failed one none.
 */
export function checkOnce(ctx: MoneyContext): void {
  const { ledger, differ, notes, final, unfinal, attemptsOf } = ctx;
  for (const intent of ledger.intents) {
    const at = { intentId: intent.id };
    const what = `${intent.kind} request ${intent.id} (agent ${intent.agentId})`;
    const hashes = attemptsOf(intent);
    const succeeded = hashes.filter((h) => final(h)?.status === 'success');
    const later = hashes.filter((h) => unfinal(h)?.status === 'success');
    if (succeeded.length > 1) {
      differ('once', {
        ...at,
        code: 'intent_executed_twice',
        txHash: succeeded[1],
        message: `${what} executed ${succeeded.length} times: ${succeeded.join(', ')} each mined successfully`,
      });
    }
    if (succeeded.length > 0 && later.length > 0) {
      notes.push(
        `${what}: ${later.join(', ')} mined successfully after the final block, besides ${succeeded.join(', ')} (executed twice once final)`,
      );
    }
    if (intent.status === 'confirmed') {
      if (succeeded.length === 0 && later.length > 0) {
        notes.push(`${what} is confirmed by ${later.join(', ')}, mined after the final block`);
      } else if (succeeded.length === 0) {
        differ('once', {
          ...at,
          code: 'confirmed_intent_not_executed',
          txHash: intent.txHash ?? undefined,
          message: `${what} is confirmed in ${intent.txHash ?? 'no transaction'}, but none of its ${hashes.length} attempt(s) mined successfully by the final block`,
        });
      } else if (succeeded.length === 1 && lc(intent.txHash) !== lc(succeeded[0])) {
        differ('once', {
          ...at,
          code: 'confirmed_intent_hash_differs',
          txHash: succeeded[0],
          message: `${what} records ${intent.txHash ?? 'no transaction'}; the attempt that mined successfully is ${succeeded[0]}`,
        });
      }
    } else if (intent.status === 'failed') {
      if (succeeded.length > 0) {
        differ('once', {
          ...at,
          code: 'failed_intent_executed',
          txHash: succeeded[0],
          message: `${what} is recorded failed (${intent.errorCode ?? 'no code'}), but ${succeeded.join(', ')} mined successfully`,
        });
      } else if (later.length > 0) {
        notes.push(
          `${what} is recorded failed; ${later.join(', ')} mined successfully after the final block`,
        );
      }
    } else {
      notes.push(`${what} is pending (nonce ${intent.nonce} of ${intent.signer}): the service finishes it`);
    }
  }
  for (const row of ledger.walletTxs) checkAttempt(ctx, row);
}

/** An attempt's row against its request and against its receipt. */
function checkAttempt(ctx: MoneyContext, row: AuditWalletTx): void {
  const { differ, notes, final, unfinal, intentById } = ctx;
  const intent: AuditIntent | undefined = row.intentId ? intentById.get(row.intentId) : undefined;
  const at = { txHash: row.hash, ...(row.intentId ? { intentId: row.intentId } : {}) };
  if (row.intentId && !intent) {
    differ('once', {
      ...at,
      code: 'attempt_of_unknown_request',
      message: `${row.kind} transaction ${row.hash} names request ${row.intentId}, which is not recorded`,
    });
  } else if (
    intent &&
    (lc(intent.signer) !== lc(row.signer) || (intent.kind !== row.kind && row.kind !== CANCEL_KIND))
  ) {
    // Every attempt is the request as asked, or the engine's cancel at its nonce (a filler, checked
    // by rule 2 to move nothing), signed by the request's signer.
    differ('once', {
      ...at,
      code: 'attempt_not_as_requested',
      message: `${row.hash} (${row.kind}, signed by ${row.signer}) carries request ${intent.id}, a ${intent.kind} to be signed by ${intent.signer}`,
    });
  }
  const receipt = final(row.hash);
  if (receipt && lc(receipt.from) !== lc(row.signer)) {
    differ('once', {
      ...at,
      code: 'attempt_sender_differs',
      message: `${row.hash} is recorded as signed by ${row.signer}; the chain says ${receipt.from} sent it`,
    });
  }
  const recorded = row.status === 'mined' ? 'success' : row.status === 'reverted' ? 'reverted' : null;
  if (recorded) {
    if (receipt?.status === recorded) return;
    if (!receipt && unfinal(row.hash)) {
      notes.push(`${row.kind} transaction ${row.hash} mined after the final block`);
      return;
    }
    differ('once', {
      ...at,
      code: 'attempt_status_differs',
      message: `${row.kind} transaction ${row.hash} is recorded ${row.status}; at the final block the chain has it ${
        receipt ? receipt.status : 'not mined'
      }`,
    });
  } else if (receipt && (row.status === 'failed' || row.status === 'dropped' || row.status === 'replaced')) {
    differ('once', {
      ...at,
      code: 'attempt_status_differs',
      message: `${row.kind} transaction ${row.hash} is recorded ${row.status}, but it mined (${receipt.status}) at block ${receipt.blockNumber}`,
    });
  } else if (receipt) {
    notes.push(
      `${row.kind} transaction ${row.hash} mined ${receipt.status}, not recorded yet (${row.status})`,
    );
  }
}
