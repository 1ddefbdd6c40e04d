import { AppError } from '../../lib/errors.ts';
import type { ProjectsService } from '../projects/projects.service.ts';
import type { WalletOwner } from './wallet-keys.ts';

/**
 * Where a withdraw may not go: tokens or ETH sent there are gone for good, or go nowhere. The zero
 * address, the platform's own addresses and contracts (operator, payout key, router, treasury,
 * factory, sponsor), a project's token or curve, and the wallet itself: 400 `invalid_destination`.
 */
export class WithdrawDestinations {
  private readonly platform: Set<string>;

  constructor(
    platformAddresses: readonly string[],
    private readonly projects: Pick<ProjectsService, 'isContractAddress'>,
  ) {
    this.platform = new Set(platformAddresses.map((a) => a.toLowerCase()));
  }

  async assertAllowed(owner: WalletOwner, to: string): Promise<void> {
    if (BigInt(to) === 0n) throw refuse('the zero address');
    if (owner.walletAddress?.toLowerCase() === to.toLowerCase()) throw refuse('the wallet itself');
    if (this.platform.has(to.toLowerCase())) throw refuse("one of the platform's addresses or contracts");
    if (await this.projects.isContractAddress(to)) throw refuse("a project's token or curve contract");
  }
}

const refuse = (what: string) =>
  new AppError('invalid_destination', `A withdraw cannot go to ${what}.`, [
    { field: 'to', message: `must not be ${what}` },
  ]);
