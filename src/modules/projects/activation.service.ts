import type { Chain } from '../../infra/chain/chain.ts';
import type { Db } from '../../infra/db/client.ts';
import type { RepoHost } from '../../infra/repo-host/repo-host.ts';
import type { Clock } from '../../lib/clock.ts';
import type { DomainEvents } from '../../lib/domain-events.ts';
import { AppError, forbidden, invalidState } from '../../lib/errors.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { AgentDirectory } from '../agents/agent-directory.ts';
import * as repo from './projects.repo.ts';
import type { ProjectJson } from './projects.schemas.ts';
import type { ProjectsService } from './projects.service.ts';

export interface ActivationDeps {
  db: Db;
  clock: Clock;
  chain: Chain;
  repoHost: RepoHost;
  activity: ActivityService;
  agents: AgentDirectory;
  projects: ProjectsService;
  /** Long enough for a repository and a deployment; a crashed activation can be retried after it. */
  leaseMs: number;
  /** Told `project.activated` (holdings reads the new curve once, so rewards are quoted from the first bounty on). */
  events: Pick<DomainEvents, 'publish'>;
}

/** The repository's name follows from the project alone, so a retry finds the one it created. */
export function repositoryName(project: { id: string; tokenSymbol: string }): string {
  return `${project.tokenSymbol.toLowerCase()}-${project.id.slice(-12)}`;
}

/** GitHub refuses repository descriptions over 350 characters (422); a project's may run to 5000. */
const MAX_REPOSITORY_DESCRIPTION = 350;

/**
 * The project's description on one line without control characters (GitHub and the local host
 * refuse them with 422), cut to what GitHub accepts, ending with the project's
 * id: the mark by which a retried activation knows the repository as this project's own (a
 * repository of the same name without it is someone else's and is never adopted).
 */
export function repositoryDescription(project: {
  id: string;
  name: string;
  description: string | null;
}): string {
  const mark = ` · ${project.id}`;
  const room = MAX_REPOSITORY_DESCRIPTION - mark.length;
  const text =
    (project.description ?? '').replace(/[\s\p{Cc}]+/gu, ' ').trim() || `Bounties for ${project.name}`;
  const chars = Array.from(text);
  if (chars.length <= room) return `${text}${mark}`;
  const cut = chars.slice(0, room - 1).join('');
  return `${cut.trimEnd()}…${mark}`;
}

/**
 * proposed -> active: ensure the repository, deploy token and curve through the factory (CREATE2
 * by project id), then record both. Each step is idempotent, so a retry after any failure or
 * crash finishes the job without creating anything twice.
 */
export class ActivationService {
  constructor(private readonly deps: ActivationDeps) {}

  async activate(callerId: string, projectId: string): Promise<ProjectJson> {
    const { db, clock, chain, repoHost, activity, agents, projects } = this.deps;
    const project = await projects.require(projectId);
    if (project.founderId !== callerId) throw forbidden('Only the project founder can activate it.');
    if (project.status !== 'proposed') throw invalidState(`The project is ${project.status}, not proposed.`);
    const founder = await agents.require(callerId);
    if (!founder.walletAddress) {
      throw new AppError('founder_without_wallet', 'Set a wallet address before activating the project.');
    }
    const now = clock.now();
    if (!(await repo.takeActivationLease(db, projectId, now, new Date(now.getTime() + this.deps.leaseMs)))) {
      throw new AppError('operation_in_progress', 'An activation of this project is already in progress.');
    }
    let activated: repo.ProjectRow;
    try {
      // The founder maintains the repository: merges (which pay) and pushes to main are theirs.
      const repository = await repoHost.ensureRepository(repositoryName(project), {
        description: repositoryDescription(project),
        projectId: project.id,
        founderLogin: founder.repoLogin,
      });
      const deployed = await chain.deployProject(project.id, project.name, project.tokenSymbol);
      const done = clock.now();
      activated = await db.transaction(async (tx) => {
        const active = await repo.markActive(tx, projectId, {
          repoUrl: repository.htmlUrl,
          tokenAddress: deployed.tokenAddress,
          curveAddress: deployed.curveAddress,
          activatedAt: done,
          updatedAt: done,
        });
        if (!active) throw invalidState('The project was activated by another request.');
        await activity.record(tx, {
          type: 'project.activated',
          agentId: callerId,
          projectId,
          data: {
            repo_url: repository.htmlUrl,
            token_address: deployed.tokenAddress,
            curve_address: deployed.curveAddress,
          },
        });
        return active;
      });
    } catch (err) {
      await repo.releaseActivationLease(db, projectId);
      if (err instanceof AppError) throw err;
      const wrapped = new AppError(
        'upstream_error',
        'Activation failed; the project is still proposed. Try again.',
      );
      (wrapped as { cause?: unknown }).cause = err;
      throw wrapped;
    }
    // Outside the try: the project is active now, whatever these reads do.
    await this.deps.events.publish({ type: 'project.activated', projectId });
    return projects.present(activated);
  }
}
