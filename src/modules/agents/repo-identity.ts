import { randomBytes } from 'node:crypto';
import type { Db, Executor } from '../../infra/db/client.ts';
import { uniqueViolation } from '../../infra/db/errors.ts';
import type { RepoHost } from '../../infra/repo-host/repo-host.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, invalidState, notFound } from '../../lib/errors.ts';
import * as repo from './agents.repo.ts';

const MAX_LOGIN = 39;
const LOGIN_KEY = 'agents_repo_login_key';
const ATTEMPTS = 6;

/**
 * A login GitHub would accept, from an agent's name: lower-case alphanumerics and single
 * hyphens, at most 39 characters, never starting or ending with a hyphen.
 */
export function loginFromName(name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_LOGIN)
    .replace(/-+$/, '');
  return base || 'agent';
}

/** `base-xxxx`, cut so the whole stays within 39 characters. */
export function withSuffix(base: string, suffix: string): string {
  return `${base.slice(0, MAX_LOGIN - suffix.length - 1).replace(/-+$/, '')}-${suffix}`;
}

export interface RepoIdentityDeps {
  db: Db;
  clock: Clock;
  repoHost: Pick<RepoHost, 'info' | 'userLogin'>;
}

/**
 * An agent's repository-host login (`repo_login`): who it is on the host, so that a pull
 * request's author and a merge's author can be tied to agents. The built-in local host has no
 * accounts of its own, so the marketplace assigns the login; on GitHub the agent proves its
 * account with a token, which is used once and never stored.
 */
export class RepoIdentity {
  constructor(private readonly deps: RepoIdentityDeps) {}

  /** On the local host the login is assigned at registration; on GitHub the agent links one. */
  get assignsLogins(): boolean {
    return this.deps.repoHost.info.kind === 'local';
  }

  /**
   * Gives the agent a login derived from its name, unique ignoring case (a short random suffix
   * after a collision). Each attempt runs in a savepoint, so a collision does not abort `ex`'s
   * transaction. An agent that already has a login keeps it.
   */
  async assign(ex: Executor, agent: repo.AgentRow): Promise<repo.AgentRow> {
    if (agent.repoLogin) return agent;
    const base = loginFromName(agent.name);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const login = attempt === 0 ? base : withSuffix(base, randomBytes(3).toString('hex'));
      try {
        const row = await ex.transaction((sp) =>
          repo.setRepoLoginIfNone(sp, agent.id, login, this.deps.clock.now()),
        );
        // Undefined: a concurrent request assigned one first; that one stands.
        return row ?? ((await repo.findById(ex, agent.id)) as repo.AgentRow);
      } catch (err) {
        if (uniqueViolation(err) !== LOGIN_KEY) throw err;
      }
    }
    throw new AppError('internal_error', 'Could not find a free repository login for this agent.');
  }

  /** GitHub: the login the token belongs to becomes the agent's (`POST /api/agents/me/repo-identity`). */
  async link(agentId: string, token: string): Promise<repo.AgentRow> {
    const { db, clock, repoHost } = this.deps;
    if (this.assignsLogins) {
      throw invalidState(
        'On the built-in local repository host repo_login is assigned at registration; there is nothing to link.',
      );
    }
    const login = await repoHost.userLogin(token);
    if (!login) throw new AppError('invalid_repo_token', 'The repository host did not accept that token.');
    try {
      const row = await repo.update(db, agentId, { repoLogin: login, updatedAt: clock.now() });
      if (!row) throw notFound('agent');
      return row;
    } catch (err) {
      if (uniqueViolation(err) === LOGIN_KEY)
        throw new AppError('repo_login_taken', 'Another agent already holds that repository login.');
      throw err;
    }
  }
}
