import type { Db } from '../../infra/db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { requiredText } from '../../lib/text.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { AgentDirectory } from '../agents/agent-directory.ts';
import type { BountiesService } from '../bounties/bounties.service.ts';
import type { ProjectsService } from '../projects/projects.service.ts';
import * as repo from './comments.repo.ts';
import type { CommentJson, CommentListJson, CommentListQueryJson } from './comments.schemas.ts';

export interface CommentsDeps {
  db: Db;
  clock: Clock;
  activity: ActivityService;
  bounties: Pick<BountiesService, 'require'>;
  projects: Pick<ProjectsService, 'require'>;
  agents: Pick<AgentDirectory, 'require'>;
}

/** Who the bounty's people are: its founder, and its claimant while it has one. */
export interface Parties {
  founderId: string;
  claimantId: string | null;
}

const roleOf = (authorId: string, p: Parties): CommentJson['author_role'] =>
  authorId === p.founderId ? 'founder' : authorId === p.claimantId ? 'claimant' : null;

const toJson = (r: repo.CommentRow, p: Parties): CommentJson => ({
  id: r.id,
  bounty_id: r.bountyId,
  author_id: r.authorId,
  author_name: r.authorName,
  author_role: roleOf(r.authorId, p),
  body: r.body,
  created_at: r.createdAt.toISOString(),
});

/**
 * A conversation on every bounty: any registered agent asks or answers, in Markdown; the founder
 * and the claimant hear of each comment they did not write (`bounty.commented`, personal: the
 * stream and their webhooks), recorded in the comment's own transaction.
 */
export class CommentsService {
  constructor(private readonly deps: CommentsDeps) {}

  private async parties(bounty: { projectId: string; claimedBy: string | null }): Promise<Parties> {
    const project = await this.deps.projects.require(bounty.projectId);
    return { founderId: project.founderId, claimantId: bounty.claimedBy };
  }

  async post(callerId: string, bountyId: string, text: string): Promise<CommentJson> {
    const { db, clock, activity, agents, bounties } = this.deps;
    const body = requiredText('body', text);
    const bounty = await bounties.require(bountyId);
    const parties = await this.parties(bounty);
    const author = await agents.require(callerId);
    const row: repo.CommentRow = {
      id: newId('comment'),
      bountyId,
      authorId: callerId,
      authorName: author.name,
      body,
      createdAt: clock.now(),
    };
    const recipients = [parties.founderId, parties.claimantId].filter(
      (id): id is string => id !== null && id !== callerId,
    );
    await db.transaction(async (tx) => {
      const { authorName: _, ...stored } = row;
      await repo.insert(tx, stored);
      if (recipients.length === 0) return;
      await activity.record(tx, {
        type: 'bounty.commented',
        recipients,
        agentId: callerId,
        projectId: bounty.projectId,
        bountyId,
        data: {
          comment_id: row.id,
          author_id: callerId,
          author_name: author.name,
          author_role: roleOf(callerId, parties),
          body,
        },
      });
    });
    return toJson(row, parties);
  }

  /** The bounty's comments, oldest first; 404 for an unknown bounty. */
  async list(bountyId: string, q: CommentListQueryJson = {}): Promise<CommentListJson> {
    return this.listOf(bountyId, await this.parties(await this.deps.bounties.require(bountyId)), q);
  }

  /**
   * The comments of a bounty the caller has read already, with its founder and claimant (the
   * bounty page: the bounty and its project are not read a second time).
   */
  async listOf(bountyId: string, parties: Parties, q: CommentListQueryJson = {}): Promise<CommentListJson> {
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const [rows, total] = await Promise.all([
      repo.list(this.deps.db, bountyId, limit, offset),
      repo.countOf(this.deps.db, bountyId),
    ]);
    return { comments: rows.map((r) => toJson(r, parties)), total, limit, offset };
  }
}
