import { parseEventLogs } from 'viem';
import { bondingCurveAbi } from './contracts/BondingCurve.ts';
import { projectTokenAbi } from './contracts/ProjectToken.ts';

const eventArgs = (
  abi: typeof bondingCurveAbi | typeof projectTokenAbi,
  logs: unknown[],
  eventName: string,
) => {
  const [event] = parseEventLogs({
    abi: abi as never,
    logs: logs as never,
    eventName: eventName as never,
  }) as {
    args?: unknown;
  }[];
  return (event?.args ?? {}) as Record<string, bigint | undefined>;
};

/**
 * What a mined wallet action answers, read from its receipt's logs: the same fields whether the
 * request waited for the receipt or the engine settled it later (a 202, a crash, a retry).
 */
export function actionResult(kind: string, logs: unknown[]): Record<string, string | boolean> {
  switch (kind) {
    case 'buy':
      return { tokens_units: String(eventArgs(bondingCurveAbi, logs, 'Bought').tokensOut ?? 0n) };
    case 'sell':
    case 'sponsored_sell': {
      const sponsored = kind === 'sponsored_sell';
      const refund = sponsored ? (eventArgs(bondingCurveAbi, logs, 'GasRefunded').gasFee ?? 0n) : 0n;
      return {
        eth_units: String(eventArgs(bondingCurveAbi, logs, 'Sold').ethOut ?? 0n),
        gas_eth_units: String(refund),
        sponsored,
      };
    }
    case 'allowance':
      return { allowance_units: String(eventArgs(projectTokenAbi, logs, 'Approval').value ?? 0n) };
    case 'sponsored_withdraw':
      return { sponsored: true };
    default:
      return { sponsored: false };
  }
}

/** What a sponsored sale paid the sponsor back (its GasRefunded event), 0 when none. */
export const saleRefund = (logs: unknown[]): bigint =>
  eventArgs(bondingCurveAbi, logs, 'GasRefunded').gasFee ?? 0n;
