/** The built-in repository host with one pull request, shared by the local-repo-host-checks files. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll } from 'vitest';
import { type LocalRepoHost, startLocalRepoHost } from '../../src/dev/local-repo-host/server.ts';
import { GithubHost } from '../../src/infra/repo-host/github-host.ts';
import { contributorGitEnv } from './git.ts';

export const run = promisify(execFile);
export const SECRET = 'checks-webhook-secret';
export const PLATFORM = 'platform-token-for-checks';
/** alice founds the repository, bob contributes, carol is another agent. */
export const KEYS = new Map([
  ['key-alice', 'alice'],
  ['key-bob', 'bob'],
  ['key-carol', 'carol'],
]);
export const REPO = 'checks';
export const BRANCH = 'feature/checks';

export type Json = Record<string, unknown>;

export interface Delivery {
  event: string;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
  json: Json;
}

export let tmp: string;
export let host: LocalRepoHost;
export let repoHost: GithubHost;
export let receiver: Server;
export const deliveries: Delivery[] = [];
export let founderDir: string;
export let bobDir: string;
export let number: number;
export let headSha: string;

export const envs = {} as Record<'alice' | 'bob', NodeJS.ProcessEnv>;

export async function git(who: 'alice' | 'bob', cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, env: envs[who], maxBuffer: 16 * 1024 * 1024 });
  return stdout.replace(/\n$/, '');
}

export async function api(method: string, path: string, body?: unknown, key: string | null = 'key-bob') {
  const res = await fetch(`${host.apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
}

export async function waitFor(pred: (d: Delivery) => boolean): Promise<Delivery> {
  for (let i = 0; i < 200; i++) {
    const found = deliveries.find(pred);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no such webhook delivery arrived');
}

export const repoPath = `/repos/marketplace/${REPO}`;
export const statusPath = (sha: string) => `${repoPath}/statuses/${sha}`;

export function setHeadSha(sha: string): void {
  headSha = sha;
}

/** Starts the host, its webhook receiver and the pull request before the file; stops them after. */
export function useChecksRepo(): void {
  beforeAll(async () => {
    // One worker runs several files in this module graph: start each with no deliveries.
    deliveries.length = 0;
    tmp = mkdtempSync(join(tmpdir(), 'local-host-checks-'));
    envs.alice = contributorGitEnv(tmp, 'Alice', 'key-alice');
    envs.bob = contributorGitEnv(tmp, 'Bob', 'key-bob');
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const event = String(req.headers['x-github-event']);
        deliveries.push({ event, headers: req.headers, raw, json: JSON.parse(raw.toString('utf8')) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    host = await startLocalRepoHost({
      dataDir: join(tmp, 'data'),
      port: 0,
      webhook: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, secret: SECRET },
      webhookRetryDelaysMs: [50],
      platformToken: PLATFORM,
    });
    host.setAuthenticator(async (key) => KEYS.get(key) ?? null);
    repoHost = new GithubHost({
      kind: 'local',
      apiUrl: host.apiUrl,
      org: host.org,
      token: PLATFORM,
      webhookSecret: SECRET,
    });
    const repo = await repoHost.ensureRepository(REPO, {
      description: `Checks · proj-${REPO}`,
      projectId: `proj-${REPO}`,
      founderLogin: 'alice',
    });

    // The founder gives main some files to rename, delete and change.
    founderDir = mkdtempSync(join(tmp, 'alice-'));
    await git('alice', tmp, 'clone', '--quiet', repo.htmlUrl, founderDir);
    writeFileSync(join(founderDir, 'old-name.txt'), 'one\ntwo\nthree\nfour\nfive\n');
    writeFileSync(join(founderDir, 'gone.txt'), 'to be removed\nsoon\n');
    writeFileSync(join(founderDir, 'notes.md'), 'line 1\nline 2\nline 3\n');
    await git('alice', founderDir, 'add', '-A');
    await git('alice', founderDir, 'commit', '--quiet', '-m', 'Files to work on');
    await git('alice', founderDir, 'push', '--quiet', 'origin', 'main');

    // bob's branch: a rename, a removal, a change, a new text file, a new binary, a path with a space.
    bobDir = mkdtempSync(join(tmp, 'bob-'));
    await git('bob', tmp, 'clone', '--quiet', repo.htmlUrl, bobDir);
    await git('bob', bobDir, 'checkout', '--quiet', '-b', BRANCH);
    await git('bob', bobDir, 'mv', 'old-name.txt', 'new-name.txt');
    unlinkSync(join(bobDir, 'gone.txt'));
    writeFileSync(join(bobDir, 'notes.md'), 'line 1\nline two, changed\nline 3\nline 4\n');
    writeFileSync(join(bobDir, 'hello.txt'), 'hello\nworld\n');
    writeFileSync(join(bobDir, 'logo.bin'), Buffer.from([0, 1, 2, 0, 255, 0, 10, 0]));
    writeFileSync(join(bobDir, 'with space.md'), '# spaced\n');
    await git('bob', bobDir, 'add', '-A');
    await git('bob', bobDir, 'commit', '--quiet', '-m', 'Work on checks');
    await git('bob', bobDir, 'push', '--quiet', 'origin', BRANCH);
    headSha = await git('bob', bobDir, 'rev-parse', 'HEAD');
    const octokit = new Octokit({ baseUrl: host.apiUrl, auth: 'key-bob' });
    const pr = await octokit.rest.pulls.create({
      owner: host.org,
      repo: REPO,
      title: 'Checks',
      head: BRANCH,
      base: 'main',
    });
    number = pr.data.number;
  });

  afterAll(async () => {
    await host?.stop();
    await new Promise((r) => receiver?.close(r));
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });
}
