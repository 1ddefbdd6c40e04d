import { type Actor, maintains, sameLogin } from './auth.ts';
import { diffEntry } from './commit-shapes.ts';
import { pullRequestEvent } from './pull-shapes.ts';
import {
  type ApiResponse,
  type Body,
  forbidden,
  notFound,
  paging,
  refused,
  validationFailed,
} from './responses.ts';
import { type StoredPull, type StoredRepo, stableId } from './store.ts';
import type { Views } from './views.ts';
import type { WebhookSender } from './webhooks.ts';

const invalid = (field: string, code: 'missing_field' | 'invalid' = 'invalid') =>
  validationFailed([{ resource: 'PullRequest', code, field }]);
const custom = (message: string) => validationFailed([{ resource: 'PullRequest', code: 'custom', message }]);
const notMergeable = () => refused(405, 'Pull Request is not mergeable');

type Outcome = ApiResponse | { pull: StoredPull; action?: string };
const isResponse = (o: Outcome): o is ApiResponse => 'status' in o;

const founderOnly = () => forbidden("Only the project's founder may merge pull requests in this repository.");
const authorOnly = () => forbidden("Only the pull request's author or the project's founder may change it.");

/**
 * Pull requests: open, read, list, edit (close/reopen), merge; webhooks as GitHub sends them.
 * Any agent opens one (as its author); its author or the founder edits it; the founder merges.
 */
export class PullsApi {
  constructor(
    private readonly views: Views,
    private readonly webhooks: WebhookSender,
  ) {}

  private get store() {
    return this.views.store;
  }

  async list([owner = '', name = '']: string[], q: URLSearchParams): Promise<ApiResponse> {
    const repo = await this.store.get(owner, name);
    if (!repo) return notFound();
    const state = q.get('state') ?? 'open';
    if (!['open', 'closed', 'all'].includes(state)) return invalid('state');
    const head = q.get('head');
    const base = q.get('base');
    const key = q.get('sort') === 'updated' ? 'updatedAt' : 'createdAt';
    const desc = (q.get('direction') ?? (q.get('sort') === 'updated' ? 'asc' : 'desc')) === 'desc';
    const { perPage, from } = paging(q);
    const pulls = repo.pulls
      .filter((p) => state === 'all' || p.state === state)
      .filter((p) => !head || `${repo.org}:${p.head}` === head)
      .filter((p) => !base || p.base === base)
      .sort((a, b) => (a[key] === b[key] ? a.number - b.number : a[key] < b[key] ? -1 : 1) * (desc ? -1 : 1))
      .slice(from, from + perPage);
    return { status: 200, body: await this.views.pullList(repo, pulls) };
  }

  async get([owner = '', name = '', n = '']: string[]): Promise<ApiResponse> {
    const repo = await this.store.get(owner, name);
    const pull = repo?.pulls.find((p) => p.number === Number(n));
    return repo && pull ? { status: 200, body: await this.views.pull(repo, pull) } : notFound();
  }

  /** `GET .../pulls/{n}/files`: the diff base...head file by file (GitHub lists at most 3000). */
  async files([owner = '', name = '', n = '']: string[], q: URLSearchParams): Promise<ApiResponse> {
    const repo = await this.store.get(owner, name);
    const pull = repo?.pulls.find((p) => p.number === Number(n));
    if (!repo || !pull) return notFound();
    const tips =
      pull.state === 'open'
        ? await this.views.tips(repo, pull)
        : { headSha: pull.headSha, baseSha: pull.baseSha };
    const files = (await this.store.git(owner, name).diffFiles(tips.baseSha, tips.headSha)).slice(0, 3000);
    const { perPage, from } = paging(q);
    return {
      status: 200,
      body: files.slice(from, from + perPage).map((f) => diffEntry(this.views.urls, repo, tips.headSha, f)),
    };
  }

