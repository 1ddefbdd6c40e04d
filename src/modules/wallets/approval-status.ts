import { unitsToTokens } from '../../infra/chain/chain.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import type { BountiesService } from '../bounties/bounties.service.ts';
import type { FundsService } from '../funds/funds.service.ts';
import type { ProjectsService } from '../projects/projects.service.ts';
import type { ApprovalStatusJson } from './wallets.schemas.ts';

/** What the founder's wallet can still back: the funds check of bounty creation, in figures. */
export async function approvalStatus(
  deps: {
    projects: Pick<ProjectsService, 'require'>;
    funds: Pick<FundsService, 'figures'>;
    bounties: Pick<BountiesService, 'committedUnits'>;
  },
  callerId: string,
  founderWallet: string | null,
  projectId: string,
) {
  const project = await deps.projects.require(projectId);
  if (project.founderId !== callerId)
    throw forbidden('Only the project founder can see its approval status.');
  if (!project.tokenAddress) {
    throw new AppError(
      'token_not_deployed',
      "The project's token is deployed when the project is activated.",
    );
  }
  if (!founderWallet) {
    throw new AppError('founder_without_wallet', 'The founder has no wallet address to hold tokens.');
  }
  const f = await deps.funds.figures(
    project.tokenAddress,
    founderWallet,
    await deps.bounties.committedUnits(projectId),
  );
  return {
    balance: unitsToTokens(f.balanceUnits),
    allowance: unitsToTokens(f.allowanceUnits),
    committed: unitsToTokens(f.committedUnits),
    available: unitsToTokens(f.availableUnits),
  } satisfies ApprovalStatusJson;
}
