import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvmChainOptions } from '../../src/infra/chain/evm-chain.ts';
import { withApiKey } from './git.ts';
import { type ServerProcess, startServer } from './process.ts';

/** A small seeded PRNG (mulberry32): the same seed replays the same kill schedule. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The environment that points the real server at an external chain (a test anvil). */
export function externalChainEnv(o: EvmChainOptions): Record<string, string> {
  return {
    CHAIN_RPC_URL: o.rpcUrl,
    CHAIN_ID: String(o.chainId),
    CHAIN_NAME: o.name,
    FACTORY_ADDRESS: o.factoryAddress,
    TREASURY_ADDRESS: o.treasuryAddress,
    OPERATOR_PRIVATE_KEY: o.operatorKey,
    PAYOUT_PRIVATE_KEY: o.payoutKey,
    CHAIN_POLLING_INTERVAL_MS: String(o.pollingIntervalMs),
  };
}

/** Starts the server, failing with its output when it is not listening within `timeoutMs`. */
export async function startServerWithin(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ServerProcess> {
  const starting = startServer(env);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`server did not listen within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([starting, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** SIGKILL: no shutdown hook, no finally block, no flush; resolves once the process is gone. */
export async function killHard(server: ServerProcess): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited;
}

export interface ApiResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes, checked by the tests.
  body: any;
}

/** One JSON call against a running server; a connection cut by a kill rejects. */
export async function api(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  opts: { key?: string; body?: unknown } = {},
): Promise<ApiResponse> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

function git(cwd: string, args: string[], input?: string, apiKey?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...(apiKey ? withApiKey(apiKey) : {}) },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out.trim()) : reject(new Error(`git ${args.join(' ')} failed (${code}): ${err}`)),
    );
    child.stdin?.end(input);
  });
}

/**
 * Opens one pull request per API key on a repository of the server's built-in repository host,
 * each authored by that key's agent: one branch with one commit each (written by a single
 * `git fast-import`), one push (with the first key), then the host's REST API with each key.
 * Returns the pull requests' URLs, `{repoUrl}/pull/{n}`, in order.
 */
export async function openPullRequests(repoUrl: string, authorKeys: string[]): Promise<string[]> {
  const count = authorKeys.length;
  const dir = mkdtempSync(join(tmpdir(), 'bm-prs-'));
  try {
    await git(dir, ['clone', '-q', `${repoUrl}.git`, 'repo']);
    const cwd = join(dir, 'repo');
    const base = await git(cwd, ['symbolic-ref', '--short', 'HEAD']);
    const baseSha = await git(cwd, ['rev-parse', 'HEAD']);
    const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}\n`;
    let stream = '';
    for (let i = 1; i <= count; i++) {
      stream +=
        `commit refs/heads/work-${i}\ncommitter Crash Test <crash@example.com> 1700000000 +0000\n` +
        data(`Work for bounty ${i}`) +
        `from ${baseSha}\nM 100644 inline work-${i}.txt\n` +
        data(`done ${i}`);
    }
    await git(cwd, ['fast-import', '--quiet'], stream);
    await git(cwd, ['push', '-q', 'origin', 'refs/heads/work-*:refs/heads/work-*'], undefined, authorKeys[0]);
    const { origin, pathname } = new URL(repoUrl);
    const urls: string[] = [];
    for (let i = 1; i <= count; i++) {
      const res = await api(origin, 'POST', `/api/v3/repos${pathname}/pulls`, {
        key: authorKeys[i - 1] as string,
        body: { title: `Work ${i}`, head: `work-${i}`, base },
      });
      if (res.status !== 201)
        throw new Error(`opening pull request ${i} failed: ${JSON.stringify(res.body)}`);
      urls.push(`${repoUrl}/pull/${res.body.number}`);
    }
    return urls;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Merges a pull request of the built-in repository host of the server at `baseUrl` as `key`'s
 * agent (the founder), through the host's REST API at the address the server publishes (a
 * restarted server's host listens on a new port: only the pull request URL's path is used). The
 * host then reports the merge to the service with a signed webhook, in the background.
 */
export async function mergePullRequest(baseUrl: string, prUrl: string, key: string): Promise<ApiResponse> {
  const config = await api(baseUrl, 'GET', '/api/config/public');
  const { origin, pathname } = new URL(config.body.config.repository_host.api_url as string);
  const [repoPath, number] = new URL(prUrl).pathname.split('/pull/') as [string, string];
  return api(origin, 'PUT', `${pathname.replace(/\/$/, '')}/repos${repoPath}/pulls/${number}/merge`, {
    key,
    body: {},
  });
}
