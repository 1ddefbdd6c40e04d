import type { DomainEvents } from './lib/domain-events.ts';
import type { HoldingsService } from './modules/holdings/holdings.service.ts';
import type { PayabilityService } from './modules/payability/payability.service.ts';

/**
 * The composition root's after-commit effects, in one place: which view follows which fact. The
 * services that make the changes only publish (`DomainEvents`); holdings (balances, ETH, curves)
 * and payability (the founder's `payable` marks) read the chain again. Each effect is a listener
 * of its own, so one failed read (logged) never skips the next.
 */
export function wireEffects(
  events: DomainEvents,
  views: {
    holdings: Pick<HoldingsService, 'afterAction' | 'refreshEth'>;
    payability: Pick<PayabilityService, 'afterChange'>;
  },
): void {
  const { holdings, payability } = views;
  // Gas paid, ETH sent or received, tokens perhaps moved: balances first, then the marks they back.
  events.on('wallet.acted', (e) => holdings.refreshEth([e.wallet]));
  events.on('wallet.acted', async (e) => {
    if (e.projectId && e.holders.length > 0) await holdings.afterAction(e.projectId, e.holders);
  });
  events.on('wallet.acted', async (e) => {
    if (e.projectId) await payability.afterChange(e.projectId);
  });
  // The founder's tokens went to the contributor: both holdings, and the founder's marks.
  events.on('payout.confirmed', (e) =>
    payability.afterChange(e.projectId, { project: e.project, holders: e.holders }),
  );
  // Stored as payable (the funds check passed), but the funds may have moved since that read; its
  // first computed value is not a change, so it records no event.
  events.on('bounty.posted', (e) => payability.afterChange(e.projectId, { quiet: [e.bountyId] }));
  // The new curve read once, so rewards are quoted from the first bounty on.
  events.on('project.activated', (e) => holdings.afterAction(e.projectId, []));
}