  async isMerged([owner = '', name = '', n = '']: string[]): Promise<ApiResponse> {
    const repo = await this.store.get(owner, name);
    const pull = repo?.pulls.find((p) => p.number === Number(n));
    return pull?.merged ? { status: 204 } : notFound();
  }

  async create([owner = '', name = '']: string[], b: Body, actor: Actor): Promise<ApiResponse> {
    for (const field of ['title', 'head', 'base'])
      if (typeof b[field] !== 'string' || (b[field] as string).trim() === '')
        return invalid(field, 'missing_field');
    const [title, headSpec, base] = [b.title, b.head, b.base] as [string, string, string];
    // `owner:branch` names a fork's branch; only this organization's own branches exist here.
    const colon = headSpec.indexOf(':');
    if (colon !== -1 && headSpec.slice(0, colon) !== owner) return invalid('head');
    const head = headSpec.slice(colon + 1);
    const git = this.store.git(owner, name);
    return this.change(owner, name, 201, actor, async (repo) => {
      const headSha = await git.branchSha(head);
      const baseSha = await git.branchSha(base);
      if (!headSha) return invalid('head');
      if (!baseSha) return invalid('base');
      if (repo.pulls.some((p) => p.state === 'open' && p.head === head && p.base === base))
        return custom(`A pull request already exists for ${owner}:${head}.`);
      if ((await git.diffStats(baseSha, headSha)).commits === 0)
        return custom(`No commits between ${base} and ${head}`);
      const now = new Date().toISOString();
      const pull: StoredPull = {
        number: repo.nextNumber,
        id: stableId(`pull:${repo.id}#${repo.nextNumber}`),
        title: title.trim(),
        body: typeof b.body === 'string' ? b.body : null,
        head,
        base,
        draft: b.draft === true,
        state: 'open',
        merged: false,
        createdAt: now,
        updatedAt: now,
        closedAt: null,
        mergedAt: null,
        mergeCommitSha: null,
        headSha,
        baseSha,
        stats: null,
        authorLogin: actor.login,
        mergedByLogin: null,
      };
      repo.nextNumber++;
      repo.pulls.push(pull);
      repo.updatedAt = now;
      return { pull, action: 'opened' };
    });
  }

  /** PATCH: title, body, base, and state (close or reopen). */
  async update([owner = '', name = '', n = '']: string[], b: Body, actor: Actor): Promise<ApiResponse> {
    if (b.title !== undefined && (typeof b.title !== 'string' || b.title.trim() === ''))
      return invalid('title');
    if (b.body !== undefined && b.body !== null && typeof b.body !== 'string') return invalid('body');
    if (b.state !== undefined && b.state !== 'open' && b.state !== 'closed') return invalid('state');
    if (b.base !== undefined && typeof b.base !== 'string') return invalid('base');
    const git = this.store.git(owner, name);
    return this.change(owner, name, 200, actor, async (repo) => {
      const pull = repo.pulls.find((p) => p.number === Number(n));
      if (!pull) return notFound();
      if (!sameLogin(pull.authorLogin, actor.login) && !maintains(repo, actor)) return authorOnly();
      if (typeof b.base === 'string' && b.base !== pull.base) {
        if (pull.state !== 'open' || !(await git.branchSha(b.base))) return invalid('base');
        pull.base = b.base;
      }
      if (typeof b.title === 'string') pull.title = b.title.trim();
      if (b.body !== undefined) pull.body = b.body as string | null;
      let action: string | undefined;
      const now = new Date().toISOString();
      if (b.state === 'closed' && pull.state === 'open') {
        await this.freeze(repo, pull);
        Object.assign(pull, { state: 'closed', closedAt: now });
        action = 'closed';
      } else if (b.state === 'open' && pull.state === 'closed') {
        if (pull.merged || !(await git.branchSha(pull.head)))
          return custom('state cannot be changed. The pull request cannot be reopened.');
        Object.assign(pull, { state: 'open', closedAt: null, stats: null });
        action = 'reopened';
      }
      pull.updatedAt = repo.updatedAt = now;
      return { pull, ...(action ? { action } : {}) };
    });
  }

