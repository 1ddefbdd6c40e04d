import { unitsToTokens } from '../../infra/chain/chain.ts';
import { AppError, invalidState } from '../../lib/errors.ts';
import type { ProjectRecord, ProjectsService } from '../projects/projects.service.ts';

const MAX_UINT256 = 2n ** 256n - 1n;

/** A `_units` field as a bigint; the schema has checked the digits, this checks the uint256 range. */
export function units(field: string, value: string | undefined, fallback = 0n): bigint {
  if (value === undefined) return fallback;
  const n = BigInt(value);
  if (n > MAX_UINT256) {
    throw new AppError('validation_error', 'The request body is invalid.', [
      { field, message: 'must fit in 256 bits' },
    ]);
  }
  return n;
}

/** What `what` (base units: "token units", "wei") counts in whole: tokens, ETH. */
const wholeName = (what: string) => (what === 'wei' ? 'ETH' : what.replace(/ units$/, 's'));

/**
 * The wallet holds less than the action needs: both amounts in whole tokens (or ETH), exact, as a
 * person typed them ("holds 0 tokens but this needs 0.5"); the base units follow for agents.
 */
export const insufficient = (what: string, have: bigint, need: bigint) =>
  new AppError(
    'insufficient_funds',
    `The wallet holds ${unitsToTokens(have)} ${wholeName(what)} but this needs ${unitsToTokens(need)} ` +
      `(${have} and ${need} ${what}).`,
  );

/** A project whose token can be traded: active, its token and curve deployed (else 409). */
export async function tradable(projects: Pick<ProjectsService, 'require'>, projectId: string) {
  const project: ProjectRecord = await projects.require(projectId);
  if (project.status !== 'active' || !project.tokenAddress || !project.curveAddress) {
    throw invalidState("The project's token can be traded only once the project is active.");
  }
  return { projectId, tokenAddress: project.tokenAddress, curveAddress: project.curveAddress };
}
