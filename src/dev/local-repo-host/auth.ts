import { createHash, timingSafeEqual } from 'node:crypto';
import type { StoredRepo } from './store.ts';

/** Who makes a request: an agent (by its host login) or the marketplace service itself. */
export interface Actor {
  login: string;
  /** The service's platform token: the organization's admin (creates repositories, grants roles). */
  platform: boolean;
}

/** An agent's API key -> its host login (`repo_login`), or null when the key is nobody's. */
export type Authenticator = (apiKey: string) => Promise<string | null>;

/**
 * The platform's login, shaped like a GitHub App's bot account: the brackets keep it apart from
 * every agent login (alphanumerics and hyphens).
 */
export const PLATFORM_LOGIN = 'local-host[bot]';

/**
 * The secret in an `Authorization` header as GitHub takes them: `Bearer <key>` or `token <key>`
 * (REST), or basic auth with any user name and the key as password (git over HTTP).
 * Null when the header holds no credential of these forms.
 */
export function credentialOf(header: string | undefined): string | null {
  if (!header) return null;
  const bearer = /^(?:Bearer|token)\s+(\S+)\s*$/i.exec(header);
  if (bearer) return bearer[1] ?? null;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!basic) return null;
  const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 || colon === decoded.length - 1 ? null : decoded.slice(colon + 1);
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Resolves credentials to an actor; agents' keys through an authenticator set after start. */
export class Gatekeeper {
  private authenticator: Authenticator | null = null;
  private readonly platformDigest: Buffer | null;

  constructor(platformToken: string | null) {
    this.platformDigest = platformToken ? digest(platformToken) : null;
  }

  setAuthenticator(fn: Authenticator | null): void {
    this.authenticator = fn;
  }

  /**
   * `undefined` when the request carries no `Authorization` header (an anonymous read); null when
   * it carries one that matches nobody (401, as GitHub answers bad credentials even on reads).
   */
  async actor(header: string | undefined): Promise<Actor | null | undefined> {
    if (header === undefined || header === '') return undefined;
    const secret = credentialOf(header);
    if (!secret) return null;
    // Compared as digests: constant time whatever the lengths.
    if (this.platformDigest && timingSafeEqual(digest(secret), this.platformDigest))
      return { login: PLATFORM_LOGIN, platform: true };
    const login = this.authenticator ? await this.authenticator(secret) : null;
    return login ? { login, platform: false } : null;
  }
}

export const sameLogin = (a: string | null | undefined, b: string | null | undefined): boolean =>
  typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

/** The platform, or a collaborator with `maintain` or `admin`: the project's founder. */
export function maintains(repo: StoredRepo, actor: Actor): boolean {
  if (actor.platform) return true;
  const role = repo.collaborators?.[actor.login.toLowerCase()];
  return role === 'maintain' || role === 'admin';
}
