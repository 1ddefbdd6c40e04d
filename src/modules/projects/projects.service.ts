import type { Db } from '../../infra/db/client.ts';
import { uniqueViolation } from '../../infra/db/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import { stripHidden } from '../../lib/text.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import { NO_REVIEWS, toProjectJson, toReviewStatsJson } from './projects.mappers.ts';
import * as repo from './projects.repo.ts';
import type { CreateProjectBody, ProjectJson, ProjectListQuery } from './projects.schemas.ts';

export interface ProjectsDeps {
  db: Db;
  clock: Clock;
  activity: ActivityService;
}

/** What other modules need to know about a project. */
export type ProjectRecord = repo.ProjectRow;

const WEEK_MS = 7 * 24 * 3_600_000;

export class ProjectsService {
  constructor(private readonly deps: ProjectsDeps) {}

  async create(founderId: string, body: CreateProjectBody): Promise<ProjectJson> {
    const { db, clock, activity } = this.deps;
    const now = clock.now();
    try {
      const row = await db.transaction(async (tx) => {
        const created = await repo.insert(tx, {
          id: newId('project'),
          name: body.name,
          description: body.description === undefined ? null : stripHidden(body.description),
          status: 'proposed',
          founderId,
          tokenSymbol: body.token_symbol,
          repoUrl: null,
          tokenAddress: null,
          curveAddress: null,
          createdAt: now,
          activatedAt: null,
          activationLeaseUntil: null,
          updatedAt: now,
        });
        await activity.record(tx, {
          type: 'project.created',
          agentId: founderId,
          projectId: created.id,
          data: { name: created.name, token_symbol: created.tokenSymbol },
        });
        return created;
      });
      // A new project has no bounties, so nothing to review yet.
      return toProjectJson(row, NO_REVIEWS);
    } catch (err) {
      if (uniqueViolation(err) === 'projects_token_symbol_key') {
        throw new AppError(
          'symbol_taken',
          `The token symbol ${body.token_symbol} is already used by another project.`,
        );
      }
      throw err;
    }
  }

  async get(id: string): Promise<ProjectJson> {
    return this.present(await this.require(id));
  }

  /**
   * Several projects as the API shows them, in one read and one grouped review-stats query (the
   * board shows a page of bounties from many projects); unknown ids are left out.
   */
  async getMany(ids: string[]): Promise<ProjectJson[]> {
    const valid = [...new Set(ids)].filter((id) => isId('project', id));
    if (valid.length === 0) return [];
    return this.presentAll(await repo.findByIds(this.deps.db, valid));
  }

  /** The project as the API shows it, with its founder's review record. */
  async present(row: ProjectRecord): Promise<ProjectJson> {
    return (await this.presentAll([row]))[0] as ProjectJson;
  }

  /** Projects as the API shows them; the review figures of all of them in one grouped query. */
  private async presentAll(rows: ProjectRecord[]): Promise<ProjectJson[]> {
    if (rows.length === 0) return [];
    const staleBefore = new Date(this.deps.clock.now().getTime() - WEEK_MS);
    const stats = await repo.reviewStats(
      this.deps.db,
      rows.map((r) => r.id),
      staleBefore,
    );
    const byProject = new Map(stats.map((s) => [s.projectId, s]));
    return rows.map((r) => toProjectJson(r, toReviewStatsJson(byProject.get(r.id))));
  }

  /** The stored project, for modules that apply rules to it (bounties). */
  async require(id: string): Promise<ProjectRecord> {
    const row = isId('project', id) ? await repo.findById(this.deps.db, id) : undefined;
    if (!row) throw notFound('project');
    return row;
  }

  /** True when the address is a project's token or curve: funds sent there are lost to the sender. */
  async isContractAddress(address: string): Promise<boolean> {
    return repo.hasContractAt(this.deps.db, address);
  }

  async list(q: ProjectListQuery) {
    const filter = { status: q.status, founderId: q.founder_id, limit: q.limit, offset: q.offset };
    const [rows, total] = await Promise.all([
      repo.list(this.deps.db, filter),
      repo.countMatching(this.deps.db, filter),
    ]);
    return { projects: await this.presentAll(rows), total, limit: q.limit, offset: q.offset };
  }

  async countByStatus() {
    const counts = await repo.countByStatus(this.deps.db);
    const proposed = counts.proposed ?? 0;
    const active = counts.active ?? 0;
    return { total: proposed + active, proposed, active };
  }
}
