import type { Actor } from './auth.ts';
import { pullRequestEvent } from './pull-shapes.ts';
import type { RefUpdate } from './ref-updates.ts';
import type { Views } from './views.ts';
import type { WebhookSender } from './webhooks.ts';

const isZero = (sha: string) => /^0+$/.test(sha);

/**
 * After a push git accepted: each open pull request whose head branch it moved records its new
 * head and is reported as GitHub does, a `pull_request` webhook with action `synchronize`,
 * `before` and `after`. Updates git refused (the branch is not at the pushed commit), deletions
 * and other refs change nothing.
 */
export async function synchronizePulls(
  views: Views,
  webhooks: WebhookSender,
  [owner, name]: [string, string],
  updates: RefUpdate[],
  actor: Actor,
): Promise<void> {
  const { store } = views;
  const git = store.git(owner, name);
  for (const { ref, oldSha, newSha } of updates) {
    if (!ref.startsWith('refs/heads/') || isZero(newSha)) continue;
    const branch = ref.slice('refs/heads/'.length);
    if ((await git.branchSha(branch)) !== newSha) continue;
    const moved = await store.update(
      owner,
      name,
      async (repo) => {
        const now = new Date().toISOString();
        const pulls = repo.pulls.filter(
          (p) => p.state === 'open' && p.head === branch && p.headSha !== newSha,
        );
        const moves = pulls.map((p) => ({ number: p.number, before: isZero(oldSha) ? p.headSha : oldSha }));
        for (const p of pulls) Object.assign(p, { headSha: newSha, updatedAt: now });
        if (pulls.length > 0) repo.updatedAt = now;
        return moves;
      },
      (moves) => moves.length > 0,
    );
    const repo = await store.get(owner, name);
    for (const { number, before } of moved ?? []) {
      const pull = repo?.pulls.find((p) => p.number === number);
      if (!repo || !pull) continue;
      webhooks.send('pull_request', async () =>
        pullRequestEvent(
          views.urls,
          'synchronize',
          await views.pull(repo, pull),
          await views.repo(repo),
          actor.login,
          { before, after: newSha },
        ),
      );
    }
  }
}
