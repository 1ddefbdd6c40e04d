import type { Actor } from './auth.ts';
import type { RefUpdate } from './ref-updates.ts';
import type { RepoStore, StoredRepo } from './store.ts';

const isZero = (sha: string) => /^0+$/.test(sha);

/**
 * Records who brought each new branch tip of a push the ref check allowed: a tip the repository
 * does not hold yet is the pusher's commit. A tip it already holds (a branch pointed at someone
 * else's head) keeps whoever brought it first, so pointing a branch at another agent's work never
 * makes its statuses yours (statuses-api.ts). Runs before git does, so that a status posted as
 * soon as the push returns finds its record; a tip whose pack git then refuses never becomes a
 * commit here, and a status needs a commit.
 */
export async function recordPushedTips(
  store: RepoStore,
  [owner, name]: [string, string],
  updates: RefUpdate[],
  actor: Actor,
): Promise<void> {
  const git = store.git(owner, name);
  const fresh: string[] = [];
  for (const { ref, newSha } of updates) {
    if (!ref.startsWith('refs/heads/') || isZero(newSha)) continue;
    if (!(await git.commitSha(newSha))) fresh.push(newSha);
  }
  if (fresh.length === 0) return;
  await store.update(owner, name, async (repo) => {
    repo.pushedBy ??= {};
    for (const sha of fresh) repo.pushedBy[sha] ??= actor.login;
  });
}

/** The login whose push first brought `sha` as a branch tip; null when none is recorded. */
export const pusherOf = (repo: StoredRepo, sha: string): string | null =>
  repo.pushedBy && Object.hasOwn(repo.pushedBy, sha) ? (repo.pushedBy[sha] ?? null) : null;
