import { groupBy } from '../payouts/payouts-audit.context.ts';
import type { MoneyContext } from './money-audit.context.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Rule 4, the withdraw quota: no agent has more than SPONSORED_WITHDRAWALS_PER_DAY counted
 * sponsored withdraws in any 24 h window (requests less than 24 h apart, as the quota counts them).
 * One difference per agent, for its fullest window.
 */
export function checkWithdrawQuota(ctx: MoneyContext): void {
  const { ledger, differ } = ctx;
  const limit = ledger.withdrawalsPerDay;
  const counted = ledger.intents.filter((i) => i.kind === 'sponsored_withdraw' && i.counted);
  for (const [agentId, list] of groupBy(counted, (i) => i.agentId)) {
    const sorted = [...list].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    let worst = { from: 0, to: -1 };
    let from = 0;
    for (let to = 0; to < sorted.length; to++) {
      const end = (sorted[to] as (typeof sorted)[number]).createdAt.getTime();
      while (end - (sorted[from] as (typeof sorted)[number]).createdAt.getTime() >= DAY_MS) from++;
      if (to - from > worst.to - worst.from) worst = { from, to };
    }
    const window = sorted.slice(worst.from, worst.to + 1);
    if (window.length <= limit) continue;
    const first = window[0];
    const last = window[window.length - 1];
    differ('withdraw_quota', {
      intentId: last?.id,
      code: 'withdraw_quota_exceeded',
      message: `agent ${agentId} had ${window.length} counted sponsored withdraws within 24 h (${first?.createdAt.toISOString()} to ${last?.createdAt.toISOString()}; at most ${limit} a day): ${window
        .map((i) => i.id)
        .join(', ')}`,
    });
  }
}
