import { type HostUrls, repository } from './github-shapes.ts';
import { pullRequest } from './pull-shapes.ts';
import type { RepoStore, StoredPull, StoredRepo } from './store.ts';

type Json = Record<string, unknown>;

/** GitHub JSON for stored records, with what git knows now (branch tips, diff, mergeability). */
export class Views {
  constructor(
    readonly store: RepoStore,
    readonly urls: HostUrls,
  ) {}

  async repo(r: StoredRepo): Promise<Json> {
    const openPulls = r.pulls.filter((p) => p.state === 'open').length;
    const pushedAt = await this.store.git(r.org, r.name).lastCommitAt();
    return repository(this.urls, r, { openPulls, pushedAt });
  }

  /** One pull request in full (`pull-request`), as GET .../pulls/{n} answers. */
  async pull(r: StoredRepo, p: StoredPull, repoJson?: Json): Promise<Json> {
    const git = this.store.git(r.org, r.name);
    const tips = p.state === 'open' ? await this.tips(r, p) : { headSha: p.headSha, baseSha: p.baseSha };
    const stats = p.state === 'closed' && p.stats ? p.stats : await git.diffStats(tips.baseSha, tips.headSha);
    const mergeable = p.state === 'open' ? await git.mergeable(tips.baseSha, tips.headSha) : null;
    return pullRequest(this.urls, repoJson ?? (await this.repo(r)), r, p, { ...tips, stats, mergeable });
  }

  /** Pull requests as lists answer (`pull-request-simple`). */
  async pullList(r: StoredRepo, pulls: StoredPull[]): Promise<Json[]> {
    if (pulls.length === 0) return [];
    const repoJson = await this.repo(r);
    const branches = await this.store.git(r.org, r.name).branches();
    return pulls.map((p) => {
      const open = p.state === 'open';
      const headSha = (open && branches.get(p.head)) || p.headSha;
      const baseSha = (open && branches.get(p.base)) || p.baseSha;
      return pullRequest(this.urls, repoJson, r, p, { headSha, baseSha });
    });
  }

  /**
   * Current tips of an open pull request's branches; a deleted branch keeps its last known tip.
   * Both read by one git (every branch's tip), not one for each.
   */
  async tips(r: StoredRepo, p: StoredPull): Promise<{ headSha: string; baseSha: string }> {
    const branches = await this.store.git(r.org, r.name).branches();
    return { headSha: branches.get(p.head) ?? p.headSha, baseSha: branches.get(p.base) ?? p.baseSha };
  }
}