  async merge([owner = '', name = '', n = '']: string[], b: Body, actor: Actor): Promise<ApiResponse> {
    const method = b.merge_method ?? 'merge';
    if (method !== 'merge' && method !== 'squash' && method !== 'rebase') return invalid('merge_method');
    if (method === 'rebase') return refused(405, 'Rebase merges are not allowed on this repository.');
    for (const field of ['sha', 'commit_title', 'commit_message'])
      if (b[field] !== undefined && typeof b[field] !== 'string') return invalid(field);
    const git = this.store.git(owner, name);
    let mergeSha = '';
    const res = await this.change(owner, name, 200, actor, async (repo) => {
      const pull = repo.pulls.find((p) => p.number === Number(n));
      if (!pull) return notFound();
      if (!maintains(repo, actor)) return founderOnly();
      if (pull.state !== 'open') return notMergeable();
      const headSha = await git.branchSha(pull.head);
      const baseSha = await git.branchSha(pull.base);
      if (!headSha || !baseSha) return notMergeable();
      if (b.sha !== undefined && b.sha !== headSha)
        return refused(409, 'Head branch was modified. Review and try the merge again.');
      const tree = await git.mergeTree(baseSha, headSha);
      if (!tree) return notMergeable();
      const squash = method === 'squash';
      const title =
        (b.commit_title as string | undefined) ??
        (squash
          ? `${pull.title} (#${pull.number})`
          : `Merge pull request #${pull.number} from ${owner}/${pull.head}`);
      const message = (b.commit_message as string | undefined) ?? (squash ? '' : pull.title);
      const parents = squash ? [baseSha] : [baseSha, headSha];
      const commit = await git.commitTree(tree, parents, message ? `${title}\n\n${message}\n` : `${title}\n`);
      await this.freeze(repo, pull);
      if (!(await git.moveBranch(pull.base, commit, baseSha)))
        return refused(405, 'Base branch was modified. Review and try the merge again.');
      const now = new Date().toISOString();
      Object.assign(pull, { state: 'closed', merged: true, closedAt: now, mergedAt: now, updatedAt: now });
      pull.mergedByLogin = actor.login;
      pull.mergeCommitSha = mergeSha = commit;
      repo.updatedAt = now;
      return { pull, action: 'closed' };
    });
    if (res.status !== 200) return res;
    return {
      status: 200,
      body: { sha: mergeSha, merged: true, message: 'Pull Request successfully merged' },
    };
  }

  /** Records the tips and diff a closed pull request keeps showing. */
  private async freeze(repo: StoredRepo, pull: StoredPull): Promise<void> {
    const tips = await this.views.tips(repo, pull);
    const stats = await this.store.git(repo.org, repo.name).diffStats(tips.baseSha, tips.headSha);
    Object.assign(pull, tips, { stats });
  }

  /** Applies a change under the repository's lock, answers with the pull request, sends its webhook. */
  private async change(
    owner: string,
    name: string,
    status: number,
    actor: Actor,
    fn: (repo: StoredRepo) => Promise<Outcome>,
  ): Promise<ApiResponse> {
    const outcome = await this.store.update(owner, name, fn, (o) => !isResponse(o));
    if (!outcome) return notFound();
    if (isResponse(outcome)) return outcome;
    const repo = await this.store.get(owner, name);
    const pull = repo?.pulls.find((p) => p.number === outcome.pull.number);
    if (!repo || !pull) return notFound();
    const { action } = outcome;
    if (action)
      this.webhooks.send('pull_request', async () =>
        pullRequestEvent(
          this.views.urls,
          action,
          await this.views.pull(repo, pull),
          await this.views.repo(repo),
          actor.login,
        ),
      );
    const body = await this.views.pull(repo, pull);
    return { status, body, headers: status === 201 ? { location: String(body.url) } : {} };
  }
}
