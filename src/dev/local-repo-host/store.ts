import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BareRepo, type DiffStats } from './git.ts';

export interface StoredPull {
  number: number;
  id: number;
  title: string;
  body: string | null;
  head: string;
  base: string;
  draft: boolean;
  state: 'open' | 'closed';
  merged: boolean;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  mergedAt: string | null;
  mergeCommitSha: string | null;
  /** Last known tips; while open the branches are read live, once closed these are final. */
  headSha: string;
  baseSha: string;
  /** Frozen when the pull request closes. */
  stats: DiffStats | null;
  /** Who opened it; absent in records written before the host knew its users. */
  authorLogin?: string;
  /** Who merged it. */
  mergedByLogin?: string | null;
}

/** A commit status (`POST .../statuses/{sha}`); a commit's latest per context is its current one. */
export interface StoredStatus {
  id: number;
  sha: string;
  state: 'pending' | 'success' | 'failure' | 'error';
  context: string;
  description: string | null;
  targetUrl: string | null;
  creatorLogin: string;
  createdAt: string;
}

/** GitHub's repository roles; `maintain` and `admin` may merge and push to the default branch. */
export const PERMISSIONS = ['pull', 'triage', 'push', 'maintain', 'admin'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export interface StoredRepo {
  id: number;
  org: string;
  name: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
  nextNumber: number;
  pulls: StoredPull[];
  /** Lower-cased login -> role, as granted through the collaborators API (the founder's). */
  collaborators?: Record<string, Permission>;
  /** Commit statuses in the order they were posted; absent in records from before statuses. */
  statuses?: StoredStatus[];
  /**
   * Whom each context (lower-cased) belongs to: whoever first set it on this repository, or the
   * founder who took it since. A list, not an object: a context may be named `__proto__`. Absent
   * in older records, where the context's first status tells.
   */
  contexts?: { context: string; login: string }[];
  /**
   * Commit sha -> the login whose push brought it here as a branch tip: the one author whose
   * statuses on it a pull request may carry. Absent in records from before pushes were recorded.
   */
  pushedBy?: Record<string, string>;
}

/** Repository and pull request names as GitHub allows them; never a path trick. */
export const validName = (name: string): boolean =>
  /^[A-Za-z0-9._-]{1,100}$/.test(name) && name !== '.' && name !== '..' && !name.endsWith('.git');

/** GitHub-style numeric ids, stable for a name: the first 48 bits of its SHA-256. */
export const stableId = (text: string): number =>
  Number.parseInt(createHash('sha256').update(text).digest('hex').slice(0, 12), 16) || 1;

// The host's own records live next to git's files in each bare repository, which git ignores.
const META_FILE = 'local-host.json';

/**
 * The local host's state: bare repositories under `{root}/{org}/{name}.git`, each with a JSON record
 * of its pull requests, collaborators, commit statuses and who pushed which commit. Changes to one
 * repository are serialized; records are replaced atomically.
 */
export class RepoStore {
  private readonly cache = new Map<string, StoredRepo>();
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(readonly root: string) {}

  gitDir(org: string, name: string): string {
    return join(this.root, org, `${name}.git`);
  }

  git(org: string, name: string): BareRepo {
    return new BareRepo(this.gitDir(org, name), this.root);
  }

  async get(org: string, name: string): Promise<StoredRepo | null> {
    if (!validName(org) || !validName(name)) return null;
    const key = `${org}/${name}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const path = join(this.gitDir(org, name), META_FILE);
    if (!existsSync(path)) return null;
    const repo = JSON.parse(await readFile(path, 'utf8')) as StoredRepo;
    this.cache.set(key, repo);
    return repo;
  }

  async list(org: string): Promise<string[]> {
    if (!validName(org) || !existsSync(join(this.root, org))) return [];
    const entries = await readdir(join(this.root, org));
    return entries
      .filter((e) => e.endsWith('.git') && !e.startsWith('.'))
      .map((e) => e.slice(0, -4))
      .sort();
  }

  /** Creates the repository unless it exists; built in a temporary directory, then renamed in. */
  async create(
    org: string,
    name: string,
    description: string | null,
    readme: string | null,
  ): Promise<{ repo: StoredRepo; created: boolean }> {
    return this.locked(`${org}/${name}`, async () => {
      const existing = await this.get(org, name);
      if (existing) return { repo: existing, created: false };
      await mkdir(join(this.root, org), { recursive: true });
      const tmp = join(this.root, org, `.${name}.git.tmp-${randomBytes(6).toString('hex')}`);
      const now = new Date().toISOString();
      const repo: StoredRepo = {
        id: stableId(`repo:${org}/${name}`),
        org,
        name,
        description,
        createdAt: now,
        updatedAt: now,
        nextNumber: 1,
        pulls: [],
      };
      try {
        await BareRepo.create(tmp, this.root, readme);
        await writeFile(join(tmp, META_FILE), JSON.stringify(repo, null, 2));
        await rename(tmp, this.gitDir(org, name));
      } catch (err) {
        await rm(tmp, { recursive: true, force: true });
        throw err;
      }
      this.cache.set(`${org}/${name}`, repo);
      return { repo, created: true };
    });
  }

  /**
   * Runs `change` on a copy of the repository's record with this repository's other changes held
   * off, then persists the copy unless `keep` says no. A change that throws or is not kept leaves
   * the stored record as it was. Null when there is no such repository.
   */
  async update<T>(
    org: string,
    name: string,
    change: (repo: StoredRepo) => Promise<T>,
    keep: (result: T) => boolean = () => true,
  ): Promise<T | null> {
    return this.locked(`${org}/${name}`, async () => {
      const current = await this.get(org, name);
      if (!current) return null;
      const draft = structuredClone(current);
      const result = await change(draft);
      if (!keep(result)) return result;
      const path = join(this.gitDir(org, name), META_FILE);
      const tmp = `${path}.tmp-${randomBytes(6).toString('hex')}`;
      await writeFile(tmp, JSON.stringify(draft, null, 2));
      await rename(tmp, path);
      this.cache.set(`${org}/${name}`, draft);
      return result;
    });
  }

  private async locked<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.catch(() => {});
    this.locks.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.locks.get(key) === tail) this.locks.delete(key);
    }
  }
}
