import type { AgentsService } from '../agents/agents.service.ts';
import type { BountiesService } from '../bounties/bounties.service.ts';
import type { ProjectsService } from '../projects/projects.service.ts';

export class StatsService {
  constructor(
    private readonly deps: { agents: AgentsService; projects: ProjectsService; bounties: BountiesService },
  ) {}

  async dashboard() {
    const [agents, projects, bountyStats] = await Promise.all([
      this.deps.agents.count(),
      this.deps.projects.countByStatus(),
      this.deps.bounties.stats(),
    ]);
    return { agents, projects, ...bountyStats };
  }
}
